package land

import (
	"fmt"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
)

// DecisionPath is the typed decision path of one project (SPEC §2.9): the
// observed layer (what the sources record, with dates and sources) and the
// normative layer (the stages of the reviewed procedure, their actors,
// effects and parallel review groups) are two lists that never share a
// key: a stage refers to the observations that are its evidence by their
// ids only. Stages without evidence stay explicit as absent or unknown.
type DecisionPath struct {
	ProjectID  string `json:"project_id"`
	ProjectURL string `json:"project_url"`
	Name       string `json:"name"`
	// Procedure is the reviewed procedure definition; nil when none is
	// held for the project's procedure (ProcedureNote says why).
	Procedure     *ProcedureRef `json:"procedure"`
	ProcedureNote string        `json:"procedure_note,omitempty"`
	// ProcedureNoteKey is ProcedureNote as a note (ProcedureNote), for
	// the reader's language.
	ProcedureNoteKey *record.Note  `json:"procedure_note_key,omitempty"`
	Observed         []Observation `json:"observed"`
	Normative        []StageState  `json:"normative"`
	Groups           []Group       `json:"parallel_groups"`
	// CurrentStage is the latest stage the records place the project at
	// ("unknown" when none).
	CurrentStage  string            `json:"current_stage"`
	StateMeanings map[string]string `json:"state_meanings"`
	Notes         []string          `json:"notes"`
	// NoteKeys are Notes as notes, for the reader's language (in the
	// same order; the note of a read cut by several bounds, one of Notes,
	// is one note for each bound).
	NoteKeys record.Notes `json:"note_keys"`
	// LinksComplete is false when the events the path is read from were
	// cut by a bounded read (ProjectRead.LinksComplete); Notes then says
	// which bound was hit.
	LinksComplete bool `json:"links_complete"`
	// Sources are the sources the path is read from (the project's and
	// the events'), each with its coverage and freshness as every scope
	// states them (ProjectRead.Sources).
	Sources []record.SourceCoverage `json:"sources"`
	// Hearings are the project's hearings as its read lists them (next
	// first, then later, then past ones), NextHearing the next one.
	Hearings    []Hearing `json:"hearings"`
	NextHearing *Hearing  `json:"next_hearing"`
}

// ProcedureRef names a procedure and its source.
type ProcedureRef struct {
	ID     string          `json:"id"`
	Name   string          `json:"name"`
	Source ProcedureSource `json:"source"`
}

// Observation is one recorded fact: a milestone, a recommendation, a
// dated statement, another publisher's event. Planned dates are given
// apart (Planned) and are never the date of an observation.
type Observation struct {
	ID      string    `json:"id"`
	Kind    string    `json:"kind"` // milestone, recommendation, dated_fact, current_milestone, bp_recommendation, council_item, council_action, cb_minutes
	Name    string    `json:"name"`
	Body    string    `json:"body,omitempty"`
	Action  string    `json:"action,omitempty"`
	Status  string    `json:"status,omitempty"`
	Started time.Time `json:"started,omitzero"`
	Date    time.Time `json:"date,omitzero"` // when it happened (ended, voted, stated)
	Planned *Planned  `json:"planned,omitempty"`
	Outcome string    `json:"outcome,omitempty"`
	Note    string    `json:"note,omitempty"`
	// NoteKey is Note as a note, for the reader's language (none for an
	// event an older index stored without one: Note is then its words).
	NoteKey *record.Note `json:"note_key,omitempty"`
	Source  string       `json:"source"`
	URL     string       `json:"url,omitempty"`
}

// Planned are the planned dates of a milestone: plans, not observations.
type Planned struct {
	Start         time.Time `json:"start,omitzero"`
	End           time.Time `json:"end,omitzero"`
	ReviewMeeting time.Time `json:"review_meeting,omitzero"`
}

// StageState is one normative stage with what the observations say of it.
type StageState struct {
	Stage
	// State: happened, in_progress, current, not_started, absent, unknown
	// (StateMeanings).
	State  string `json:"state"`
	Reason string `json:"reason"`
	// ReasonKeys are Reason as notes, said as the clauses of one
	// sentence (ReasonNotes).
	ReasonKeys record.Notes `json:"reason_keys"`
	Evidence   []string     `json:"evidence"` // observation ids
	Outcome    string       `json:"outcome,omitempty"`
	Date       time.Time    `json:"date,omitzero"` // the latest evidence date
	// PlannedEnd is the planned end of a stage not started (a plan).
	PlannedEnd time.Time `json:"planned_end,omitzero"`
	// PlannedPassed: that planned day is past (as of the read) and no
	// record shows the stage since; PlannedNote says so in words
	// ("planned for D; not observed since"), never "planned".
	PlannedPassed bool   `json:"planned_passed,omitempty"`
	PlannedNote   string `json:"planned_note,omitempty"`
	// PlannedNoteKey is PlannedNote as a note (PlannedPassedNote).
	PlannedNoteKey *record.Note `json:"planned_note_key,omitempty"`
}

// PlannedPassedNote says that a stage planned for day was not observed
// since, as of today (both New York days).
func PlannedPassedNote(day, today string) record.Note {
	return record.N("land.event.planned_passed", day, today)
}

// plannedPassed marks the stages not started whose planned end is before
// asOf's New York day: a plan whose day went by without a record of the
// stage is not a plan any more.
func (d *DecisionPath) plannedPassed(asOf time.Time) {
	if asOf.IsZero() {
		return
	}
	today := record.NewYorkDay(asOf)
	for i := range d.Normative {
		st := &d.Normative[i]
		if st.State != StateNotStarted || st.PlannedEnd.IsZero() {
			continue
		}
		if day := record.NewYorkDay(st.PlannedEnd); day < today {
			st.PlannedPassed = true
			n := PlannedPassedNote(day, today)
			st.PlannedNote, st.PlannedNoteKey = n.String(), &n
		}
	}
}

// Stage states.
const (
	StateHappened   = "happened"
	StateInProgress = "in_progress"
	StateCurrent    = "current"
	StateNotStarted = "not_started"
	StateAbsent     = "absent"
	StateUnknown    = "unknown"
)

// StateMeanings explain the stage states.
var StateMeanings = map[string]string{
	StateHappened:   "a held record shows the stage completed (a completed milestone, a recommendation, a recorded date or vote)",
	StateInProgress: "a held record shows the stage started and not completed",
	StateCurrent:    "the Open Data row names a milestone of this stage as the project's current milestone; whether it completed is not stated",
	StateNotStarted: "the portal lists the stage's milestone as Not Started, with planned dates only",
	StateAbsent:     "the portal's milestone list for the project is held and has no milestone of this stage: the stage is not recorded (it may not apply, may not have happened, or may have gone unrecorded)",
	StateUnknown:    "no milestone list is held for the project: whether the stage happened is unknown",
}

var stateRank = map[string]int{StateHappened: 4, StateInProgress: 3, StateCurrent: 2, StateNotStarted: 1}

// Path builds the decision path of a project with the events held for its
// applications.
func Path(p Project, events []Event) DecisionPath {
	d := DecisionPath{ProjectID: p.ID, ProjectURL: p.URL, Name: p.Name, Observed: []Observation{}, Normative: []StageState{},
		Groups: []Group{}, StateMeanings: StateMeanings, CurrentStage: StateUnknown, Notes: []string{}, NoteKeys: record.Notes{}, LinksComplete: true, Hearings: []Hearing{}}
	proc, ok := ProcedureByID(p.ProcedureID)
	if ok {
		d.Procedure = &ProcedureRef{ID: proc.ID, Name: proc.Name, Source: proc.Source}
		d.Groups = proc.Groups
	} else {
		n := ProcedureNote(p.Procedure)
		d.ProcedureNote, d.ProcedureNoteKey = n.String(), &n
	}
	// evidence[stage] are observation ids with the state they support
	type ev struct {
		id, state, outcome string
		date, planned      time.Time
	}
	evidence := map[string][]ev{}
	n := 0
	observe := func(o Observation, stage, state string) {
		n++
		o.ID = fmt.Sprintf("o%02d", n)
		d.Observed = append(d.Observed, o)
		if stage != "" && ok {
			e := ev{id: o.ID, state: state, outcome: o.Outcome, date: o.Date}
			if o.Planned != nil {
				e.planned = o.Planned.End
			}
			evidence[stage] = append(evidence[stage], e)
		}
	}
	stageOfMilestone := func(prefix, milestone string) (string, *record.Note) {
		if !ok {
			if prefix == "Ad-hoc" {
				return "", ptr(NNoteAdHoc)
			}
			return "", nil
		}
		s := proc.stageOf(milestone)
		if prefix == "Ad-hoc" {
			// an ad-hoc milestone is evidence only of a stage that
			// happens on request (the appeals board)
			if st, found := proc.stageByID(s); found && st.OnRequest {
				return s, ptr(NNoteAdHocOnRequest)
			}
			return "", ptr(NNoteAdHoc)
		}
		if s == "" {
			for _, o := range proc.Outside {
				if strings.EqualFold(o.Milestone, milestone) {
					n := NoteOutside(o)
					return "", &n
				}
			}
			return "", ptr(NNoteUnmapped)
		}
		return s, nil
	}
	for _, m := range p.Milestones {
		o := Observation{Kind: "milestone", Name: m.Milestone, Action: m.Action, Status: m.Status, Started: m.ActualStart, Date: m.ActualEnd,
			Outcome: m.Outcome, Source: m.Source}
		if !m.PlannedStart.IsZero() || !m.PlannedEnd.IsZero() || !m.ReviewMeeting.IsZero() {
			o.Planned = &Planned{Start: m.PlannedStart, End: m.PlannedEnd, ReviewMeeting: m.ReviewMeeting}
		}
		stage, note := stageOfMilestone(m.Action, m.Milestone)
		o.setNote(note)
		state := ""
		switch strings.ToLower(m.Status) {
		case "completed":
			state = StateHappened
		case "in progress":
			state = StateInProgress
		case "not started":
			state = StateNotStarted
			o.Date = time.Time{}
		}
		observe(o, stage, state)
	}
	for _, r := range p.Recommendations {
		o := Observation{Kind: "recommendation", Name: r.Name, Body: r.Body, Action: r.Action, Status: r.Status, Outcome: r.Recommendation, Source: r.Source}
		o.Date = r.VoteDate
		if o.Date.IsZero() {
			o.Date = r.Received
		}
		if !r.HearingDate.IsZero() {
			n := HearingNote(r.HearingDate.In(record.NewYork).Format("2006-01-02 15:04"), r.HearingLocation)
			o.setNote(&n)
		}
		state := StateInProgress
		if r.Recommendation != "" {
			state = StateHappened
		}
		observe(o, r.Actor, state)
	}
	for _, f := range p.Dates {
		stage := ""
		var note *record.Note
		switch f.Name {
		case "certified_referred":
			stage = "certification"
		case "approval_date":
			note = ptr(NNoteApprovalDate)
		case "completed_date", "project_completed":
			note = ptr(NNoteClosing)
		}
		o := Observation{Kind: "dated_fact", Name: f.Name, Date: f.Date, Source: f.Source}
		o.setNote(note)
		observe(o, stage, StateHappened)
	}
	if c := p.CurrentMilestone; c != nil {
		prefix, m := SplitMilestone(c.Name)
		stage, note := stageOfMilestone(prefix, m)
		o := Observation{Kind: "current_milestone", Name: m, Action: prefix, Started: c.Date, Source: c.Source}
		o.setNote(note)
		observe(o, stage, StateCurrent)
	}
	for _, e := range events {
		switch e.Type {
		case "bp_recommendation":
			o := Observation{Kind: e.Type, Name: e.Name, Body: e.Body, Outcome: e.Outcome, Date: e.Date, Source: e.Source, URL: e.URL, Note: e.DateNote, NoteKey: e.DateNoteKey}
			observe(o, "borough_president", StateHappened)
		case "council_item":
			state := StateInProgress
			if !e.Date.IsZero() {
				state = StateHappened
			}
			observe(Observation{Kind: e.Type, Name: e.Name, Body: e.Body, Outcome: e.Outcome, Date: e.Date, Source: e.Source, URL: e.URL, Note: e.DateNote, NoteKey: e.DateNoteKey}, "council", state)
			for _, s := range e.Steps {
				observe(Observation{Kind: "council_action", Name: s.Action, Body: s.Body, Date: s.Date, Source: e.Source}, "", "")
			}
		case "cb_minutes":
			// a mention, not a recommendation: tied to no stage
			o := Observation{Kind: e.Type, Name: e.Name, Body: e.Body, Date: e.Date, Source: e.Source, URL: e.URL}
			n := MinutesNote(e.Method, e.Evidence)
			o.setNote(&n)
			observe(o, "", "")
		}
	}
	if !ok {
		return d
	}
	held := len(p.Milestones) > 0
	latest := -1
	for i, s := range proc.Stages {
		st := StageState{Stage: s, Evidence: []string{}}
		var reason record.Note
		best := 0
		for _, e := range evidence[s.ID] {
			st.Evidence = append(st.Evidence, e.id)
			if r := stateRank[e.state]; r > best {
				best, st.State = r, e.state
			}
			if e.outcome != "" && e.state == StateHappened {
				st.Outcome = e.outcome
			}
			if e.date.After(st.Date) && e.state != StateNotStarted {
				st.Date = e.date
			}
			if e.state == StateNotStarted && !e.planned.IsZero() {
				st.PlannedEnd = e.planned
			}
		}
		switch st.State {
		case StateHappened:
			reason = NReasonHappened
		case StateInProgress:
			reason = NReasonInProgress
		case StateCurrent:
			reason = NReasonCurrent
		case StateNotStarted:
			reason = NReasonNotStarted
			st.Date = time.Time{}
		case "":
			if held {
				st.State, reason = StateAbsent, NReasonAbsent
			} else {
				st.State, reason = StateUnknown, NReasonUnknown
			}
		}
		var condition *record.Note
		if (st.State == StateAbsent || st.State == StateUnknown) && s.Applies == "conditional" {
			condition = s.ConditionKey
		}
		st.ReasonKeys = ReasonNotes(reason, condition, false)
		st.Reason = st.ReasonKeys.Clauses("en")
		if st.State == StateHappened || st.State == StateInProgress || st.State == StateCurrent {
			latest = i
		}
		d.Normative = append(d.Normative, st)
	}
	if latest >= 0 {
		d.CurrentStage = proc.Stages[latest].ID
		for i := 0; i < latest; i++ {
			if s := d.Normative[i]; s.State == StateAbsent || s.State == StateUnknown {
				st := &d.Normative[i]
				st.ReasonKeys = append(st.ReasonKeys, NLater)
				st.Reason = st.ReasonKeys.Clauses("en")
			}
		}
	}
	if strings.EqualFold(p.PublicStatus, "Completed") {
		d.NoteKeys = append(d.NoteKeys, NNoteCompleted)
	}
	d.NoteKeys = append(d.NoteKeys, NNoteLayers)
	for _, n := range d.NoteKeys {
		d.Notes = append(d.Notes, n.String())
	}
	return d
}

// CurrentStage is the latest stage a project's own records place it at
// (without other publishers' events): the browse key of the stage filter.
func CurrentStage(p Project) string {
	return Path(p, nil).CurrentStage
}

// setNote sets o's note and its English (none when n is nil).
func (o *Observation) setNote(n *record.Note) {
	if n == nil {
		return
	}
	o.Note, o.NoteKey = n.String(), n
}

// ptr is a copy of n, by pointer.
func ptr(n record.Note) *record.Note { return &n }
