package land

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

// charterSections are the bundled Charter's sections by citation ("§197-c").
func charterSections(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile("testdata/charter/charter.json")
	if err != nil {
		t.Fatal(err)
	}
	var rows []struct{ Citation, Text string }
	if err := json.Unmarshal(data, &rows); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, r := range rows {
		out[strings.ReplaceAll(r.Citation, " ", "")] = strings.Join(strings.Fields(r.Text), " ")
	}
	if len(out) < 800 {
		t.Fatalf("%d Charter sections", len(out))
	}
	return out
}

// subdivMarker finds subdivision markers as the Charter text writes them:
// the label glued to its first word ("a.Except", "e.(1)Except", "k.1Notwithstanding").
var subdivMarker = regexp.MustCompile(`(?:^|[\s\])])([a-z](?:-\d)?)\.(?:\(|\d|[A-Z])`)

func labelAfter(a, b string) bool { // b sorts after a: letter, then "-n"
	if a[0] != b[0] {
		return b[0] > a[0]
	}
	return len(b) > len(a) || b > a
}

// subdivision is the text of subdivision label of a section: from its
// marker to the next subdivision's.
func subdivision(section, label string) (string, bool) {
	for _, m := range subdivMarker.FindAllStringSubmatchIndex(section, -1) {
		if section[m[2]:m[3]] != label {
			continue
		}
		rest := section[m[2]:]
		end := len(rest)
		for _, n := range subdivMarker.FindAllStringSubmatchIndex(rest[len(label)+1:], -1) {
			l := rest[len(label)+1:][n[2]:n[3]]
			if labelAfter(label, l) {
				end = len(label) + 1 + n[0]
				break
			}
		}
		return rest[:end], true
	}
	return "", false
}

var dayWords = map[int]string{5: "five", 10: "ten", 15: "fifteen", 20: "twenty", 30: "thirty", 45: "forty-five", 50: "fifty", 60: "sixty", 75: "seventy-five", 90: "ninety", 180: "one hundred eighty"}

var (
	citedRE   = regexp.MustCompile(`§(\d+(?:-[a-z])?)((?:\([a-z](?:-\d)?\))?)`)
	dayNoteRE = regexp.MustCompile(`\b([a-z]+(?:-[a-z]+)?) days\b`)
)

// charterProblems lists what of a procedure the Charter text does not
// bear out: a stage's section or subdivision missing, its words not in
// that subdivision, its day count not in its words, a section cited in
// the definition's notes not held, a day count in a note not in the
// sections the procedure rests on.
func charterProblems(sections map[string]string, p Procedure) []string {
	var out []string
	bad := func(f string, a ...any) { out = append(out, p.ID+": "+fmt.Sprintf(f, a...)) }
	cited := map[string]bool{}
	var notes []string
	for _, s := range p.Stages {
		m := CharterCitation.FindStringSubmatch(s.Charter)
		if m == nil {
			bad("stage %s cites %q, not a section and subdivision", s.ID, s.Charter)
			continue
		}
		cited[m[1]] = true
		sec, ok := sections["§"+m[1]]
		if !ok {
			bad("stage %s: §%s is not in the Charter", s.ID, m[1])
			continue
		}
		sub, ok := subdivision(sec, m[2])
		if !ok {
			bad("stage %s: §%s has no subdivision %s", s.ID, m[1], m[2])
			continue
		}
		if !strings.Contains(sub, s.CharterText) {
			bad("stage %s: its words are not in §%s(%s): %q", s.ID, m[1], m[2], s.CharterText)
		}
		for _, para := range regexp.MustCompile(`\((\d+)\)`).FindAllStringSubmatch(m[3], -1) {
			if !regexp.MustCompile(`(?:\(` + para[1] + `\)|[\s\]\.]` + para[1] + `[A-Z])`).MatchString(sub) {
				bad("stage %s: §%s(%s) has no paragraph %s", s.ID, m[1], m[2], para[1])
			}
		}
		if s.TimeLimitDays > 0 {
			w, ok := dayWords[s.TimeLimitDays]
			if !ok || !strings.Contains(s.CharterText, w+" days") {
				bad("stage %s: %d days is not the Charter's count in its words %q", s.ID, s.TimeLimitDays, s.CharterText)
			}
		}
		notes = append(notes, s.Condition, s.TimeLimitNote, s.Effect)
	}
	notes = append(notes, p.Source.SectionsReviewed...)
	for _, n := range notes {
		for _, m := range citedRE.FindAllStringSubmatch(n, -1) {
			sec, ok := sections["§"+m[1]]
			if !ok {
				bad("§%s (in %q) is not in the Charter", m[1], n)
				continue
			}
			if m[2] != "" {
				if _, ok := subdivision(sec, strings.Trim(m[2], "()")); !ok {
					bad("§%s%s (in %q) is not in the Charter", m[1], m[2], n)
				}
			}
		}
	}
	var basis strings.Builder
	for c := range cited {
		basis.WriteString(sections["§"+c])
	}
	for _, n := range notes {
		for _, m := range dayNoteRE.FindAllStringSubmatch(n, -1) {
			if !strings.Contains(basis.String(), m[0]) {
				bad("%q (in %q) is not a day count of the sections cited", m[0], n)
			}
		}
	}
	return out
}

// Every procedure's stages are the Charter's: each cites a section and a
// subdivision that the bundled Charter text holds, with the Charter's own
// words and day counts; ULURP and ELURP leave nothing unverified, and
// what Non-ULURP leaves says why.
func TestProceduresCiteTheCharter(t *testing.T) {
	sections := charterSections(t)
	for _, id := range []string{"ulurp", "non_ulurp", "elurp"} {
		p, ok := ProcedureByID(id)
		if !ok {
			t.Fatalf("no %s definition", id)
		}
		for _, problem := range charterProblems(sections, p) {
			t.Error(problem)
		}
		if id != "non_ulurp" && len(p.Source.Unverified) != 0 {
			t.Errorf("%s leaves %v unverified", id, p.Source.Unverified)
		}
		for _, u := range p.Source.Unverified {
			if !strings.Contains(u, ":") || len(u) < 60 {
				t.Errorf("%s: unverified item without its reason: %q", id, u)
			}
		}
	}
	// the ELURP definition is ELURP's own: §197-e, no Council review but
	// for subdivision k, sixty days for the community board and the
	// borough president side by side, thirty for the Commission
	e, _ := ProcedureByID("elurp")
	days := map[string]int{}
	for _, s := range e.Stages {
		days[s.ID] = s.TimeLimitDays
		if s.ID == "council" && (s.Applies != "conditional" || !strings.Contains(s.Condition, "§197-e(k)")) {
			t.Errorf("ELURP council stage %+v", s)
		}
	}
	if days["community_board"] != 60 || days["borough_president"] != 60 || days["cpc_vote"] != 30 || ProcedureIDOf("ELURP") != "elurp" {
		t.Errorf("ELURP day counts %v", days)
	}
	u, _ := ProcedureByID("ulurp")
	for _, s := range u.Stages {
		if s.ID == "borough_board" && (s.TimeLimitDays != 30 || s.Group != "borough_review") {
			t.Errorf("the borough board has thirty days beside the borough president (§197-c(f)): %+v", s)
		}
	}
}

// The check fails on a wrong day count, a wrong subdivision, words not
// in the Charter and a section that does not exist.
func TestCharterCheckCatchesErrors(t *testing.T) {
	sections := charterSections(t)
	base, _ := ProcedureByID("ulurp")
	mutations := map[string]func(*Stage){
		"day count":   func(s *Stage) { s.TimeLimitDays = 45 },
		"subdivision": func(s *Stage) { s.Charter = "§197-c(g)" },
		"words":       func(s *Stage) { s.CharterText = "not later than forty-five days after receipt" },
		"section":     func(s *Stage) { s.Charter = "§197-z(e)" },
		"paragraph":   func(s *Stage) { s.Charter = "§197-c(e)(7)" },
		"note":        func(s *Stage) { s.TimeLimitNote = "eighty days for an application certified in June (§197-c(e)(2))" },
		"cited":       func(s *Stage) { s.Condition = "see §197-c(z)" },
	}
	for name, mut := range mutations {
		p := base
		p.Stages = append([]Stage(nil), base.Stages...)
		for i := range p.Stages {
			if p.Stages[i].ID == "community_board" {
				mut(&p.Stages[i])
			}
		}
		if len(charterProblems(sections, p)) == 0 {
			t.Errorf("a wrong %s passes the Charter check", name)
		}
	}
}

// stageIn is a procedure's stage by id.
func stageIn(t *testing.T, procedure, id string) (Stage, bool) {
	t.Helper()
	p, ok := ProcedureByID(procedure)
	if !ok {
		t.Fatalf("no %s definition", procedure)
	}
	return p.stageByID(id)
}

// The Affordable Housing Appeals Board (§197-g) is a stage of the
// procedures whose Council review is §197-d(c) (ULURP, Non-ULURP): asked
// for within five days, acting within fifteen, tolled fifteen while
// modifications are with the Commission, no action affirming the Council;
// the portal's appeals milestones are its evidence. The Mayor's stage
// leaves those actions to it. ELURP's Council review (§197-d(c-1)) has no
// board, and says why.
func TestAppealsBoardStage(t *testing.T) {
	for _, id := range []string{"ulurp", "non_ulurp"} {
		p, _ := ProcedureByID(id)
		req, ok1 := stageIn(t, id, "appeals_request")
		board, ok2 := stageIn(t, id, "appeals_board")
		if !ok1 || !ok2 {
			t.Fatalf("%s: no appeals-board stages", id)
		}
		if req.Charter != "§197-g(c)" || req.TimeLimitDays != 5 || !req.OnRequest || req.Applies != "conditional" ||
			!strings.Contains(req.Condition, "§197-d(c)") || !strings.Contains(req.Condition, "affordable housing") || !strings.Contains(req.Condition, "§197-g(b)") {
			t.Errorf("%s request stage %+v", id, req)
		}
		if board.Charter != "§197-g(d)" || board.TimeLimitDays != 15 || !board.OnRequest ||
			!strings.Contains(board.TimeLimitNote, "§197-g(e)") || !strings.Contains(board.Effect, "affirms the Council") ||
			!strings.Contains(board.Actor, "Mayor") || !strings.Contains(board.Actor, "Speaker") || !strings.Contains(board.Actor, "borough president") {
			t.Errorf("%s board stage %+v", id, board)
		}
		if p.stageOf("Request for Appeals Board Review") != "appeals_request" || p.stageOf("Appeals Board Review") != "appeals_board" {
			t.Errorf("%s: the portal's appeals milestones are not the board's evidence", id)
		}
		for _, o := range p.Outside {
			if strings.Contains(o.Milestone, "Appeals Board") {
				t.Errorf("%s still calls %q outside the procedure", id, o.Milestone)
			}
		}
		mayor, _ := stageIn(t, id, "mayor")
		if !strings.Contains(mayor.Condition, "§197-d(e-1)") || !strings.Contains(mayor.Condition, "Appeals Board") {
			t.Errorf("%s: the Mayor's stage does not leave the board's actions to it: %q", id, mayor.Condition)
		}
		// the board comes after the Council, before the Mayor
		var order []string
		for _, s := range p.Stages {
			order = append(order, s.ID)
		}
		if i, j := slicesIndex(order, "council"), slicesIndex(order, "appeals_request"); j != i+1 {
			t.Errorf("%s stage order %v", id, order)
		}
	}
	e, _ := ProcedureByID("elurp")
	if e.stageOf("Appeals Board Review") != "" {
		t.Error("ELURP maps the appeals board")
	}
	for _, o := range e.Outside {
		if strings.Contains(o.Milestone, "Appeals Board") && !strings.Contains(o.Note, "§197-g(b)") {
			t.Errorf("ELURP says no reason for %q: %q", o.Milestone, o.Note)
		}
	}
}

func slicesIndex(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}

// ELURP as §197-e has it: filing and certification are not for the
// subdivision k applications, which go straight to the boards and borough
// presidents (§197-e(k)(2)) under §197-e(k)(3)'s sixty days; the 45-day
// decision is the §197-f application's only (§197-e(g), (l)).
func TestELURPSubdivisionK(t *testing.T) {
	for _, id := range []string{"pre_filing", "certification", "community_board", "borough_president", "cpc_hearing", "cpc_vote"} {
		s, _ := stageIn(t, "elurp", id)
		if s.Applies != "conditional" || !strings.Contains(s.Condition, "subdivision k") {
			t.Errorf("ELURP %s applies %q (%q): not for subdivision k applications", id, s.Applies, s.Condition)
		}
	}
	for _, id := range []string{"k_community_board", "k_borough_president"} {
		s, ok := stageIn(t, "elurp", id)
		if !ok || s.Charter != "§197-e(k)(3)" || s.TimeLimitDays != 60 || s.Group != "k_review" || !strings.Contains(s.Condition, "§197-e(k)") {
			t.Errorf("ELURP %s: %+v", id, s)
		}
	}
	bp, _ := stageIn(t, "elurp", "k_borough_president")
	if !strings.Contains(bp.TimeLimitNote, "not the borough president's") {
		t.Errorf("the k borough president's sixty days have no June-July extension: %q", bp.TimeLimitNote)
	}
	vote, _ := stageIn(t, "elurp", "cpc_vote")
	if !strings.Contains(vote.TimeLimitNote, "forty-five days") || !strings.Contains(vote.TimeLimitNote, "§197-f") || !strings.Contains(vote.TimeLimitNote, "§197-e(l)") {
		t.Errorf("the 45-day decision is the §197-f application's: %q", vote.TimeLimitNote)
	}
}

// §200(a)(3): a protested text change needs three-fourths of the Council
// within one hundred eighty days.
func TestProtestPath(t *testing.T) {
	s, ok := stageIn(t, "non_ulurp", "council_protest_vote")
	if !ok || s.Charter != "§200(a)(3)" || s.TimeLimitDays != 180 || s.Applies != "conditional" ||
		!strings.Contains(s.CharterText, "three-fourths") || !strings.Contains(s.Condition, "thirty days") {
		t.Errorf("protest stage %+v", s)
	}
}

// An ad-hoc milestone is evidence only of a stage on request: the portal's
// "Ad-hoc - Community Board Referral" is no community board review.
func TestAdHocMilestoneEvidence(t *testing.T) {
	p := Project{ID: "2099Q0001", ProcedureID: "ulurp", Milestones: []Milestone{
		{Action: "Ad-hoc", Milestone: "Community Board Referral", Status: "Not Started"},
		{Action: "Ad-hoc", Milestone: "Appeals Board Review", Status: "Completed"},
	}}
	d := Path(p, nil)
	for _, st := range d.Normative {
		switch st.ID {
		case "community_board":
			if len(st.Evidence) != 0 {
				t.Errorf("an ad-hoc referral is evidence of the board: %+v", st)
			}
		case "appeals_board":
			if st.State != StateHappened || len(st.Evidence) != 1 {
				t.Errorf("the appeals board's ad-hoc milestone is not its evidence: %+v", st)
			}
		}
	}
	if d.Observed[0].Note != NoteAdHoc || d.Observed[1].Note != NoteAdHocOnRequest {
		t.Errorf("notes %q, %q", d.Observed[0].Note, d.Observed[1].Note)
	}
}
