package entity

import (
	"encoding/json"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/golden"
)

// Every reviewed spelling states a rule, and no merge rests on a weaker
// rule than the one stated: the strings (or the roster) bear out each
// stated rule, directly against the agency's name and acronyms or through
// another spelling of at least that rule; family and former_name are
// reviewed knowledge and the weakest rules.
func TestSpellingRulesHold(t *testing.T) {
	roster := rosterNames(t)
	n := 0
	for _, a := range DefaultCrosswalk().Agencies() {
		anchors := append([]string{a.Name}, a.Acronyms...)
		// proven[s] is the strength of the strongest chain that bears s out
		proven := map[string]int{}
		for changed := true; changed; {
			changed = false
			for _, s := range a.ShortForms {
				best, ok := proven[s]
				if r := StrongestSpellingRule(s, anchors, roster[a.NYCGOID]); r != "" && (!ok || RuleStrength(r) < best) {
					best, ok = RuleStrength(r), true
				}
				for _, o := range a.ShortForms {
					po, okO := proven[o]
					if o == s || !okO {
						continue
					}
					if r := StrongestSpellingRule(s, []string{o}, nil); r != "" {
						if st := max(RuleStrength(r), po); !ok || st < best {
							best, ok = st, true
						}
					}
				}
				if ok && (proven[s] != best || !hasKey(proven, s)) {
					proven[s], changed = best, true
				}
			}
		}
		for _, s := range a.ShortForms {
			n++
			stated := a.SpellingRules[s]
			if stated == RuleFamily || stated == RuleFormerName {
				continue
			}
			p, ok := proven[s]
			if !ok || p > RuleStrength(stated) {
				t.Errorf("%s: %q states %s, which the strings do not bear out (proven: %v)", a.ID, s, stated, ok && p >= 0)
			}
		}
	}
	if n < 570 {
		t.Errorf("%d reviewed spellings", n)
	}
	// a weaker rule never stands in for a stated one: a spelling reviewed
	// as its own id is never merged, even by dropping leading words or a family
	cw := DefaultCrosswalk()
	for _, s := range []string{"City Hall", "CITY HALL", "NYC City Hall"} {
		if l := cw.Resolve(s); l.Method != MethodOwn && s != "NYC City Hall" {
			t.Errorf("%q merged: %+v", s, l)
		}
	}
	if l := cw.Resolve("City Hall"); !strings.Contains(l.Note, "ambiguous") {
		t.Errorf("the reason is not kept: %+v", l)
	}
	if l := cw.Resolve("Consumer Affairs"); l.Rule != RuleRosterName && l.Rule != RuleFormerName {
		t.Errorf("Consumer Affairs: %+v", l)
	}
	if l := cw.Resolve("Environmental Remediation"); l.ID != "mayors-office-of-environmental-remediation" || l.Rule != RuleShortForm {
		t.Errorf("Environmental Remediation (Agency Rules 2013-2026): %+v", l)
	}
}

func hasKey(m map[string]int, k string) bool { _, ok := m[k]; return ok }

// crosswalkReport is how the reviewed crosswalk resolves every spelling
// that drives a join in the real rows held.
type crosswalkReport struct {
	About   string                  `json:"about"`
	Sources map[string]sourceReport `json:"sources"`
}

type sourceReport struct {
	Distinct   int            `json:"distinct_spellings"`
	Rows       int            `json:"rows"`
	ByMethod   map[string]int `json:"by_method"`
	ByRule     map[string]int `json:"by_rule,omitempty"`
	Reviewed   []string       `json:"kept_as_own_id_with_reason,omitempty"`
	Unreviewed []string       `json:"unreviewed"`
}

// The real spellings of every source that drives an agency join are
// reviewed: mapped with a method (and a rule), or kept as their own id
// with the reason; what is not is listed as unreviewed in the report.
func TestCrosswalkReport(t *testing.T) {
	data, err := os.ReadFile("testdata/real_spellings.json")
	if err != nil {
		t.Fatal(err)
	}
	var spellings map[string][][2]any
	if err := json.Unmarshal(data, &spellings); err != nil {
		t.Fatal(err)
	}
	cw := DefaultCrosswalk()
	rep := crosswalkReport{About: "How the reviewed crosswalk (agencies.json, family.go) resolves every distinct agency spelling that drives a join in the real rows held (testdata/real_spellings.json); unreviewed lists the spellings that neither map by a reviewed rule nor are kept as their own id with a reason.",
		Sources: map[string]sourceReport{}}
	for src, list := range spellings {
		r := sourceReport{ByMethod: map[string]int{}, ByRule: map[string]int{}, Unreviewed: []string{}}
		for _, e := range list {
			s, rows := e[0].(string), int(e[1].(float64))
			r.Distinct++
			r.Rows += rows
			if src == "dcas_2013_agency_codes" {
				if _, ok := cw.ByDCASCode(s); ok {
					r.ByMethod["dcas_code"]++
				} else {
					r.Unreviewed = append(r.Unreviewed, s)
				}
				continue
			}
			l := cw.Resolve(s)
			r.ByMethod[l.Method]++
			if l.Rule != "" {
				r.ByRule[l.Rule]++
			}
			switch {
			case l.Method == MethodOwn && strings.HasPrefix(l.Note, "reviewed"):
				r.Reviewed = append(r.Reviewed, s+": "+l.Note)
			case l.Method == MethodOwn:
				r.Unreviewed = append(r.Unreviewed, s)
			}
		}
		sort.Strings(r.Unreviewed)
		if len(r.ByRule) == 0 {
			r.ByRule = nil
		}
		rep.Sources[src] = r
		if len(r.Unreviewed) > 0 {
			t.Errorf("%s: unreviewed spellings %q", src, r.Unreviewed)
		}
	}
	out, _ := json.MarshalIndent(rep, "", "  ")
	golden.Assert(t, "testdata/crosswalk_report.json", append(out, '\n'))
}
