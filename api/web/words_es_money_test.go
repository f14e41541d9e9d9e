package web

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/cycle"
	"github.com/recordwatch/recordwatch/internal/dossier"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
)

// moneyEnglish are English words none of the money sentences' Spanish
// uses: one left in a said sentence is a part no list holds.
var moneyEnglish = regexp.MustCompile(`\b(the|held|rows from|registered|observed|payments? issued|Analysed|Only|for these records|not)\b`)

// Every fixed sentence the procurement and dossier services put on the
// money pages (the profiles' absences, the analysis's measure, exclusions,
// ungrouped reasons and coverage, the ledgers' notes and join methods, the
// amount bands and exclusion reasons) is said in Spanish, and as written
// in English: a sentence the services add or change without the word
// lists following fails here (the bundled sample shows only some).
func TestMoneySentencesInSpanish(t *testing.T) {
	// the notes (keys with arguments) the profiles and sums publish: said
	// from the message files, their English the services' own
	notes := record.Notes{procure.ContractMeasureNoteKey, procure.ExcludedNoteKey, procure.AgencyLabelsSourceKey,
		record.N("analysis.ungrouped.fiscal_year"), record.N("analysis.ungrouped.vendor"), record.N("analysis.ungrouped.agency"),
		record.N("analysis.ungrouped.old"), record.N("analysis.coverage.none"), record.N("analysis.coverage.only"),
		record.N("analysis.coverage.unknown_label")}
	for _, b := range record.ContractAmountBands {
		notes = append(notes, b.LabelKey)
	}
	for _, n := range append(append(notes, procure.ContractMeasureKey, procure.NoValidAmountsKey, procure.NoneHeldKey, procure.NoContractsKey, procure.NoPaymentsKey,
		procure.NoPayrollKey, procure.NoAwardsKey), dossier.Absences...) {
		if es := NoteIn("es", n); es == n.String() || moneyEnglish.MatchString(es) || NoteIn("en", n) != n.String() || strings.Contains(es, "[[") {
			t.Errorf("a note not said in Spanish: %s %q → %q", n.Key, n.String(), es)
		}
	}

	if got := NoteIn("es", record.N("analysis.fiscal_year", 2026, 2025, 2026)); got != "FY2026 (registrado del 2025-07-01 al 2026-06-30)" {
		t.Errorf("a fiscal year group: %q", got)
	}

	// sentences with numbers, dates and names: each said, its arguments kept
	for _, c := range []struct{ en, want string }{
		{"Searched 4,226 records held here, source dates 2011-01-31 to 2026-08-14, observed 2026-08-14.", "4,226"},
		{"Searched 12 records held here, source dates 2011-01-31 to 2026-08-14.", "2026-08-14"},
		{"Searched 12 records held here, observed 2026-08-14.", "2026-08-14"},
		{"Searched 12 records held here.", "12"},
		{"Only the records held here were searched.", "Solo"},
		{`no contract with ID "NOPE1" is held. This service holds no such contract; that does not mean none was registered.`, `"NOPE1"`},
		{`"Parks" is not an accepted agency label (labels are the crosswalk's canonical agency names, matched with the same letter case); did you mean "Parks and Recreation" or "Aging"? Nothing was analysed for it: this says nothing about its contracts and never means it has zero awards. Call without an agency label for the accepted list.`, `"Parks and Recreation" o "Aging"`},
		{`no agency with id "zz" is in the crosswalk or the records held here; GET /agencies lists the ids. A search may still find mentions: http://x.test/api/search?q=zz`, "q=zz"},
		{`no award or intent notice and no payments-dataset record held here names a vendor with the name stem "ZZ". This does not mean there is no such vendor: a full-text search may still find mentions: http://x.test/api/search?q=zz`, `"ZZ"`},
	} {
		if es := Say("es", c.en); es == c.en || !strings.Contains(es, c.want) || moneyEnglish.MatchString(es) {
			t.Errorf("%q → %q (wants %q)", c.en, es, c.want)
		}
	}

	// the ledgers' notes and ways, as the service makes them (payments.go)
	for _, n := range []record.Note{procure.PaymentsKey, procure.LedgerBothKey, procure.JoinedByContractIDKey, procure.JoinedByPayeeKey,
		procure.JoinedByAgencyKey, record.N("procure.joined.pin_itself"), record.N("procure.ledger.none"), record.N("procure.ledger.one"),
		record.N("procure.ledger.many", 8), record.N("procure.payments.none_at_all"), record.N("procure.payments.none_at_all.sentence"),
		record.N("procure.payments.extract", 1001, "2017-07-17", "2018-05-02"), record.N("procure.payments.extract.sentence", 1001, "2017-07-17", "2018-05-02"),
		record.N("procure.payments.extract_day.one", "2018-05-02"), record.N("procure.payments.extract_day.one.sentence", "2018-05-02"),
		record.N("procure.payments.extract_day.many", 3, "2018-05-02"), record.N("procure.payments.extract_day.many.sentence", 3, "2018-05-02")} {
		es := NoteIn("es", n)
		if es == n.String() || moneyEnglish.MatchString(es) || strings.Contains(es, "[[") || strings.Contains(es, "%!") {
			t.Errorf("a ledger's note %s: %q → %q", n.Key, n.String(), es)
		}
		for _, a := range n.Args {
			if !strings.Contains(es, a) {
				t.Errorf("a ledger's note %s drops %q: %q", n.Key, a, es)
			}
		}
	}

	// the analysis's coverage statement, composed once by the service and
	// said part by part (a source's name, even with "; " in it, kept)
	obs := time.Date(2026, 6, 30, 12, 0, 0, 0, time.UTC)
	for _, srcs := range [][]record.SourceCoverage{
		nil,
		{{Label: "Checkbook NYC", Records: 6, FirstSourceDate: "2015-07-20", LastSourceDate: "2015-07-20", ObservedAt: obs},
			{Label: "Registered contracts (Checkbook NYC and PASSPort rows; third party)", Records: 552, FirstSourceDate: "2026-06-03", LastSourceDate: "2026-06-30"},
			{Label: "A", Records: 1, ObservedAt: obs}, {Label: "B", Records: 2}},
	} {
		ns := procure.ContractCoverageStatement(srcs, 13)
		en, es := ns.String(), ns.In("es")
		if got := string(noteHTML("es", ns)); srcs != nil && !strings.Contains(got, "<span data-verbatim>13</span>") {
			t.Errorf("the coverage statement's numbers are not marked as record values: %q", got)
		}
		if en == es || moneyEnglish.MatchString(es) || strings.Contains(es, "[[") {
			t.Errorf("the coverage statement: %q", es)
		}
		for _, s := range srcs {
			if !strings.Contains(es, s.Label) {
				t.Errorf("the coverage statement drops %q: %q", s.Label, es)
			}
		}
	}

	// why an amount is left out: a label per reason, the service's own
	// words in English
	for reason, en := range record.ExcludedReasons {
		if !HasLabel("amount_excluded", reason) || Label("en", "amount_excluded", reason) != en || Label("es", "amount_excluded", reason) == en {
			t.Errorf("amount excluded %q: %q / %q, the service says %q", reason, Label("en", "amount_excluded", reason), Label("es", "amount_excluded", reason), en)
		}
	}
}

// The notes the script views show (the semantic search's note and fusion,
// a notice's earlier-cycle summary, basis and search) are served to the
// scripts (words-es.js notes) and said there from their keys as the pages
// say them: each argument (a number, a name, a date) kept.
func TestScriptNotesInSpanish(t *testing.T) {
	b := Script("es")
	start, end := bytes.IndexByte(b, '{'), bytes.LastIndexByte(b, '}')
	var rw struct {
		Notes map[string]string `json:"notes"`
	}
	if start < 0 || json.Unmarshal(b[start:end+1], &rw) != nil {
		t.Fatalf("the word script is not window.RW = {…}: %.80s", b)
	}
	for _, c := range []struct {
		n    record.Note
		keep string
	}{
		{record.N("semantic.ranked"), ""},
		{record.N("semantic.filters"), ""},
		{record.N("semantic.at_most", 50), "50"},
		{record.N("semantic.vectors_partial", 900, "1,002", 2), "1,002"},
		{record.N("semantic.fusion", 60, 50), "k=60"},
		{record.N("semantic.fusion_title_words", 0.3, 20), "20"},
		{record.N("semantic.fusion_other_words", 0.3, 5), "5"},
		{cycle.NoneFoundKey, ""},
		{record.N("cycle.not_sought"), ""},
		{record.N("cycle.last_award_amount.strict", "ACME INC", 2023, "$1,200.00"), "ACME INC"},
		{record.N("cycle.last_award.corroborated", "ACME INC", 2023), "2023"},
		{record.N("cycle.earlier.corroborated", "Solicitation", "2023-01"), "2023-01"},
		{record.N("cycle.next_due_basis", 14, "2023-01"), "14 meses"},
		{record.N("cycle.searched", "Parks and Recreation", "2013-10-15"), "Parks and Recreation"},
		{procure.TotalsKey, ""},
		{record.AbsenceRuleNotes[0], ""},
	} {
		es := NoteIn("es", c.n)
		if es == c.n.String() || !strings.Contains(es, c.keep) || strings.Contains(es, "[[") ||
			regexp.MustCompile(`\b(the|held|match|notices|cosine|keyword)\b`).MatchString(strings.ReplaceAll(es, c.keep, "")) {
			t.Errorf("%s %q → %q", c.n.Key, c.n.String(), es)
		}
		if rw.Notes[c.n.Key] != msgs["es"].Notes[c.n.Key] {
			t.Errorf("%s is not served to the scripts (words-es.js)", c.n.Key)
		}
	}
}

// A by-id page that holds no such record says why under the layout's
// absence type: every note record.RecordAbsence writes is said in Spanish.
func TestRecordAbsenceNotesInSpanish(t *testing.T) {
	c := func(state string, records int) record.SourceCoverage {
		return record.SourceCoverage{Source: "s", RecordType: "notice", Records: records, State: state, FirstSourceDate: "2013-01-01", LastSourceDate: "2014-12-31"}
	}
	seen := map[string]bool{}
	for _, tc := range []struct {
		cov []record.SourceCoverage
		day string
	}{
		{nil, ""},
		{[]record.SourceCoverage{c(record.Fresh, 5)}, "2014-01-02"},
		{[]record.SourceCoverage{c(record.Fresh, 5)}, "2020-01-02"},
		{[]record.SourceCoverage{c(record.Stale, 5)}, ""},
		{[]record.SourceCoverage{c(record.Failing, 5)}, ""},
		{[]record.SourceCoverage{c("", 5)}, "2014-01-02"},
		{[]record.SourceCoverage{c(record.Fresh, 0)}, ""},
	} {
		e := record.RecordAbsence(tc.cov, []string{"notice"}, tc.day)
		if e == nil || e.Note == "" {
			t.Fatalf("%+v: no absence note", tc)
		}
		seen[e.Type] = true
		if es := NoteIn("es", e.NoteKey); es == e.Note || moneyEnglish.MatchString(es) || NoteIn("en", e.NoteKey) != e.Note {
			t.Errorf("%s: %q → %q", e.Type, e.Note, es)
		}
	}
	if len(seen) < 5 {
		t.Errorf("the cases reach only the absence types %v", seen)
	}
}

// A note cut into sentences keeps each sentence whole, also when the next
// one opens with a quotation mark of more than one byte (app.js
// splitSentences cuts at the same places).
func TestSentencesCutWhole(t *testing.T) {
	got := Say("es", "Only the records held here were searched. “Quoted” text no list holds.")
	if want := "Solo se buscó en los registros guardados aquí. “Quoted” text no list holds."; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}
