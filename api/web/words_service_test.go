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
// language; in English it is the service's own sentence (record.ExtentOf
// through record.ExtentsOf), so the two cannot drift apart; every record
// type a total is built on has its nouns, one and many.
func TestExtentWordsFollowTheService(t *testing.T) {
	for unit, kinds := range record.ExtentKinds {
		for _, rt := range kinds {
			for _, c := range []record.SourceCoverage{
				{Source: "checkbook", Label: "Checkbook NYC", RecordType: rt, Records: 1001, FirstSourceDate: "2017-07-17", LastSourceDate: "2018-05-02"},
				{Source: "x", RecordType: rt, Records: 1, FirstSourceDate: "2015-07-20", LastSourceDate: "2015-07-20"},
				{Source: "y", Label: "Y", RecordType: rt, Records: 5},
			} {
				es := record.ExtentsOf([]record.SourceCoverage{c}, unit)
				if len(es) != 1 || !HasLabel("extent_noun", es[0].Noun()) {
					t.Fatalf("%s %s: extents %+v, the noun %q has no label", unit, rt, es, es[0].Noun())
				}
				if got := extentWords("en", es); got != record.ExtentWords(es) {
					t.Errorf("en: %q, the service says %q", got, record.ExtentWords(es))
				}
				sp := extentWords("es", es)
				if !strings.HasPrefix(sp, "Calculado sobre") || strings.Contains(sp, "Built on") || !strings.Contains(sp, record.Thousands(c.Records)) {
					t.Errorf("es: %q", sp)
				}
			}
		}
	}
	e := record.ExtentOf(record.SourceCoverage{Source: "s", RecordType: "payroll", Records: 5}, "payroll rows", 56000)
	if got := extentWords("es", []record.Extent{e}); !strings.Contains(got, "5 de los 56,000 filas de nómina de la fuente (menos de 0,1 %)") {
		t.Errorf("a partial extract in Spanish: %q", got)
	}
	if got := extentWords("en", []record.Extent{e}); got != e.Words {
		t.Errorf("a partial extract in English: %q, the service says %q", got, e.Words)
	}
}
