package embedded_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
)

// birds are the synthetic notices' words: none is a stop word, and the
// analyzer keeps each as itself, so the test can tell which notices a
// word, a phrase or an exclusion matches.
var birds = []string{"kestrel", "falcon", "harrier", "osprey", "plover", "heron"}

func noticeLike(rng *rand.Rand, i int) record.Notice {
	words := make([]string, 4)
	for j := range words {
		words[j] = birds[rng.IntN(len(birds))]
	}
	vendor := fmt.Sprintf("Vendor %d Inc.", rng.IntN(40))
	n := record.Notice{
		RequestID:  fmt.Sprintf("2026%07d", i),
		Source:     []string{"crol", "legacy"}[rng.IntN(2)],
		Title:      words[0] + " " + words[1],
		Text:       strings.Join(words, " "),
		NoticeType: []string{"Award", "Intent to Award", "Solicitation"}[rng.IntN(3)],
		AgencyID:   fmt.Sprintf("agency-%02d", rng.IntN(12)),
		AgencyRaw:  fmt.Sprintf("Agency %02d", rng.IntN(12)),
		VendorName: vendor,
		VendorStem: strings.ToUpper(strings.TrimSuffix(vendor, " Inc.")),
	}
	if rng.IntN(9) == 0 { // a notice without a vendor
		n.VendorName, n.VendorStem = "", ""
	}
	if rng.IntN(11) != 0 {
		n.StartDate = time.Date(2012+rng.IntN(14), time.Month(1+rng.IntN(12)), 1+rng.IntN(28), 0, 0, 0, 0, record.NewYork)
	}
	if i%97 == 0 { // a date before the fiscal years the engine tables
		n.StartDate = time.Date(1890, time.March, 3, 0, 0, 0, 0, record.NewYork)
	}
	if rng.IntN(4) != 0 {
		n.Amount, n.AmountValid = float64(rng.IntN(50_000_000))/100, true
	}
	return n
}

// TestNoticeTotalsOverSegmentsReplacementsAndDeletions checks the notice
// totals read from columns against the reference accumulator over the
// notices the test keeps: many segments, notices replaced and deleted,
// notices without a date, an amount or a vendor, and filters of every
// kind the match sets apply (words, phrases, exclusions, keyword filters,
// amount and date clauses). The matches are the search's own (its total
// must equal the totals' count); the sums are checked against the copies
// the test wrote.
func TestNoticeTotalsOverSegmentsReplacementsAndDeletions(t *testing.T) {
	ctx := context.Background()
	b, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	rng := rand.New(rand.NewPCG(5, 9))
	live := map[string]record.Notice{}
	for batch := 0; batch < 5; batch++ {
		var docs []search.Doc
		for i := 0; i < 200; i++ {
			id := batch*200 + i
			if batch > 0 && i%6 == 0 {
				id = rng.IntN(batch * 200) // replace a notice of an earlier batch
			}
			n := noticeLike(rng, id)
			docs = append(docs, search.Doc{Notice: n})
			live[n.RequestID] = n
		}
		if err := b.Upsert(ctx, docs); err != nil {
			t.Fatal(err)
		}
		var gone []string
		for i := 0; i < 15; i++ {
			id := fmt.Sprintf("2026%07d", rng.IntN((batch+1)*200))
			gone = append(gone, id)
			delete(live, id)
		}
		if err := b.Delete(ctx, gone); err != nil {
			t.Fatal(err)
		}
	}
	lo, hi := 100_000.0, 300_000.0
	has := func(n record.Notice, w string) bool { return slices.Contains(strings.Fields(n.Text), w) }
	queries := map[string]struct {
		q    search.Query
		want func(record.Notice) bool
	}{
		"everything":     {search.Query{}, func(record.Notice) bool { return true }},
		"a word":         {search.Query{Text: "osprey"}, func(n record.Notice) bool { return has(n, "osprey") }},
		"two words (or)": {search.Query{Text: "osprey heron"}, func(n record.Notice) bool { return has(n, "osprey") || has(n, "heron") }},
		"a phrase": {search.Query{Text: `"kestrel falcon"`}, func(n record.Notice) bool { // over the content: title, vendor, text
			return strings.Contains(strings.Join(slices.DeleteFunc([]string{n.Title, n.VendorName, n.Text}, func(s string) bool { return s == "" }), " "), "kestrel falcon")
		}},
		"an exclusion": {search.Query{Text: "plover -harrier"}, func(n record.Notice) bool {
			return has(n, "plover") && !has(n, "harrier")
		}},
		"agency and type": {search.Query{AgencyIDs: []string{"agency-03", "agency-07"}, NoticeTypes: []string{"Award"}}, func(n record.Notice) bool {
			return (n.AgencyID == "agency-03" || n.AgencyID == "agency-07") && n.NoticeType == "Award"
		}},
		"a vendor": {search.Query{VendorStems: []string{"VENDOR 7"}}, func(n record.Notice) bool { return n.VendorStem == "VENDOR 7" }},
		"amount band": {search.Query{MinAmount: &lo, MaxAmount: &hi}, func(n record.Notice) bool {
			return n.AmountValid && n.Amount >= lo && n.Amount <= hi
		}},
		"dated window": {search.Query{From: time.Date(2016, 7, 1, 0, 0, 0, 0, record.NewYork), To: time.Date(2019, 6, 30, 0, 0, 0, 0, record.NewYork)}, func(n record.Notice) bool {
			return !n.StartDate.IsZero() && !n.StartDate.Before(time.Date(2016, 7, 1, 0, 0, 0, 0, record.NewYork)) && !n.StartDate.After(time.Date(2019, 6, 30, 0, 0, 0, 0, record.NewYork))
		}},
		"nothing": {search.Query{Text: "albatross"}, func(record.Notice) bool { return false }},
	}
	groups := []string{search.GroupVendorStem, search.GroupVendorName, search.GroupAgencyID, search.GroupAgencyRaw, search.GroupNoticeType, search.GroupFiscalYear, search.GroupSource}
	for name, c := range queries {
		for _, size := range []int{0, 3} {
			got, err := b.NoticeTotals(ctx, c.q, groups, size)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			acc := search.NewTotalsAccumulator(groups)
			n := 0
			for _, x := range live {
				if c.want(x) {
					acc.Add(x)
					n++
				}
			}
			want := acc.Totals(size)
			if g, w := js(got), js(want); g != w {
				t.Errorf("%s, size %d:\n got %.700s\nwant %.700s", name, size, g, w)
			}
			sq := c.q
			sq.Limit, sq.ExactCount = 1, true
			res, err := b.Search(ctx, sq)
			if err != nil {
				t.Fatal(err)
			}
			if res.Total != got.Count || got.Count != n {
				t.Errorf("%s: totals count %d, search total %d, reference %d", name, got.Count, res.Total, n)
			}
		}
	}
	if got, _ := b.NoticeTotals(ctx, search.Query{}, nil, 0); got.Count != len(live) || got.First.Location() != record.NewYork {
		t.Errorf("everything: %d notices (held %d), first %v", got.Count, len(live), got.First)
	}
}

// BenchmarkNoticeTotals times notice totals (the dossiers' and batch
// look-up's question) over the benchmark corpus (bench_test.go; size
// RECORDWATCH_BENCH_N): every op asks a different question (an agency's
// awards grouped as a vendor or agency profile groups them, a vendor's
// notices, a word's, everything), cycling through the corpus's agencies
// and vendors, so no op repeats the one before. It reports p50/p95/p99
// and the matches summed per op.
func BenchmarkNoticeTotals(b *testing.B) {
	m := benchModel(b)
	be := corpus(b, m, benchN(b))
	ctx := context.Background()
	all, err := be.NoticeTotals(ctx, search.Query{}, []string{search.GroupAgencyID}, 0)
	agencies := all.Groups[search.GroupAgencyID]
	if err != nil || len(agencies) == 0 {
		b.Fatalf("agencies: %v", err)
	}
	vendors := m.Vendors()
	words := []string{"construction", "services", "repair", "consultant", "hearing", "contract", "award"}
	groups := []string{search.GroupFiscalYear, search.GroupAgencyID, search.GroupVendorName}
	query := func(i int) search.Query {
		switch i % 4 {
		case 0:
			return search.Query{AgencyIDs: []string{agencies[i/4%len(agencies)].Value}, NoticeTypes: []string{"Award", "Intent to Award"}}
		case 1:
			return search.Query{VendorStems: []string{vendors[i/4%len(vendors)]}}
		case 2:
			return search.Query{Text: words[i/4%len(words)]}
		}
		return search.Query{}
	}
	var durs []time.Duration
	matched := 0
	i := 0
	for b.Loop() {
		start := time.Now()
		t, err := be.NoticeTotals(ctx, query(i), groups, 10)
		durs = append(durs, time.Since(start))
		if err != nil {
			b.Fatal(err)
		}
		matched += t.Count
		i++
	}
	reportLatency(b, durs)
	b.ReportMetric(float64(matched)/float64(len(durs)), "matches/op")
}
