package web

import (
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
)

// The services' sentences the site shows are said in Spanish: a fixed
// sentence through the list, one with a number or a name through its
// pattern (the number and the name kept), a join method's meaning through
// its label; a sentence the service changes without the list following
// fails here.
func TestServiceSentencesInSpanish(t *testing.T) {
	for method, en := range entity.JoinMethods {
		if Label("en", "method_note", method) != en || !HasLabel("method_note", method) {
			t.Errorf("join method %q: the label %q is not the service's meaning %q", method, Label("en", "method_note", method), en)
		}
	}
	for _, en := range []string{procure.TotalsNote, procure.NoPayments, procure.NoContracts, procure.NoAwards, procure.NoPayroll} {
		if Say("es", en) == en || Say("en", en) != en {
			t.Errorf("%q is not said in Spanish", en)
		}
	}
	got := Say("es", "3 records share only the 10-character base PIN 12522P0001: they are shown with link method prefix (confidence low) and summed apart, not added to this procurement's totals.")
	if !strings.HasPrefix(got, "3 registros comparten solo el PIN base de 10 caracteres 12522P0001:") {
		t.Errorf("a pattern sentence: %q", got)
	}
	if got := Say("es", "A sentence no list holds."); got != "A sentence no list holds." {
		t.Errorf("an unknown sentence is not shown as written: %q", got)
	}
}

// The extent of a total's records is said from its fields in each
// language; in English it is the service's own sentence (record.ExtentOf),
// so the two cannot drift apart; every unit has its label.
func TestExtentWordsFollowTheService(t *testing.T) {
	for unit := range record.ExtentKinds {
		if !HasLabel("extent_unit", unit) {
			t.Errorf("the extent unit %q has no label", unit)
		}
		for _, c := range []record.SourceCoverage{
			{Source: "checkbook", Label: "Checkbook NYC", Records: 1001, FirstSourceDate: "2017-07-17", LastSourceDate: "2018-05-02"},
			{Source: "x", Records: 6, FirstSourceDate: "2015-07-20", LastSourceDate: "2015-07-20"},
			{Source: "y", Label: "Y", Records: 5},
		} {
			for _, at := range []int{0, 56, 3227410} {
				e := record.ExtentOf(c, unit, at)
				if got := extentWords("en", []record.Extent{e}, unit); got != e.Words {
					t.Errorf("en: %q, the service says %q", got, e.Words)
				}
				es := extentWords("es", []record.Extent{e}, unit)
				if !strings.HasPrefix(es, "Calculado sobre") || strings.Contains(es, "Built on") || !strings.Contains(es, record.Thousands(c.Records)) {
					t.Errorf("es: %q", es)
				}
			}
		}
	}
}
