package api

import (
	"context"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
)

// countEnv serves an index of record.CountLimit+50 tiny Property
// Disposition notices (each with one passage) on the real embedded engine.
func countEnv(t *testing.T) (*env, int) {
	t.Helper()
	ctx := context.Background()
	be, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { be.Close() })
	const n = record.CountLimit + 50
	cw := entity.DefaultCrosswalk()
	a := cw.Resolve("Citywide Administrative Services")
	docs := make([]search.Doc, n)
	for i := range docs {
		id := fmt.Sprintf("2026%07d", i)
		text := "Tally notice " + fmt.Sprint(i)
		nt := record.Notice{RequestID: id, Source: record.SourceCROL, Section: record.SectionPropertyDisp, NoticeType: "Public Auction",
			AgencyRaw: a.Name, AgencyID: a.ID, AgencyName: a.Name, Title: "TALLY", Body: text, Text: text,
			StartDate: time.Date(2026, 1, 2, 0, 0, 0, 0, record.NewYork), OfficialURL: record.OfficialURL(id)}
		nt.Lenses = record.LensesFor(nt.Section, a.Name, nt.Title, nt.Text)
		nt.Lens = nt.Lenses[0]
		docs[i] = search.Doc{Notice: nt, Passages: []record.Passage{{ID: id + "#p1", RequestID: id, Seq: 1, End: len(text), Text: text,
			Source: nt.Source, Section: nt.Section, Lenses: nt.Lenses, AgencyID: a.ID, Title: nt.Title, StartDate: nt.StartDate, SourceURL: nt.OfficialURL}}}
	}
	if err := be.Upsert(ctx, docs); err != nil {
		t.Fatal(err)
	}
	if err := be.Observe(ctx, search.Observation{Source: record.SourceCROL, Label: "City Record Online", RecordType: "notice", ObservedAt: fixedNow}); err != nil {
		t.Fatal(err)
	}
	srv := newServer(Config{BaseURL: "http://rw.test", RatePerSecond: 1e6, Burst: 1e6, Engine: "embedded"},
		Deps{Search: be, Store: shared.st, Crosswalk: cw, Now: func() time.Time { return fixedNow }})
	e := &env{srv: srv, ts: httptest.NewServer(srv), be: be}
	t.Cleanup(e.ts.Close)
	return e, n
}

// Counts like OpenSearch on every surface of a notice search: exact up to
// 10,000, then 10,000 with the relation "gte" unless exact_count=true; the
// scope stays whole (a lower bound is never "no record").
func TestCountsLowerBound(t *testing.T) {
	e, n := countEnv(t)
	type counted struct {
		Total         int          `json:"total"`
		TotalRelation string       `json:"total_relation"`
		Scope         record.Scope `json:"scope"`
	}
	for _, c := range []struct {
		path  string
		total int
		rel   string
	}{
		{"/api/search?lens=property", record.CountLimit, "gte"},
		{"/api/search?q=tally&facets=true", record.CountLimit, "gte"},
		{"/api/search?lens=property&exact_count=true", n, ""},
		{"/api/search?q=10049", 1, ""},
		{"/api/passages?q=tally", record.CountLimit, "gte"},
		{"/api/passages?q=tally&exact_count=true", n, ""},
	} {
		res, b := get(t, e, c.path)
		if res.StatusCode != 200 {
			t.Fatalf("%s: status %d: %s", c.path, res.StatusCode, b)
		}
		out := decode[counted](t, b)
		if out.Total != c.total || out.TotalRelation != c.rel || out.Scope.Matched != c.total || out.Scope.MatchedRelation != c.rel {
			t.Errorf("%s: total %d %q, scope matched %d %q; want %d %q", c.path, out.Total, out.TotalRelation,
				out.Scope.Matched, out.Scope.MatchedRelation, c.total, c.rel)
		}
		if out.Scope.RecordsInCorpus != n || len(out.Scope.Absence) != 4 || out.Scope.DateBoundsNote == "" {
			t.Errorf("%s: scope incomplete: %+v", c.path, out.Scope)
		}
	}
	res, b := get(t, e, "/api/search?lens=property&exact_count=maybe")
	if res.StatusCode != 400 || decode[errorBody](t, b).Error.Param != "exact_count" {
		t.Errorf("exact_count=maybe: status %d: %s", res.StatusCode, b)
	}
	// the feed's scope says the same
	res, b = get(t, e, "/feed.json?lens=property")
	if res.StatusCode != 200 {
		t.Fatalf("feed: status %d: %s", res.StatusCode, b)
	}
	fd := decode[struct {
		RW struct {
			Matched         int    `json:"matched"`
			MatchedRelation string `json:"matched_relation"`
		} `json:"_recordwatch"`
	}](t, b)
	if fd.RW.Matched != record.CountLimit || fd.RW.MatchedRelation != "gte" {
		t.Errorf("feed scope: matched %d %q", fd.RW.Matched, fd.RW.MatchedRelation)
	}
}
