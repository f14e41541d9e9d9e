package web

import (
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
)

// The services' notes the site shows are said from their keys in the
// reader's language: a fixed note from the message files, one with a
// number or a name with its arguments in place (marked as record text on
// a Spanish page); a join method's meaning through its label. The English
// the site says is the very text the service publishes.
func TestServiceNotesInSpanish(t *testing.T) {
	for method, en := range entity.JoinMethods {
		if Label("en", "method_note", method) != en || !HasLabel("method_note", method) {
			t.Errorf("join method %q: the label %q is not the service's meaning %q", method, Label("en", "method_note", method), en)
		}
	}
	for en, n := range map[string]record.Note{procure.TotalsNote: procure.TotalsKey, procure.NoPayments: procure.NoPaymentsKey,
		procure.NoContracts: procure.NoContractsKey, procure.NoAwards: procure.NoAwardsKey, procure.NoPayroll: procure.NoPayrollKey} {
		if NoteIn("es", n) == en || NoteIn("en", n) != en || strings.Contains(NoteIn("es", n), "[[") {
			t.Errorf("%s: %q is said %q in Spanish", n.Key, en, NoteIn("es", n))
		}
	}
	n := record.N("procure.matter.apart", 3, "12522P0001")
	if got := NoteIn("es", n); !strings.HasPrefix(got, "3 registros comparten solo el PIN base de 10 caracteres 12522P0001:") {
		t.Errorf("a note with arguments: %q", got)
	}
	if got := n.String(); !strings.HasPrefix(got, "3 records share only the 10-character base PIN 12522P0001:") {
		t.Errorf("its English: %q", got)
	}
	if got := string(noteHTML("es", n)); !strings.Contains(got, "<span data-verbatim>12522P0001</span>") {
		t.Errorf("the arguments are not marked as record text: %q", got)
	}
	if got := string(noteHTML("en", record.N("no.such.note"))); !strings.Contains(got, "[[no.such.note]]") {
		t.Errorf("a key no file holds shows %q", got)
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
