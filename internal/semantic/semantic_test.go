package semantic_test

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
	"github.com/recordwatch/recordwatch/internal/semantic"
)

var root = filepath.Join("..", "..")

// sample is the bundled City Record sample loaded once into an embedded
// index through the indexer (which writes each notice's vector).
var sample = sync.OnceValues(func() (*embedded.Backend, error) {
	dir, err := os.MkdirTemp("", "semantic-test-*")
	if err != nil {
		return nil, err
	}
	be, err := embedded.Open(filepath.Join(dir, "index"))
	if err != nil {
		return nil, err
	}
	ix := &indexer.Indexer{Backend: be, Crosswalk: entity.DefaultCrosswalk(), Now: time.Now, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if _, err := ix.LoadCROLDir(context.Background(), os.DirFS(filepath.Join(root, "testdata", "sample")), "crol"); err != nil {
		return nil, err
	}
	return be, nil
})

func service(t *testing.T) (*semantic.Service, *embedded.Backend) {
	t.Helper()
	be, err := sample()
	if err != nil {
		t.Fatal(err)
	}
	s := semantic.New(be, time.Now)
	if s.Model == nil || s.Records == nil {
		t.Fatal("the embedded engine with the bundled model must offer semantic search")
	}
	return s, be
}

func TestModelReadsAndEmbeds(t *testing.T) {
	m, err := semantic.Default()
	if err != nil {
		t.Fatal(err)
	}
	if m.Dims != 128 {
		t.Fatalf("dims = %d", m.Dims)
	}
	sim := func(a, b string) float32 {
		va, ok1 := m.Embed(a)
		vb, ok2 := m.Embed(b)
		if !ok1 || !ok2 {
			t.Fatalf("no vector for %q or %q", a, b)
		}
		var d float32
		for i := range va {
			d += va[i] * vb[i]
		}
		return d
	}
	// meaning, not spelling: a paraphrase is nearer than an unrelated need
	for _, c := range []struct{ q, near, far string }{
		{"repairing stoplights", "traffic signal maintenance", "legal services"},
		{"hiring lawyers", "legal services", "asphalt paving"},
		{"lift repair", "elevator maintenance", "tree planting"},
		{"tearing down buildings", "demolition", "child care services"},
	} {
		if n, f := sim(c.q, c.near), sim(c.q, c.far); n <= f {
			t.Errorf("%q: similarity to %q (%.3f) should exceed %q (%.3f)", c.q, c.near, n, c.far, f)
		}
	}
	if _, ok := m.Embed("… — !!"); ok {
		t.Error("text without a word has no vector")
	}
	if got := semantic.Words("Café-owners' SECTION:PROCUREMENT"); !slices.Equal(got, []string{"cafe", "owners", "section", "procurement"}) {
		t.Errorf("Words = %q", got)
	}
}

// wordless counts the notices held with no word the model knows (they get
// no vector), reading every notice.
func wordless(t *testing.T, s *semantic.Service, be search.Engine) int {
	t.Helper()
	n := 0
	q := search.Query{Sort: search.SortNewest, Limit: search.MaxLimit}
	for {
		res, err := be.Search(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range res.Hits {
			if _, ok := s.Model.VectorOf(h.Notice, time.Now()); !ok {
				n++
			}
		}
		if res.NextCursor == "" || len(res.Hits) == 0 {
			return n
		}
		q.Cursor = res.NextCursor
	}
}

func TestVectorsHeldAsDerivedRecords(t *testing.T) {
	s, be := service(t)
	ctx := context.Background()
	res, err := be.Search(ctx, search.Query{Limit: 1, ExactCount: true})
	if err != nil {
		t.Fatal(err)
	}
	all, err := search.TotalsOf(ctx, be, semantic.NoticeVectorKind, search.RecordQuery{}, []string{"vector"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	none := 0 // the records of notices with no known word: read, without a vector
	for _, b := range all.Groups["vector"] {
		if b.Value == "none" {
			none = b.Count
		}
	}
	tot := search.Totals{Count: all.Count - none}
	if want := res.Total - wordless(t, s, be); tot.Count != want || tot.Count == 0 || all.Count != res.Total || none != res.Total-want {
		t.Fatalf("%d vectors held for %d notices (%d with a known word; %d records in all, %d without a vector): every notice written with a known word gets its vector, every other one a record without", tot.Count, res.Total, want, all.Count, none)
	}
	if err := s.Index.Sync(ctx, be, s.Model.Dims, true, time.Now()); err != nil {
		t.Fatal(err)
	}
	if s.Index.Len() != tot.Count {
		t.Fatalf("index holds %d of %d vectors", s.Index.Len(), tot.Count)
	}
	// a derived kind is not a source: no scope lists it
	cov, err := search.WithScope(be, be).Coverage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cov {
		if strings.Contains(c.RecordType, "vector") {
			t.Errorf("scope lists the derived kind as a source: %+v", c)
		}
	}
}

func TestSemanticSearchFindsParaphrasesWithFiltersAndScope(t *testing.T) {
	s, _ := service(t)
	ctx := context.Background()
	res, err := s.Search(ctx, search.Query{Text: "lift repair in apartment buildings", Limit: 5}, semantic.ModeSemantic)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) == 0 || !strings.Contains(strings.ToLower(res.Hits[0].Notice.Title), "elevator") {
		t.Fatalf("first semantic hit for lift repair: %+v", titles(res))
	}
	sc := res.Scope.Searched.Semantic
	if sc == nil || sc.Mode != semantic.ModeSemantic || sc.Model != semantic.ModelName || sc.VectorsHeld == 0 {
		t.Fatalf("scope does not state the semantic method: %+v", sc)
	}
	if res.Scope.RecordsInCorpus == 0 || len(res.Scope.Absence) == 0 || res.Scope.Matched != res.Total {
		t.Fatalf("semantic scope is not the notice scope: %+v", res.Scope)
	}
	// keyword search matches the words, not the need
	kw, err := s.Search(ctx, search.Query{Text: "lift repair in apartment buildings", Limit: 5}, semantic.ModeKeyword)
	if err != nil {
		t.Fatal(err)
	}
	if len(kw.Hits) > 0 && strings.Contains(strings.ToLower(kw.Hits[0].Notice.Title), "elevator") {
		t.Fatalf("keyword search ranks an elevator notice first: the test needs a need keyword search misses")
	}

	// filters mean the same in every mode: the engine applies them
	for _, mode := range []string{semantic.ModeSemantic, semantic.ModeHybrid} {
		q := search.Query{Text: "sewer construction", AgencyIDs: []string{"environmental-protection"}, Limit: 20}
		res, err := s.Search(ctx, q, mode)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) == 0 {
			t.Fatalf("%s: no DEP sewer notice", mode)
		}
		for _, h := range res.Hits {
			if h.Notice.AgencyID != "environmental-protection" {
				t.Errorf("%s: hit %s of agency %s passed the agency filter", mode, h.Notice.RequestID, h.Notice.AgencyID)
			}
		}
		if res.Scope.Searched.Filters["agency"] != "environmental-protection" {
			t.Errorf("%s: scope filters %v", mode, res.Scope.Searched.Filters)
		}
		// exclusions too
		ex, err := s.Search(ctx, search.Query{Text: "sewer construction -sanitary", Limit: 50}, mode)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range ex.Hits {
			if strings.Contains(strings.ToLower(h.Notice.Title+" "+h.Notice.Text), "sanitary") {
				t.Errorf("%s: %s holds the excluded word", mode, h.Notice.RequestID)
			}
		}
	}
}

func TestSemanticPagesAndRejectsWhatItCannotDo(t *testing.T) {
	s, _ := service(t)
	ctx := context.Background()
	all, err := s.Search(ctx, search.Query{Text: "construction of sewers", Limit: 30}, semantic.ModeHybrid)
	if err != nil {
		t.Fatal(err)
	}
	var paged []string
	q := search.Query{Text: "construction of sewers", Limit: 7}
	for range 5 {
		res, err := s.Search(ctx, q, semantic.ModeHybrid)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range res.Hits {
			paged = append(paged, h.Notice.RequestID)
		}
		if res.NextCursor == "" {
			break
		}
		q.Cursor = res.NextCursor
	}
	want := []string{}
	for _, h := range all.Hits {
		want = append(want, h.Notice.RequestID)
	}
	if len(paged) > len(want) {
		paged = paged[:len(want)]
	}
	if !slices.Equal(paged, want[:len(paged)]) || len(paged) < 30 && all.Total > len(paged) && len(paged) != 35 {
		t.Fatalf("pages of 7 differ from one page:\n%v\n%v", paged, want)
	}

	for _, c := range []struct {
		q     search.Query
		mode  string
		param string
	}{
		{search.Query{Text: "sewers"}, "fuzzy", "mode"},
		{search.Query{}, semantic.ModeSemantic, "q"},
		{search.Query{Text: "sewers", Sort: search.SortNewest}, semantic.ModeSemantic, "sort"},
		{search.Query{Text: "sewers", Facets: true}, semantic.ModeHybrid, "facets"},
		{search.Query{Text: "sewers", Cursor: "abc"}, semantic.ModeSemantic, "cursor"},
	} {
		_, err := s.Search(ctx, c.q, c.mode)
		if record.ErrorCode(err) != record.EINVALID || !strings.Contains(err.Error(), c.param) {
			t.Errorf("%s %+v: want EINVALID naming %s, got %v", c.mode, c.q, c.param, err)
		}
	}
	// nonsense matches nothing semantically: no hit is better than a random one
	res, err := s.Search(ctx, search.Query{Text: "qzxv wkpfj"}, semantic.ModeSemantic)
	if err != nil {
		t.Fatal(err)
	}
	if res.Total != 0 {
		t.Errorf("nonsense found %d notices: %v", res.Total, titles(res))
	}
}

// JudgedHybridFloor is the hybrid nDCG@10 the shipped ranking reaches on
// the judged set (0.614, go -C bench run . -relevance-only).
const JudgedHybridFloor = 0.614

// The judged set (testdata/relevance) scores hybrid above keyword search,
// overall and on each phrasing half (issue 36: hybrid never below keyword
// on the keyword-phrased half); the bench prints the same table (go -C
// bench run . -relevance-only). The set itself holds at least 120 queries
// in keyword/paraphrase pairs, and every query added after the first set
// has at least 2 relevant notices and says why its rule is right. Hybrid
// stays at or above the figure the shipped ranking reaches
// (JudgedHybridFloor).
func TestJudgedSetHybridBeatsKeyword(t *testing.T) {
	s, _ := service(t)
	j, err := semantic.LoadJudged(filepath.Join(root, semantic.JudgedFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(j.Queries) < 120 {
		t.Fatalf("judged set has %d queries, want at least 120", len(j.Queries))
	}
	for i, q := range j.Queries {
		want := semantic.Phrasings[i%2]
		if q.Phrasing != want {
			t.Errorf("%s: phrasing %q, want %q (queries come in keyword/paraphrase pairs)", q.ID, q.Phrasing, want)
		}
		if i%2 == 1 && q.Need != j.Queries[i-1].Need && !semantic.InFirstSet(q) {
			t.Errorf("%s: need %q is not its pair's (%q)", q.ID, q.Need, j.Queries[i-1].Need)
		}
		if !semantic.InFirstSet(q) && q.Reason == "" {
			t.Errorf("%s: an added query says why its rule is right (reason)", q.ID)
		}
	}
	scores, err := semantic.Evaluate(context.Background(), s, j)
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + semantic.Table(scores))
	t.Log("first set:\n" + semantic.Table(semantic.Where(scores, semantic.InFirstSet)))
	t.Log("added:\n" + semantic.Table(semantic.Where(scores, func(q semantic.JudgedQuery) bool { return !semantic.InFirstSet(q) })))
	by := map[string]semantic.ModeScore{}
	for _, sc := range scores {
		by[sc.Mode] = sc
		t.Logf("%s worst: %v", sc.Mode, sc.Worst)
	}
	for _, qs := range scores[0].PerQuery {
		switch {
		case qs.Relevant >= 2:
		case semantic.InFirstSet(qs.Query):
			// kept as first judged (q56 has 1); its rule is not edited
			// after systems ran on it
			t.Logf("%s: %d relevant notice(s)", qs.Query.ID, qs.Relevant)
		default:
			t.Errorf("%s: %d relevant notice(s); a need with fewer than 2 is not a good query", qs.Query.ID, qs.Relevant)
		}
	}
	kw, hy := by[semantic.ModeKeyword], by[semantic.ModeHybrid]
	if hy.NDCG <= kw.NDCG || hy.Recall <= kw.Recall {
		t.Errorf("hybrid (recall %.3f, nDCG %.3f) does not beat keyword (recall %.3f, nDCG %.3f)", hy.Recall, hy.NDCG, kw.Recall, kw.NDCG)
	}
	for _, p := range semantic.Phrasings {
		if h, k := hy.ByPhrasing[p][1], kw.ByPhrasing[p][1]; h < k {
			t.Errorf("%s-phrased half: hybrid nDCG@10 %.3f is below keyword's %.3f", p, h, k)
		}
	}
	// the shipped ranking's figure (issue 50 item 6, docs/benchmarks.md
	// "Search quality"): a change that lowers it fails here
	if hy.NDCG < JudgedHybridFloor {
		t.Errorf("hybrid nDCG@10 %.5f fell below %.3f, the shipped ranking's", hy.NDCG, JudgedHybridFloor)
	}
	// on the added queries too (q61-q132): hybrid above keyword overall
	// and not below it on either half (issue 36's target, met since the
	// hybrid ranking of issue 50: 0.920 against 0.910 on their
	// keyword-phrased half)
	held := semantic.Where(scores, func(q semantic.JudgedQuery) bool { return !semantic.InFirstSet(q) })
	hby := map[string]semantic.ModeScore{}
	for _, sc := range held {
		hby[sc.Mode] = sc
	}
	hkw, hhy := hby[semantic.ModeKeyword], hby[semantic.ModeHybrid]
	if hhy.NDCG <= hkw.NDCG {
		t.Errorf("held-out queries: hybrid nDCG@10 %.3f does not beat keyword's %.3f", hhy.NDCG, hkw.NDCG)
	}
	for _, p := range semantic.Phrasings {
		if h, k := hhy.ByPhrasing[p][1], hkw.ByPhrasing[p][1]; h < k {
			t.Errorf("added queries' %s-phrased half: hybrid nDCG@10 %.3f is below keyword's %.3f", p, h, k)
		}
	}
}

func titles(res search.Result) []string {
	var out []string
	for _, h := range res.Hits {
		out = append(out, h.Notice.Title)
	}
	return out
}

// Vectors missing from an index (written before vectors existed, or lost
// with a process that stopped before its last vector write) are made again
// by Backfill, and only those.
func TestBackfillCompletesMissingVectors(t *testing.T) {
	ctx := context.Background()
	be := ownSample(t)
	count := func() int {
		tot, err := search.TotalsOf(ctx, be, semantic.NoticeVectorKind, search.RecordQuery{}, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		return tot.Count
	}
	held := count()
	page, err := search.Find(ctx, be, semantic.NoticeVectorKind, search.RecordQuery{Sort: search.RecordSortID, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, v := range page.Items {
		ids = append(ids, v.RequestID)
	}
	if err := search.Delete(ctx, be, semantic.NoticeVectorKind, ids); err != nil {
		t.Fatal(err)
	}
	if count() != held-100 {
		t.Fatalf("%d vectors after deleting 100 of %d", count(), held)
	}
	s := semantic.New(be, time.Now)
	n, err := s.Backfill(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n != 100 || count() != held || s.Index.Len() > held-1 {
		t.Fatalf("backfill wrote %d; %d vector records held (index %d), want %d", n, count(), s.Index.Len(), held)
	}
	if n, err := s.Backfill(ctx); err != nil || n != 0 {
		t.Fatalf("a second backfill wrote %d (%v), want none", n, err)
	}
	// the notices with no word the model knows hold a record without a
	// vector: they count as read, so a later start reads no notice again
	notices, err := be.Search(ctx, search.Query{Limit: 1, ExactCount: true})
	if err != nil {
		t.Fatal(err)
	}
	wordless, err := search.TotalsOf(ctx, be, semantic.NoticeVectorKind, search.RecordQuery{Keys: map[string][]string{"vector": {"none"}}}, nil, 0)
	if err != nil || wordless.Count == 0 || count() != notices.Total || s.Index.Len() != notices.Total-wordless.Count {
		t.Fatalf("%d notices, %d vector records, %d without a vector (%v), %d vectors in the index", notices.Total, count(), wordless.Count, err, s.Index.Len())
	}
	reads := &countingReader{Reader: be}
	again := semantic.New(be, time.Now)
	again.Reader = reads
	if n, err := again.Backfill(ctx); err != nil || n != 0 || reads.searches != 1 {
		t.Fatalf("a start's backfill wrote %d (%v) after %d searches, want none after the one count", n, err, reads.searches)
	}
}

// countingReader counts the notice searches made through it.
type countingReader struct {
	search.Reader
	searches int
}

func (c *countingReader) Search(ctx context.Context, q search.Query) (search.Result, error) {
	c.searches++
	return c.Reader.Search(ctx, q)
}

// ownSample is the bundled sample loaded through the indexer into an
// embedded index of the test's own, closed when it ends.
func ownSample(t *testing.T) *embedded.Backend {
	t.Helper()
	be, err := embedded.Open(filepath.Join(t.TempDir(), "index"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { be.Close() })
	ix := &indexer.Indexer{Backend: be, Crosswalk: entity.DefaultCrosswalk(), Now: time.Now, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if _, err := ix.LoadCROLDir(context.Background(), os.DirFS(filepath.Join(root, "testdata", "sample")), "crol"); err != nil {
		t.Fatal(err)
	}
	return be
}

// Hybrid search reads how a query is worded from the titles of its best
// keyword matches and says so in its scope: "traffic signal maintenance"
// is in those titles' words (keyword ranking first, the title counting),
// "police burning confiscated vapes" is not (semantic ranking first, with
// a keyword search widened by its best matches' titles). Each finds a
// notice of its need first (the second where keyword search finds none in
// its first 10); a semantic search's scope states no weighting.
func TestHybridReadsHowTheQueryIsWorded(t *testing.T) {
	s, _ := service(t)
	ctx := context.Background()
	for _, c := range []struct {
		q, note, title string
		within         int  // a notice whose title holds title at this index or before
		keywordMisses  bool // keyword search has none in its first 10
	}{
		{"traffic signal maintenance", "semantic.fusion_title_words", "traffic signal", 0, false},
		{"police burning confiscated vapes", "semantic.fusion_other_words", "cigarette", 0, true},
	} {
		res, err := s.Search(ctx, search.Query{Text: c.q, Limit: 10}, semantic.ModeHybrid)
		if err != nil {
			t.Fatal(err)
		}
		sem := res.Scope.Searched.Semantic
		var keys []string
		for _, n := range sem.NoteKeys {
			keys = append(keys, n.Key)
		}
		if !slices.Contains(keys, c.note) || !strings.Contains(sem.Note, "titles of") {
			t.Errorf("%q: notes %v (%q), want %s", c.q, keys, sem.Note, c.note)
		}
		found := slices.IndexFunc(res.Hits, func(h search.Hit) bool {
			return strings.Contains(strings.ToLower(h.Notice.Title), c.title)
		})
		if found < 0 || found > c.within {
			t.Errorf("%q: no %s notice in the first %d: %v", c.q, c.title, c.within+1, titles(res))
		}
		if c.keywordMisses {
			res, err := s.Search(ctx, search.Query{Text: c.q, Limit: 10}, semantic.ModeKeyword)
			if err != nil {
				t.Fatal(err)
			}
			if slices.ContainsFunc(res.Hits, func(h search.Hit) bool { return strings.Contains(strings.ToLower(h.Notice.Title), c.title) }) {
				t.Errorf("%q: keyword search finds a %s notice too; the case no longer shows hybrid's gain", c.q, c.title)
			}
		}
		res, err = s.Search(ctx, search.Query{Text: c.q, Limit: 10}, semantic.ModeSemantic)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(res.Scope.Searched.Semantic.Note, "titles of") {
			t.Errorf("%q: a semantic search states a fusion weighting: %q", c.q, res.Scope.Searched.Semantic.Note)
		}
	}
}
