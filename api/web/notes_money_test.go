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

// moneyEnglish are English words none of the money notes' Spanish uses:
// one left in a note said in Spanish is English in its text.
var moneyEnglish = regexp.MustCompile(`\b(the|held|rows from|registered|observed|payments? issued|Analysed|Only|for these records|not)\b`)

// Every note the procurement and dossier services put on the money pages
// (the profiles' absences, the analysis's measure, exclusions, ungrouped
// reasons and coverage, the ledgers' notes and join methods, the amount
// bands and exclusion reasons, the services' errors, the scope box's line,
// a digest link's answers, a contract's source link) is said in Spanish
// from its key, and in English as the services write it: a note the
// services add without its Spanish fails here (the bundled sample shows
// only some).
func TestMoneyNotesInSpanish(t *testing.T) {
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

	// the money pages' errors, the scope box's line and a digest link's
	// answers: notes, said from the files with their arguments (record
	// values) kept and marked; their English the services' own
	for _, c := range []struct {
		n    record.Note
		en   string
		keep []string
	}{
		{record.N("scope.searched.dates_observed", "4,226", "2011-01-31", "2026-08-14", "2026-08-15"),
			"Searched 4,226 records held here, source dates 2011-01-31 to 2026-08-14, observed 2026-08-15.", []string{"4,226", "2011-01-31", "2026-08-15"}},
		{record.N("scope.searched.dates", "12", "2011-01-31", "2026-08-14"), "Searched 12 records held here, source dates 2011-01-31 to 2026-08-14.", []string{"12", "2026-08-14"}},
		{record.N("scope.searched.observed", "12", "2026-08-14"), "Searched 12 records held here, observed 2026-08-14.", []string{"12", "2026-08-14"}},
		{record.N("scope.searched", "12"), "Searched 12 records held here.", []string{"12"}},
		{record.N("scope.searched.none"), "Only the records held here were searched.", nil},
		{record.N("watch.redirect.unknown"), "This link does not point to a notice Recordwatch knows.", nil},
		{record.N("watch.redirect.not_held"), "No notice with this id is held here.", nil},
		{record.N("watch.redirect.unavailable"), "The link could not be checked right now; this does not mean the notice is missing. Please try again in a minute.", nil},
		{record.N("watch.redirect.failed"), "The link could not be checked.", nil},
		{record.N("money.contract.link.notice_joined"), "City Record notice joined by the source", nil},
		{record.Note{Key: "error.contract_unknown.page", Inner: []record.Part{{Key: "error.contract_unknown", Args: []string{`"NOPE1"`}}}},
			`no contract with ID "NOPE1" is held, and no payment held names it. This service holds no such contract; that does not mean none was registered.`, []string{`"NOPE1"`}},
		{record.Note{Key: "error.agency_label.suggest", Args: []string{`"Parks"`}, Inner: []record.Part{procure.OrList([]string{"Parks and Recreation", "Aging", "Buildings"})}},
			`"Parks" is not an accepted agency label (labels are the crosswalk's canonical agency names, matched with the same letter case); did you mean "Parks and Recreation" or "Aging" or "Buildings"? Nothing was analysed for it: this says nothing about its contracts and never means it has zero awards. Call without an agency label for the accepted list.`,
			[]string{`"Parks and Recreation", "Aging" o "Buildings"`}},
		{record.N("error.agency_label", `"Parks"`), `"Parks" is not an accepted agency label (labels are the crosswalk's canonical agency names, matched with the same letter case) Nothing was analysed for it: this says nothing about its contracts and never means it has zero awards. Call without an agency label for the accepted list.`, []string{`"Parks"`}},
		{record.Note{Key: "error.with_link", Args: []string{"http://x.test/api/search?q=zz"}, Inner: []record.Part{{Key: "error.agency_unknown", Args: []string{`"zz"`}}}},
			`no agency with id "zz" is in the crosswalk or the records held here; GET /agencies lists the ids. A search may still find mentions: http://x.test/api/search?q=zz`, []string{`"zz"`, "q=zz"}},
		{record.Note{Key: "error.with_link", Args: []string{"http://x.test/api/search?q=zz"}, Inner: []record.Part{{Key: "error.vendor_unknown", Args: []string{`"ZZ"`}}}},
			`no award or intent notice and no payments-dataset record held here names a vendor with the name stem "ZZ". This does not mean there is no such vendor: a full-text search may still find mentions: http://x.test/api/search?q=zz`, []string{`"ZZ"`, "q=zz"}},
	} {
		if en := NoteIn("en", c.n); en != c.en {
			t.Errorf("%s in English: %q, the service says %q", c.n.Key, en, c.en)
		}
		es := NoteIn("es", c.n)
		if es == c.en || moneyEnglish.MatchString(es) || strings.Contains(es, "[[") || strings.Contains(es, "%!") {
			t.Errorf("%s is not said in Spanish: %q", c.n.Key, es)
		}
		for _, k := range c.keep {
			if !strings.Contains(es, k) {
				t.Errorf("%s drops %q: %q", c.n.Key, k, es)
			}
		}
	}
	// a list of one to five names, in each language's way
	for n, want := range []string{`"a"`, `"a" o "b"`, `"a", "b" o "c"`, `"a", "b", "c" o "d"`, `"a", "b", "c", "d" o "e"`} {
		names := []string{"a", "b", "c", "d", "e"}[:n+1]
		p := procure.OrList(names)
		if es, en := NoteIn("es", record.Note{Key: p.Key, Args: p.Args}), NoteIn("en", record.Note{Key: p.Key, Args: p.Args}); es != want || en != `"`+strings.Join(names, `" or "`)+`"` {
			t.Errorf("a list of %d: %q / %q", n+1, es, en)
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
	rw := struct{ Notes map[string]string }{scriptNotes(t, "es")}
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

// An error page says a service's error from its note (ErrorData.MessageKey)
// in the page's language, its arguments marked as record text; an error
// with no note shows its message.
func TestErrorPageSaysTheNote(t *testing.T) {
	n := record.Note{Key: "error.agency_label.suggest", Args: []string{`"aging"`}, Inner: []record.Part{procure.OrList([]string{"Aging"})}}
	for _, c := range []struct {
		lang string
		d    ErrorData
		want string
	}{
		{"es", ErrorData{Status: 400, Message: n.String(), MessageKey: n}, "<span data-verbatim>&#34;aging&#34;</span> no es una etiqueta de agencia aceptada"},
		{"en", ErrorData{Status: 400, Message: n.String(), MessageKey: n}, "&#34;aging&#34; is not an accepted agency label"},
		{"es", ErrorData{Status: 403, Message: n.String(), MessageKey: n}, "¿quiso decir <span data-verbatim>&#34;Aging&#34;</span>?"},
		{"es", ErrorData{Status: 400, Message: "an error without a note"}, "an error without a note"},
	} {
		var buf bytes.Buffer
		if err := Render(&buf, Page{Kind: Error, Lang: c.lang, Title: "x", Data: c.d}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), c.want) {
			t.Errorf("%s %d: no %q in %s", c.lang, c.d.Status, c.want, buf.String())
		}
	}
}

// scriptNotes are the notes the word script of lang serves (window.RW's
// notes).
func scriptNotes(t *testing.T, lang string) map[string]string {
	t.Helper()
	b := Script(lang)
	start, end := bytes.IndexByte(b, '{'), bytes.LastIndexByte(b, '}')
	var rw struct {
		Notes map[string]string `json:"notes"`
	}
	if start < 0 || json.Unmarshal(b[start:end+1], &rw) != nil {
		t.Fatalf("the word script is not window.RW = {…}: %.80s", b)
	}
	return rw.Notes
}
