package land

import (
	"embed"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/recordwatch/recordwatch/internal/record"
)

// Procedure is a review procedure as data (procedures/*.json): its stages
// in order, each with its actor, effect, Charter section, time limit,
// parallel review group and whether it always applies, and the ZAP
// milestone names that are evidence of it. Source names the Charter
// sections the definition was reviewed against and what could not be
// verified.
type Procedure struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	AppliesTo []string        `json:"applies_to"`
	Source    ProcedureSource `json:"source"`
	Groups    []Group         `json:"groups"`
	Stages    []Stage         `json:"stages"`
	// Outside are milestone names that belong to no stage (the project's
	// closing, the Commission's internal review sessions, ad-hoc appeals),
	// each with why.
	Outside []OutsideMilestone `json:"outside"`
}

// OutsideMilestone is a milestone that is no stage, and why.
type OutsideMilestone struct {
	Milestone string `json:"milestone"`
	Note      string `json:"note"`
	// NoteKey is Note as a note (ProcKey), for the reader's language.
	NoteKey record.Note `json:"note_key"`
}

// ProcedureSource is where a procedure definition comes from:
// CharterVersion names the Charter text it was checked against (bundled in
// testdata/charter); Unverified lists what could not be checked there,
// each item saying why (empty when everything was).
type ProcedureSource struct {
	Title            string   `json:"title"`
	URL              string   `json:"url"`
	CharterVersion   string   `json:"charter_version"`
	SectionsReviewed []string `json:"sections_reviewed"`
	ReviewNote       string   `json:"review_note"`
	Unverified       []string `json:"unverified"`
	// TitleKey and ReviewNoteKey are Title and ReviewNote as notes
	// (ProcKey), for the reader's language.
	TitleKey      record.Note `json:"title_key"`
	ReviewNoteKey record.Note `json:"review_note_key"`
}

// Group is a parallel review group: stages that run side by side.
type Group struct {
	ID     string   `json:"id"`
	Name   string   `json:"name"`
	Stages []string `json:"stages"`
	Note   string   `json:"note"`
}

// Stage is one normative stage. Charter cites its section and subdivision
// ("§197-c(e)(1)"); CharterText is the Charter's own words for it there,
// including its time limit when TimeLimitDays is set (the day count as the
// Charter spells it); TimeLimitNote gives the Charter's exceptions.
type Stage struct {
	ID            string `json:"id"`
	Name          string `json:"name"`
	Actor         string `json:"actor"`
	Effect        string `json:"effect"`
	Charter       string `json:"charter"`
	CharterText   string `json:"charter_text"`
	TimeLimitDays int    `json:"time_limit_days,omitempty"`
	TimeLimitNote string `json:"time_limit_note,omitempty"`
	Group         string `json:"group,omitempty"`
	Applies       string `json:"applies"` // always, conditional
	// OnRequest: the stage happens only when someone asks for it (the
	// Affordable Housing Appeals Board); the portal lists its milestones
	// as ad-hoc ones on every project it may apply to, and they are
	// evidence of it all the same.
	OnRequest  bool     `json:"on_request,omitempty"`
	Condition  string   `json:"condition,omitempty"`
	Milestones []string `json:"milestones"`
	// EffectKey and ConditionKey are Effect and Condition as notes
	// (ProcKey), for the reader's language.
	EffectKey    record.Note  `json:"effect_key"`
	ConditionKey *record.Note `json:"condition_key,omitempty"`
}

// ProcKey is the key of a procedure's own text in the message files
// (record/locale): "land.proc.<procedure>." followed by the parts joined
// by dots ("source.title", "stage.<stage>.effect", "outside.<milestone
// slug>"). The English there is the definition's text, byte for byte (a
// test of every procedure checks it), beside its Spanish.
func ProcKey(procedure string, parts ...string) string {
	return "land.proc." + procedure + "." + strings.Join(parts, ".")
}

// slugRe are the characters a key leaves out of a milestone's name.
var slugRe = regexp.MustCompile(`[^a-z0-9]+`)

// MilestoneSlug is a milestone's name as part of a key ("Review Session -
// Certified / Referred" → "review_session_certified_referred").
func MilestoneSlug(name string) string {
	return strings.Trim(slugRe.ReplaceAllString(strings.ToLower(name), "_"), "_")
}

// keyed is p with the keys of its texts set (ProcKey).
func (p Procedure) keyed() Procedure {
	p.Source.TitleKey = record.N(ProcKey(p.ID, "source", "title"))
	p.Source.ReviewNoteKey = record.N(ProcKey(p.ID, "source", "review_note"))
	for i := range p.Stages {
		s := &p.Stages[i]
		s.EffectKey = record.N(ProcKey(p.ID, "stage", s.ID, "effect"))
		if s.Condition != "" {
			c := record.N(ProcKey(p.ID, "stage", s.ID, "condition"))
			s.ConditionKey = &c
		}
	}
	for i := range p.Outside {
		p.Outside[i].NoteKey = record.N(ProcKey(p.ID, "outside", MilestoneSlug(p.Outside[i].Milestone)))
	}
	return p
}

//go:embed procedures/*.json
var procedureFiles embed.FS

var procedures = mustProcedures()

func mustProcedures() map[string]Procedure {
	out := map[string]Procedure{}
	entries, err := procedureFiles.ReadDir("procedures")
	if err != nil {
		panic(err)
	}
	for _, e := range entries {
		data, err := procedureFiles.ReadFile("procedures/" + e.Name())
		if err != nil {
			panic(err)
		}
		var p Procedure
		if err := json.Unmarshal(data, &p); err != nil {
			panic(fmt.Sprintf("land: procedure %s: %v", e.Name(), err))
		}
		if err := p.check(); err != nil {
			panic(fmt.Sprintf("land: procedure %s: %v", e.Name(), err))
		}
		out[p.ID] = p.keyed()
	}
	return out
}

// CharterCitation is the shape of a stage's citation: the section and its
// subdivision, then paragraphs ("§197-c(e)(1)", "§197-d(c-1)", "§200(a)(1)").
var CharterCitation = regexp.MustCompile(`^§(\d+(?:-[a-z])?)\(([a-z](?:-\d)?)\)((?:\(\d+\))*)$`)

// check validates a definition: stage ids unique, each stage citing a
// Charter section and subdivision with the Charter's words, groups name
// held stages, a milestone name belongs to one stage at most, a source
// named.
func (p Procedure) check() error {
	if p.ID == "" || p.Source.Title == "" || len(p.Source.SectionsReviewed) == 0 || p.Source.CharterVersion == "" {
		return fmt.Errorf("a procedure needs an id and a named source with the Charter version and the sections reviewed")
	}
	for _, u := range p.Source.Unverified {
		if !strings.Contains(u, ":") {
			return fmt.Errorf("an unverified item must say why (\"what: why\"): %q", u)
		}
	}
	ids := map[string]bool{}
	ms := map[string]string{}
	for _, s := range p.Stages {
		if ids[s.ID] {
			return fmt.Errorf("stage %s twice", s.ID)
		}
		if !CharterCitation.MatchString(s.Charter) || s.CharterText == "" {
			return fmt.Errorf("stage %s: cite the Charter's section and subdivision (§197-c(e)) with its words, not %q", s.ID, s.Charter)
		}
		ids[s.ID] = true
		if s.Applies != "always" && s.Applies != "conditional" {
			return fmt.Errorf("stage %s: applies must be always or conditional", s.ID)
		}
		if s.OnRequest && s.Applies != "conditional" {
			return fmt.Errorf("stage %s: a stage on request is conditional", s.ID)
		}
		for _, m := range s.Milestones {
			if o, ok := ms[m]; ok {
				return fmt.Errorf("milestone %q in stages %s and %s", m, o, s.ID)
			}
			ms[m] = s.ID
		}
	}
	for _, g := range p.Groups {
		for _, s := range g.Stages {
			if !ids[s] {
				return fmt.Errorf("group %s names unknown stage %s", g.ID, s)
			}
		}
	}
	return nil
}

// ProcedureByID returns a procedure definition.
func ProcedureByID(id string) (Procedure, bool) {
	p, ok := procedures[id]
	return p, ok
}

// ProcedureIDs lists the procedure ids held.
func ProcedureIDs() []string {
	var out []string
	for id := range procedures {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// StageIDs lists every stage id of every procedure, in procedure order
// (each once).
func StageIDs() []string {
	var out []string
	for _, id := range ProcedureIDs() {
		for _, s := range procedures[id].Stages {
			if !contains(out, s.ID) {
				out = append(out, s.ID)
			}
		}
	}
	return out
}

// stageByID is a stage of the procedure.
func (p Procedure) stageByID(id string) (Stage, bool) {
	for _, s := range p.Stages {
		if s.ID == id {
			return s, true
		}
	}
	return Stage{}, false
}

// stageOf is the stage a milestone name (without its action prefix) is
// evidence of; "" when none (outside the procedure, or unknown).
func (p Procedure) stageOf(milestone string) string {
	m := strings.TrimSpace(milestone)
	for _, s := range p.Stages {
		for _, name := range s.Milestones {
			if strings.EqualFold(name, m) {
				return s.ID
			}
		}
	}
	return ""
}

// SplitMilestone splits a ZAP milestone name into its action prefix and
// the milestone ("HA - Review Session - Certified / Referred  " → "HA",
// "Review Session - Certified / Referred"; "- Review Session …" has an
// empty prefix).
func SplitMilestone(name string) (prefix, milestone string) {
	name = strings.TrimSpace(name)
	if strings.HasPrefix(name, "- ") {
		return "", strings.TrimSpace(name[2:])
	}
	if p, m, ok := strings.Cut(name, " - "); ok && !strings.Contains(p, " ") {
		return strings.TrimSpace(p), strings.TrimSpace(m)
	}
	return "", name
}
