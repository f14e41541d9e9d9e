package web

import (
	"fmt"
	"html"
	"html/template"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/joins"
	"github.com/recordwatch/recordwatch/internal/land"
)

// landEnglishRe are English words no Spanish sentence of the land pages
// uses (the plain-words walk's list, api/plainwords_test.go).
var landEnglishRe = regexp.MustCompile(`(?i)\b(the|is|are|and|this|that|with|which|from|not|was|were|have|its|their|only|by|of|on|at|or|held|none|after|before|when|may|does|it|be|been|than|into|any|every|must|would|should|they|there|these|those|what|who|whose|named|linked|published|recorded|printed)\b`)

// landTexts are the land services' own texts a land page says as
// sentences, every one the procedures and the decision path can produce:
// each procedure's source and review note, each stage's effect, each
// conditional stage's reasons (absent or unknown, before a later stage or
// not), each milestone outside the procedure, the path's fixed reasons
// and notes, and why a lot has no geometry.
func landTexts(t *testing.T) []string {
	t.Helper()
	var out []string
	ids := land.ProcedureIDs()
	if len(ids) < 3 {
		t.Fatalf("procedures held: %v", ids)
	}
	for _, id := range ids {
		p, _ := land.ProcedureByID(id)
		out = append(out, p.Source.Title, p.Source.ReviewNote)
		for _, s := range p.Stages {
			out = append(out, s.Effect)
			if s.Applies == "conditional" {
				for _, base := range []string{land.ReasonAbsent, land.ReasonUnknown} {
					r := land.ConditionalReason(base, s.Condition)
					out = append(out, r, land.LaterReason(r))
				}
			}
		}
		for _, o := range p.Outside {
			out = append(out, land.NoteOutside+o.Note)
		}
	}
	out = append(out,
		land.ReasonHappened, land.ReasonInProgress, land.ReasonCurrent, land.ReasonNotStarted, land.ReasonAbsent, land.ReasonUnknown,
		land.LaterReason(land.ReasonAbsent), land.LaterReason(land.ReasonUnknown),
		land.NoteAdHoc, land.NoteAdHocOnRequest, land.NoteUnmapped, land.NoteApprovalDate, land.NoteClosing, land.NoteCompleted, land.NoteLayers,
		fmt.Sprintf(land.ProcedureNoteFormat, land.ProcedureNotStated),
		land.NoCentroidReason("1000010001", false), land.NoCentroidReason("4021790001", true),
		land.NoCentroidReason("1012617501", true), land.NoCentroidReason("1000010001", true),
		land.LotMethodCentroid, land.LotMethodProject, land.LotNotInPLUTO, land.LotNotFetched, land.LotNotAsked, fmt.Sprintf(land.LotNoAnswer, "HTTP 503"),
		// other publishers' events' date notes (indexer/source/zap, meetings)
		"the row has no date", "passed date", "the date of the meeting whose minutes name the application",
	)
	for _, a := range (NYCMap{}).Areas() {
		if strings.Contains(a.Name, "joint interest") {
			out = append(out, a.Name)
		}
	}
	for _, what := range []string{"meetings joined to the project", "events of other publishers joined to the project", "City Record notices linked to the project"} {
		out = append(out, joins.BoundNote(what, joins.MaxRead))
	}
	return out
}

// Every procedure's name and every stage's name and actor has a label in
// both languages (the English as the definition writes it), the Spanish
// with no English word left.
func TestLandProcedureLabels(t *testing.T) {
	n := 0
	for _, id := range land.ProcedureIDs() {
		p, _ := land.ProcedureByID(id)
		check := func(kind, key, en string) {
			n++
			if got := Label("en", kind, key); got != en {
				t.Errorf("%s %s in English: %q, want %q", kind, key, got, en)
			}
			es := Label("es", kind, key)
			if es == en || es == "" {
				t.Errorf("%s %s (%q) has no Spanish", kind, key, en)
			}
			if w := landEnglishRe.FindString(es); w != "" {
				t.Errorf("%s %s: the Spanish leaves English (%q): %q", kind, key, w, es)
			}
		}
		check("land_procedure", id, p.Name)
		for _, s := range p.Stages {
			check("land_stage", LandStageKey(id, s.ID), s.Name)
			check("land_actor", LandStageKey(id, s.ID), s.Actor)
		}
	}
	if n < 40 {
		t.Errorf("only %d procedure labels checked", n)
	}
}

// Every land text has Spanish, and the Spanish leaves no English word.
func TestLandTextsInSpanish(t *testing.T) {
	texts := landTexts(t)
	for _, en := range texts {
		es := Plain("es", Say("es", en))
		if es == en {
			t.Errorf("no Spanish for the land text %q", en)
			continue
		}
		if w := landEnglishRe.FindString(es); w != "" {
			t.Errorf("the Spanish of %q leaves English (%q): %q", en, w, es)
		}
	}
	// the land service's answers to bad input, as the land pages show them
	for _, en := range []string{
		`"NOPE" is not a ZAP project id: four digits of year, a borough letter (M, X, K, Q, R, or Y for citywide) and four digits, with an optional legacy P prefix (2022M0258, P2018X0210)`,
		`no land project with id "2099X9999" is held`,
		`unknown borough "Mars"; boroughs: Bronx, Brooklyn`,
		`"12" is not a BBL: 10 digits, borough (1-5), block (5) and lot (4)`,
		`more than 200 projects held hold every word of "street": add a word or another filter (borough, status, stage …)`,
	} {
		if es := Say("es", en); es == en || landEnglishRe.MatchString(strings.NewReplacer("Bronx, Brooklyn", "", `"street"`, "").Replace(es)) {
			t.Errorf("the land error %q in Spanish: %q", en, es)
		}
	}
	if len(texts) < 60 {
		t.Errorf("only %d land texts enumerated", len(texts))
	}
}

// A sentence quoting record text says the site's words in Spanish and
// marks the record text apart, as published (recordNote); in English it is
// exactly the sentence.
func TestLandNotesKeepRecordText(t *testing.T) {
	place := "In person at 120-55 Queens Blvd or livestreamed"
	hearing := fmt.Sprintf(land.HearingNoteFormat+land.HearingAtFormat, "2026-07-02 09:30", place)
	minutes := fmt.Sprintf(land.MinutesNoteFormat, "text", `"…the board voted on C 250253 ZMQ…"`)
	meeting := fmt.Sprintf("%s on %s: %s (%q) names %s (%s)", "Subcommittee on Zoning and Franchises", "2026-07-14", "an agenda item",
		"Zoning, 50-20 108th Street Rezoning, Queens (C 250253 ZMQ).", "application C 250253 ZMQ, an action of land project 2024Q0113", "50-20 108th Street Rezoning")
	for _, c := range []struct {
		en      string
		records []string
	}{
		{hearing, []string{"2026-07-02 09:30", place}},
		{fmt.Sprintf(land.HearingNoteFormat, "2026-06-02 18:30"), []string{"2026-06-02 18:30"}},
		{minutes, []string{`"…the board voted on C 250253 ZMQ…"`}},
		{fmt.Sprintf(land.ProcedureNoteFormat, "Some Other Review"), []string{"Some Other Review"}},
		{meeting, []string{"Subcommittee on Zoning and Franchises", "2026", "07", "14", `"Zoning, 50-20 108th Street Rezoning, Queens (C 250253 ZMQ)."`, "C 250253 ZMQ", "2024Q0113", "50-20 108th Street Rezoning"}},
		{"the notice names the project (Hotel X) and its event date 2026-01-02 is the date of the recorded QN CB6 hearing", []string{"Hotel X", "2026-01-02", "QN CB6"}},
		{"the notice's block and lot resolve to BBL 1000010001, a lot of the project", []string{"1000010001"}},
		{"the notice names application number C 250253 ZMQ (project action C250253ZMQ)", []string{"C 250253 ZMQ", "C250253ZMQ"}},
	} {
		if en := recordNote("en", c.en); en != c.en {
			t.Errorf("English of %q: %v", c.en, en)
		}
		es := string(recordNote("es", c.en).(template.HTML))
		var records []string
		for _, m := range verbatimSpanRe.FindAllStringSubmatch(es, -1) {
			records = append(records, html.UnescapeString(m[1]))
		}
		words := strings.Fields(html.UnescapeString(verbatimSpanRe.ReplaceAllString(es, " ")))
		for _, r := range c.records {
			if !slices.ContainsFunc(records, func(got string) bool { return strings.Contains(got, r) }) {
				t.Errorf("record text of %q: %q is not marked (marked: %q)", c.en, r, records)
			}
		}
		if w := landEnglishRe.FindString(strings.Join(words, " ")); w != "" || len(words) == 0 {
			t.Errorf("Spanish words of %q leave English (%q): %q", c.en, w, words)
		}
	}
}
