package web

import (
	"maps"
	"slices"
	"testing"

	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
)

// Every machine value the services define for the pages has a label in
// both languages: a new stage, state or grouping without one fails here
// (the plain-words walk, api/plainwords_test.go, catches what it shows).
func TestEveryMachineValueHasALabel(t *testing.T) {
	want := map[string][]string{
		"stage":       append(append(land.StageIDs(), groupIDs()...), "unknown"),
		"procedure":   append(land.ProcedureIDs(), "elurp", "unknown"),
		"stage_state": slices.Collect(maps.Keys(land.StateMeanings)),
		"held":        {meeting.Held, meeting.NotHeld, meeting.HeldUnknown},
		"minutes":     {meeting.MinutesPublished, meeting.MinutesNotPublished},
		"notice_link": {meeting.NoticeLinked, meeting.NoticeNotLinked, meeting.NoticeUnknown},
		"attendance":  {meeting.InPerson, meeting.Remote, meeting.Hybrid, meeting.AttendanceUnknown},
		"body_kind":   {meeting.BodyCouncil, meeting.BodyCommunityBoard, meeting.BodyAgency},
		"doc_kind":    {meeting.DocAgenda, meeting.DocMinutes, meeting.DocTranscript, meeting.DocVideo, meeting.DocNotice, meeting.DocAttachment},
		"confidence":  {meeting.High, meeting.Medium, meeting.Low},
		"grouping":    procure.AnalysisGroupings,
		"ranking":     procure.AnalysisRankings,
		"relation": {people.RelPrincipalOfficer, people.RelPrincipalTitle, people.RelReportsTo, people.RelAlternateNames,
			people.RelLeads, people.RelURL},
		"relation_state": {people.Published, people.Empty, people.Unknown},
		"lens":           {record.LensMoney, record.LensLand, record.LensProperty, record.LensRules, record.LensMeetings, record.LensPeople},
	}
	for kind, values := range want {
		for _, v := range values {
			if !HasLabel(kind, v) {
				t.Errorf("%s %q has no label", kind, v)
			}
		}
	}
	for _, lang := range Langs {
		for kind, set := range msgs["en"].Labels {
			for v := range set {
				if msgs[lang].Labels[kind][v] == "" {
					t.Errorf("%s %q lacks %s", kind, v, lang)
				}
			}
		}
	}
	if Label("es", "stage_state", "not_started") != "No iniciada" || Label("en", "stage_state", "not_started") != "Not started" {
		t.Error("Label does not follow the language")
	}
	if Label("en", "stage", "a stage from elsewhere") != "a stage from elsewhere" {
		t.Error("a value with no label is not shown as it is")
	}
	if got := Plain("en", "see parsed_fields (America/New_York)"); got != "see the fields read below (New York time)" {
		t.Errorf("Plain: %q", got)
	}
}

// groupIDs are the parallel review groups of every procedure held (a
// stage's group is shown by its label: "in parallel with the other
// stages of Borough review").
func groupIDs() []string {
	var out []string
	for _, id := range land.ProcedureIDs() {
		p, _ := land.ProcedureByID(id)
		for _, g := range p.Groups {
			out = append(out, g.ID)
		}
	}
	return out
}
