package crol

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/indexer/link"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
)

// dcasProcurement are the procurement notices of both DCAS exports in the
// bundled sample (2013 and 2014), normalized.
func dcasProcurement(t *testing.T) []record.Notice {
	t.Helper()
	c, errs := Read(os.DirFS("../../../testdata/sample/crol"), ".")
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	var out []record.Notice
	for _, n := range c.Notices {
		if n.Section == record.SectionProcurement && (strings.HasPrefix(n.RequestID, "2013") || strings.HasPrefix(n.RequestID, "2014")) && n.Body != "" {
			out = append(out, n)
		}
	}
	return out
}

// vendorLabel is one line of testdata/vendortext_labels.jsonl: a notice of
// the bundled sample (by request id), the phrasing its text names its
// vendor in, the gold vendors and where they come from. The labelling
// rules, written before any rule was measured, are in
// testdata/VENDORTEXT_LABELS.md.
type vendorLabel struct {
	ID     string   `json:"id"`
	Type   string   `json:"type"`
	Phrase string   `json:"phrase"`
	Gold   []string `json:"gold"`
	Origin string   `json:"origin"`
}

func readVendorLabels(t *testing.T) []vendorLabel {
	t.Helper()
	f, err := os.Open("testdata/vendortext_labels.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []vendorLabel
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l vendorLabel
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("%s: %v", sc.Text(), err)
		}
		out = append(out, l)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// stemSet is the sorted set of vendor stems of names.
func stemSet(names []string) []string {
	var out []string
	for _, n := range names {
		if s := entity.VendorStem(n); !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// vendorPhrasings are the phrasings of the labels (VENDORTEXT_LABELS.md,
// rule 6) in the order the published table lists them; the first seven
// are also the reader's patterns.
var vendorPhrasings = []string{
	entity.VendorPatternAwardTo, entity.VendorPatternConcessionTo, entity.VendorPatternIntentWith,
	entity.VendorPatternIntentAwardTo, entity.VendorPatternExtendedWith, entity.VendorPatternBetween,
	entity.VendorPatternList, "other", "none",
}

// measureVendorText reads every labelled notice's text (its vendor field
// hidden) and measures each pattern's precision and each phrasing's
// recall; noneRead counts the rows naming no vendor for which a name was
// read anyway (wrong by rule 4).
func measureVendorText(t *testing.T) (got map[string]entity.VendorTextMeasure, noneRows, noneRead int, wrong []string) {
	t.Helper()
	labels := readVendorLabels(t)
	byID := map[string]record.Notice{}
	for _, n := range dcasProcurement(t) {
		if n.NoticeType == "Award" || n.NoticeType == "Intent to Award" {
			byID[n.RequestID] = n
		}
	}
	if len(labels) < 300 || len(labels) != len(byID) {
		t.Fatalf("%d labels for %d awards and intents of the sample: every one is labelled, at least 300", len(labels), len(byID))
	}
	got = map[string]entity.VendorTextMeasure{}
	origins := map[string]map[string]bool{}
	for _, l := range labels {
		n, ok := byID[l.ID]
		if !ok || n.NoticeType != l.Type || !slices.Contains(vendorPhrasings, l.Phrase) || (l.Origin != "field" && l.Origin != "hand") {
			t.Fatalf("label %+v: no such notice in the sample, or a type, phrasing or origin the rules do not have", l)
		}
		if (l.Origin == "field") != (n.VendorName != "") || l.Origin == "field" && (len(l.Gold) != 1 || l.Gold[0] != strings.TrimSpace(n.VendorName)) {
			t.Errorf("%s: the gold comes from the vendor field exactly when the row has one (rule 1): %+v, field %q", l.ID, l, n.VendorName)
		}
		if (len(l.Gold) == 0) != (l.Phrase == "none") {
			t.Errorf("%s: phrasing none exactly when no vendor is named (rule 4): %+v", l.ID, l)
		}
		r := entity.VendorFromText(n.NoticeType, n.Text) // the vendor field is not passed
		read := r.Names
		if r.Name != "" {
			read = []string{r.Name}
		}
		right := len(read) > 0 && slices.Equal(stemSet(read), stemSet(l.Gold))
		if len(read) > 0 {
			m := got[r.Pattern]
			m.Published++
			if right {
				m.Correct++
			}
			got[r.Pattern] = m
		}
		m := got[l.Phrase]
		if len(l.Gold) > 0 {
			m.Rows++
			if right {
				m.Found++
			}
			if origins[l.Phrase] == nil {
				origins[l.Phrase] = map[string]bool{}
			}
			origins[l.Phrase][l.Origin] = true
		} else {
			noneRows++
			if len(read) > 0 {
				noneRead++
			}
		}
		got[l.Phrase] = m
		switch {
		case len(read) > 0 && !right:
			wrong = append(wrong, fmt.Sprintf("%s (%s): read %q by %s, gold %q", l.ID, l.Phrase, read, r.Pattern, l.Gold))
		case len(read) == 0 && len(l.Gold) > 0:
			wrong = append(wrong, fmt.Sprintf("%s (%s): none (%s), gold %q", l.ID, l.Phrase, r.Reason, l.Gold))
		}
	}
	for p, m := range got {
		m.Pattern = p
		switch o := origins[p]; {
		case o["field"] && o["hand"]:
			m.Labels = "vendor field and hand"
		case o["field"]:
			m.Labels = "vendor field"
		case o["hand"]:
			m.Labels = "hand"
		}
		got[p] = m
	}
	return got, noneRows, noneRead, wrong
}

// vendorTextTable is the table of docs/data-sources.md ("Vendors read from
// the text"), rendered from the measures.
func vendorTextTable(got map[string]entity.VendorTextMeasure, noneRows, noneRead int) string {
	var b strings.Builder
	b.WriteString("| Phrasing (rule) | Labels | Rows naming a vendor this way | Read right | Recall | Readings by the rule | Right | Precision | Confidence | Counted |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|\n")
	for _, p := range vendorPhrasings {
		m := got[p]
		if p == "none" {
			fmt.Fprintf(&b, "| `none` (no vendor named) | hand | %d rows | — | — | %d read anyway | — | — | — | — |\n", noneRows, noneRead)
			continue
		}
		recall, prec, conf, counted := "—", "—", "—", "no (no rule)"
		if m.Rows > 0 {
			recall = fmt.Sprintf("%.3f", m.Recall())
		}
		if _, rule := entity.VendorTextMeasured[p]; rule {
			counted = "no"
			if entity.VendorTextCounted(p) {
				counted = "**yes**"
			} else if p == entity.VendorPatternList {
				counted = "no (several vendors)"
			}
			if m.Published > 0 {
				prec, conf = fmt.Sprintf("%.3f", m.Precision()), fmt.Sprintf("%.3f", m.Confidence())
			}
		}
		fmt.Fprintf(&b, "| `%s` | %s | %d | %d | %s | %d | %d | %s | %s | %s |\n", p, m.Labels, m.Rows, m.Found, recall, m.Published, m.Correct, prec, conf, counted)
	}
	return b.String()
}

// TestVendorFromTextMeasured measures the vendor-from-text reader on the
// labelled set (rules in testdata/VENDORTEXT_LABELS.md) and holds the
// published figures (entity.VendorTextMeasured, and the table of
// docs/data-sources.md) to what it measures; a counted rule under the
// 0.98 bar fails.
func TestVendorFromTextMeasured(t *testing.T) {
	got, noneRows, noneRead, wrong := measureVendorText(t)
	for _, p := range vendorPhrasings {
		m := got[p]
		t.Logf("%-16s rows %3d found %3d recall %.3f | published %3d correct %3d precision %.3f", p, m.Rows, m.Found, m.Recall(), m.Published, m.Correct, m.Precision())
	}
	for _, w := range wrong {
		t.Log(w)
	}
	for p, want := range entity.VendorTextMeasured {
		g := got[p]
		if g.Published != want.Published || g.Correct != want.Correct || g.Rows != want.Rows || g.Found != want.Found || g.Labels != want.Labels {
			t.Errorf("%s: measured %+v, published %+v: update entity.VendorTextMeasured and the docs", p, g, want)
		}
		if entity.VendorTextCounted(p) && (g.Published < entity.VendorTextMinPublished || g.Precision() < entity.VendorTextCountBar) {
			t.Errorf("%s is counted but measured at precision %.3f on %d readings (bar %.2f on %d)", p, g.Precision(), g.Published, entity.VendorTextCountBar, entity.VendorTextMinPublished)
		}
	}
	for p, g := range got {
		if _, rule := entity.VendorTextMeasured[p]; !rule && g.Published > 0 {
			t.Errorf("%s published %d readings but is not a measured rule", p, g.Published)
		}
	}
	// every intent and concession award read right by a counted rule is
	// counted: the link stage gives the notice the vendor's stem (its
	// vendor field stays absent)
	byID := map[string]record.Notice{}
	for _, n := range dcasProcurement(t) {
		byID[n.RequestID] = n
	}
	counted := 0
	for _, l := range readVendorLabels(t) {
		n := byID[l.ID]
		if n.VendorName != "" {
			continue
		}
		r := entity.VendorFromText(n.NoticeType, n.Text)
		link.Linker{}.Notice(&n)
		want := ""
		if r.Counted {
			want = r.Stem
			counted++
		}
		if n.VendorStem != want || n.VendorName != "" || r.Counted != (r.Name != "" && entity.VendorTextCounted(r.Pattern)) {
			t.Errorf("%s: linked stem %q, reading %+v", l.ID, n.VendorStem, r)
		}
	}
	t.Logf("%d intents and concession awards without a vendor field carry a counted vendor read from their text", counted)
	// the counted rules other than the printout's read only rows without a
	// vendor field: all their readings are counted
	want := 0
	for p, m := range entity.VendorTextMeasured {
		if p != entity.VendorPatternAwardTo && entity.VendorTextCounted(p) {
			want += m.Published
		}
	}
	if counted != want || counted == 0 {
		t.Errorf("%d intents and concession awards carry a counted vendor, the counted rules published %d readings", counted, want)
	}
	doc, err := os.ReadFile("../../../docs/data-sources.md")
	if err != nil {
		t.Fatal(err)
	}
	if table := vendorTextTable(got, noneRows, noneRead); !strings.Contains(string(doc), table) {
		t.Errorf("docs/data-sources.md does not hold the measured table; it should read:\n%s", table)
	}
}
