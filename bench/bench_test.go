package main

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/search"
)

// These tests cover the harness's pieces (query translation, percentiles,
// parsing); the benchmark itself runs only with `go -C bench run .`.

func keywords(t *testing.T, q string) search.Keywords {
	t.Helper()
	k, err := search.ParseKeywords(q)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestTranslation(t *testing.T) {
	cases := []struct {
		q             string
		web, excl     string
		pgExpr        string
		fts5          string
		pgArgs, empty bool
	}{
		{q: "construction", web: "construction", pgExpr: "websearch_to_tsquery('rw_english', $1)", fts5: `"construction"`},
		{q: "asbestos abatement roofing", web: "asbestos or abatement or roofing",
			pgExpr: "websearch_to_tsquery('rw_english', $1)", fts5: `"asbestos" OR "abatement" OR "roofing"`},
		{q: `"sealed bids"`, web: `"sealed bids"`,
			pgExpr: "websearch_to_tsquery('rw_english', $1)", fts5: `"sealed bids"`},
		// the reviewed synonym list expands before any engine sees the
		// query, so the peers are sent the same alternatives
		{q: `"invitation for bids"`, web: `ifb or "invitation for bids" or "invitation for bid"`,
			pgExpr: "websearch_to_tsquery('rw_english', $1)", fts5: `"ifb" OR "invitation for bids" OR "invitation for bid"`},
		{q: `bid "sealed bids" -demolition -"fire alarm"`, web: `bid or "sealed bids"`, excl: `demolition or "fire alarm"`,
			pgExpr: "(websearch_to_tsquery('rw_english', $1) && !!websearch_to_tsquery('rw_english', $2))",
			fts5:   `("bid" OR "sealed bids") NOT "demolition" NOT "fire alarm"`},
		{q: "construction -demolition", web: "construction", excl: "demolition",
			pgExpr: "(websearch_to_tsquery('rw_english', $1) && !!websearch_to_tsquery('rw_english', $2))",
			fts5:   `"construction" NOT "demolition"`},
		{q: "-demolition", excl: "demolition", empty: true},
	}
	for _, c := range cases {
		k := keywords(t, c.q)
		if got := websearchText(k); got != c.web {
			t.Errorf("%q: websearch %q, want %q", c.q, got, c.web)
		}
		if got := pgExcluded(k); got != c.excl {
			t.Errorf("%q: excluded %q, want %q", c.q, got, c.excl)
		}
		expr, args, ok := pgTSQuery(k, 1)
		if ok == c.empty {
			t.Errorf("%q: pgTSQuery ok=%v", c.q, ok)
			continue
		}
		if c.empty {
			if got := fts5Match(k); got != "" {
				t.Errorf("%q: fts5 %q for a query with nothing positive", c.q, got)
			}
			continue
		}
		if expr != c.pgExpr {
			t.Errorf("%q: pg %s, want %s", c.q, expr, c.pgExpr)
		}
		if want := 1 + min(len(k.Excluded), 1); len(args) != want {
			t.Errorf("%q: %d pg args, want %d", c.q, len(args), want)
		}
		if got := fts5Match(k); got != c.fts5 {
			t.Errorf("%q: fts5 %s, want %s", c.q, got, c.fts5)
		}
	}
	if got := fts5String(`a"b`); got != `"a""b"` {
		t.Errorf("fts5String escapes quotes: %s", got)
	}
}

func TestPGWhere(t *testing.T) {
	million := 1e6
	q := search.Query{Text: "services", AgencyIDs: []string{"dcas"}, MinAmount: &million}
	k, err := q.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	where, rank, args := pgWhere(q, k)
	want := "tsv @@ websearch_to_tsquery('rw_english', $1) AND agency_id = ANY($2) AND amount_valid AND amount >= $3"
	if where != want {
		t.Errorf("where:\n%s\nwant\n%s", where, want)
	}
	if !strings.HasPrefix(rank, "ts_rank(tsv, ") || len(args) != 3 {
		t.Errorf("rank %s, args %v", rank, args)
	}
	from, lwhere, score, largs := sqliteWhere(q, k)
	if !strings.Contains(from, "notices_fts JOIN notices n") || score != "bm25(notices_fts)" ||
		lwhere != "notices_fts MATCH ? AND n.agency_id IN (?) AND n.amount_valid = 1 AND n.amount >= ?" || len(largs) != 3 {
		t.Errorf("sqlite: %s WHERE %s (%s) %v", from, lwhere, score, largs)
	}
}

func TestParsePeerSearch(t *testing.T) {
	v := url.Values{"vendor": {"Acme Construction Inc."}, "min": {"1000000"}}
	q, k, err := parsePeerSearch(v)
	if err != nil {
		t.Fatal(err)
	}
	if !k.Empty() || q.Sort != search.SortNewest {
		t.Errorf("no keywords: want newest first, got %q", q.Sort)
	}
	// the stem first, then the forms older rules stored for it
	// (entity.StemKeys), each of which is the same vendor
	stem := entity.VendorStem("Acme Construction Inc.")
	if len(q.VendorStems) == 0 || q.VendorStems[0] != stem {
		t.Errorf("vendor stems %v", q.VendorStems)
	}
	for _, s := range q.VendorStems {
		if entity.VendorStem(s) != stem {
			t.Errorf("vendor stems %v: %q is another vendor", q.VendorStems, s)
		}
	}
	if !q.ValidAmountOnly || q.Limit != search.DefaultLimit {
		t.Errorf("an amount bound implies valid amounts only: %+v", q)
	}
	if _, _, err := parsePeerSearch(url.Values{"sort": {"oldest"}}); err == nil {
		t.Error("a parameter the peer does not serve must be refused, not ignored")
	}
}

func TestPercentile(t *testing.T) {
	var d []time.Duration
	for i := 1; i <= 100; i++ {
		d = append(d, time.Duration(101-i)*time.Millisecond) // unsorted: summarize sorts
	}
	r := summarize(d, 2, 10*time.Second)
	if r.P50 != 50*time.Millisecond || r.P95 != 95*time.Millisecond || r.P99 != 99*time.Millisecond {
		t.Errorf("p50 %s p95 %s p99 %s", r.P50, r.P95, r.P99)
	}
	if r.RPS != 10 || r.Errors != 2 || r.Mean != 50500*time.Microsecond {
		t.Errorf("rps %v errors %d mean %s", r.RPS, r.Errors, r.Mean)
	}
	one := []time.Duration{7 * time.Millisecond}
	if percentile(one, 99) != 7*time.Millisecond || percentile(one, 1) != 7*time.Millisecond || percentile(nil, 50) != 0 {
		t.Error("percentile of one sample is that sample")
	}
}

func TestFacetCounter(t *testing.T) {
	fc := facetCounter{}
	fc.add("agency", "b", 5)
	fc.add("agency", "a", 5)
	fc.add("agency", "c", 9)
	got := fc.result()["agency"]
	if len(got) != 3 || got[0].Value != "c" || got[1].Value != "a" || got[2].Value != "b" {
		t.Errorf("facets sort by count, then value: %v", got)
	}
	if same, _ := sameFacets(fc.result(), fc.result()); !same {
		t.Error("sameFacets of equal maps")
	}
}

func TestMixPaths(t *testing.T) {
	mix := buildMix("citywide-administrative-services", "Acme Inc.")
	seen := map[string]bool{}
	for _, q := range mix {
		p := q.path(7)
		if seen[p] && q.Kind != kindFeedCold {
			t.Errorf("duplicate request %s", p)
		}
		seen[p] = true
		if q.Kind == kindFeedCold && q.path(7) == q.path(8) {
			t.Error("cold feed requests must differ")
		}
		if q.peerServed() {
			if _, _, err := parsePeerSearch(mustQuery(t, p)); err != nil && q.Kind == kindSearch {
				t.Errorf("%s: peer cannot parse %s: %v", q.Name, p, err)
			}
		}
	}
	if thousands(1100000) != "1,100,000" || thousands(999) != "999" {
		t.Error("thousands")
	}
}

func mustQuery(t *testing.T, p string) url.Values {
	u, err := url.Parse(p)
	if err != nil {
		t.Fatal(err)
	}
	return u.Query()
}

func TestPeerText(t *testing.T) {
	in := "See www.construction.ny.gov or cuny.construction@cuny.edu; the SERVICES’s office (construction_materials). Bids/Pre-Qualified, roofing\n2,500.00"
	// periods between letters separate words (search.CleanText), as in both engines
	want := "See www construction ny gov or cuny construction cuny edu the SERVICES office constructionmaterials Bids Pre Qualified roofing 250000"
	if got := peerText(in); got != want {
		t.Errorf("peerText:\n got %q\nwant %q", got, want)
	}
}

// A peer whose requests all timed out is slower than us, not a tie or a
// zero-latency winner; we must answer to win.
func TestFasterThan(t *testing.T) {
	ms := time.Millisecond
	ours := loadResult{Requests: 100, P50: 10 * ms, RPS: 100}
	for _, c := range []struct {
		name string
		peer loadResult
		want bool
	}{
		{"slower peer", loadResult{Requests: 10, P50: 90 * ms, RPS: 11}, true},
		{"faster peer", loadResult{Requests: 500, P50: 2 * ms, RPS: 500}, false},
		{"faster p50, lower throughput", loadResult{Requests: 50, P50: 5 * ms, RPS: 50}, false},
		{"all timed out", loadResult{Errors: 32}, true},
	} {
		if got := ours.fasterThan(c.peer); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	if (loadResult{Errors: 3}).fasterThan(loadResult{Errors: 3}) {
		t.Error("neither answered: not faster")
	}
}
