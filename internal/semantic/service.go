package semantic

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Search modes.
const (
	ModeKeyword  = "keyword"  // the engine's BM25 ranking (the default)
	ModeSemantic = "semantic" // nearest notice vectors to the query's vector
	ModeHybrid   = "hybrid"   // keyword and semantic rankings fused (RRF)
)

// Modes lists the accepted search modes.
var Modes = []string{ModeKeyword, ModeSemantic, ModeHybrid}

// Ranking bounds.
const (
	// Candidates is how many nearest notices semantic search asks the
	// engine for among the notices the query's filters match (nearFilter:
	// applied inside the nearest-neighbour search); the engine then
	// applies every filter to them again, with the ones the vectors do not
	// carry (exclusions, PIN prefixes, due and event dates).
	Candidates = 1000
	// MinSimilarity is the cosine below which a notice is not a semantic
	// match: unrelated text scores below it (chosen on the judged set,
	// testdata/relevance), so a query about nothing held finds nothing.
	MinSimilarity = 0.30
	// FusionK is reciprocal rank fusion's constant: a notice's hybrid score
	// is the sum over the two rankings of 1/(FusionK + rank).
	FusionK = 60
	// Ranked is how deep each ranking is read for hybrid fusion, and the
	// most results a semantic or hybrid search pages through.
	Ranked = 200
)

// Service answers notice searches in every mode. Keyword search is the
// engine's; semantic and hybrid read the vector index and have the engine
// apply the query's filters (Query.RequestIDs), so a filter, a lens and a
// scope mean the same in every mode.
type Service struct {
	Reader  search.Reader
	Records search.Records // nil: keyword only
	Model   *Model
	// Index is the exact scan: the reference of the engine's approximate
	// index in tests, and how Backfill finds the notices without a vector.
	Index *Index
	Now   func() time.Time
	held  heldCount
}

// heldCount is how many vectors the engine holds, asked at most every
// SyncEvery (a scope states it).
type heldCount struct {
	mu       sync.Mutex
	read     int // notices read: with a vector, or none for want of a known word
	wordless int // of which without one
	checked  time.Time
}

// count is how many notices the vector records say were read, and how
// many of them hold no vector (no word the model knows).
func (h *heldCount) count(ctx context.Context, rs search.Records, now time.Time) (read, wordless int, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.checked.IsZero() && now.Sub(h.checked) < SyncEvery && now.After(h.checked) {
		return h.read, h.wordless, nil
	}
	t, err := search.TotalsOf(ctx, rs, NoticeVectorKind, search.RecordQuery{Keys: vectorKeys()}, []string{keyVector}, 0)
	if err != nil {
		return 0, 0, err
	}
	h.read, h.wordless, h.checked = t.Count, 0, now
	for _, b := range t.Groups[keyVector] {
		if b.Value == vectorNone {
			h.wordless = b.Count
		}
	}
	return h.read, h.wordless, nil
}

func (h *heldCount) forget() {
	h.mu.Lock()
	h.checked = time.Time{}
	h.mu.Unlock()
}

// New is a Service over an engine: semantic modes when it holds records
// and the bundled model reads.
func New(e search.NoticesAndRecords, now func() time.Time) *Service {
	s := &Service{Reader: e, Index: &Index{}, Now: now}
	if m, err := Default(); err == nil {
		s.Records, s.Model = e, m
	}
	if s.Now == nil {
		s.Now = time.Now
	}
	return s
}

// CheckMode is the one check of a mode parameter ("" is keyword).
func CheckMode(mode string) (string, error) {
	if mode == "" {
		return ModeKeyword, nil
	}
	if !slices.Contains(Modes, mode) {
		return "", record.InvalidNote("mode", "param.search.mode", strings.Join(Modes, ", "))
	}
	return mode, nil
}

// Search runs q in mode. Semantic and hybrid rank by relevance only, need
// words to compare and count no facets; their results are the best Ranked
// notices, paged by an offset cursor.
func (s *Service) Search(ctx context.Context, q search.Query, mode string) (search.Result, error) {
	mode, err := CheckMode(mode)
	if err != nil {
		return search.Result{}, err
	}
	if mode == ModeKeyword {
		return s.Reader.Search(ctx, q)
	}
	k, err := q.Normalize()
	if err != nil {
		return search.Result{}, err
	}
	switch {
	case k.Empty():
		return search.Result{}, record.InvalidNote("q", "param.search.mode_words", mode)
	case q.Sort != search.SortRelevance:
		return search.Result{}, record.InvalidNote("sort", "param.search.mode_sort", mode)
	case q.Facets:
		return search.Result{}, record.InvalidNote("facets", "param.search.mode_facets")
	case len(q.RequestIDs) > 0:
		return search.Result{}, record.InvalidNote("request_id", "param.search.mode_request_id", mode)
	}
	if s.Records == nil || s.Model == nil {
		return search.Result{}, &record.Error{Code: record.EUNAVAILABLE, Message: "semantic search is not available on this engine"}
	}
	offset, err := decodeOffset(q.Cursor)
	if err != nil {
		return search.Result{}, err
	}
	read, wordless, err := s.held.count(ctx, s.Records, s.Now())
	if err != nil {
		return search.Result{}, err
	}
	held := read - wordless
	sem, filtered, err := s.semantic(ctx, q, k)
	if err != nil {
		return search.Result{}, err
	}
	ranked, lexical := sem, false
	if mode == ModeHybrid {
		kq := q
		kq.Cursor, kq.Limit, kq.IDsOnly = "", search.MaxLimit, true
		var kw []search.Hit
		for len(kw) < Ranked {
			res, err := s.Reader.Search(ctx, kq)
			if err != nil {
				return search.Result{}, err
			}
			kw = append(kw, res.Hits...)
			if res.NextCursor == "" || len(res.Hits) == 0 {
				break
			}
			kq.Cursor = res.NextCursor
		}
		if ranked, lexical, err = s.hybrid(ctx, q, k, kw, sem); err != nil {
			return search.Result{}, err
		}
	}
	out := search.Result{Total: len(ranked), Scope: filtered.Scope, Hits: []search.Hit{}}
	if offset < len(ranked) {
		end := min(len(ranked), offset+q.Limit)
		if out.Hits, err = s.notices(ctx, ranked[offset:end], q.Brief); err != nil {
			return search.Result{}, err
		}
		if end < len(ranked) {
			out.NextCursor = encodeOffset(end)
		}
	}
	searched := q.Searched(k)
	searched.Semantic = s.describe(mode, held, lexical)
	if held := searched.Semantic.VectorsHeld; held < out.Scope.RecordsInCorpus {
		searched.Semantic.NoteKeys = append(searched.Semantic.NoteKeys, record.N("semantic.vectors_partial", held, out.Scope.RecordsInCorpus, wordless))
		searched.Semantic.Note = searched.Semantic.NoteKeys.Clauses("en")
	}
	out.Scope.Searched = searched
	out.Scope.Matched, out.Scope.MatchedRelation = out.Total, "" // at most Ranked: always exact
	out.Scope.TypeAbsence()                                      // the count changed: the empty answer's type follows
	return out, nil
}

// semantic is the nearest notices to q's words that pass q's filters, best
// first (at most Ranked), and the last filter result (for its scope).
func (s *Service) semantic(ctx context.Context, q search.Query, k search.Keywords) ([]search.Hit, search.Result, error) {
	words := append(slices.Clone(k.Terms), k.Phrases...)
	var filtered search.Result
	vec, ok := s.Model.Embed(strings.Join(words, " "))
	var near []search.Near
	if ok {
		var err error
		nq := search.NearQuery{Kind: NoticeVectorKind.Name, Vector: vec, K: Candidates, MinScore: MinSimilarity, Filter: nearFilter(q)}
		if near, err = s.Records.NearestRecords(ctx, nq); err != nil {
			return nil, filtered, err
		}
	}
	score := make(map[string]float32, len(near))
	for _, n := range near {
		score[n.ID] = n.Score
	}
	fq := q
	fq.Text, fq.Cursor, fq.Sort, fq.Limit, fq.IDsOnly = exclusionsOnly(k), "", search.SortNewest, search.MaxLimit, true
	var hits []search.Hit
	// the engine applies every filter (lens, agency, dates, exclusions …)
	// to the candidates, a page of ids at a time; with no candidate it is
	// still asked (no id matches) so the scope is the engine's own
	for start := 0; start == 0 || start < len(near); start += search.MaxLimit {
		end := min(len(near), start+search.MaxLimit)
		ids := make([]string, 0, end-start)
		for _, n := range near[start:end] {
			ids = append(ids, n.ID)
		}
		if len(ids) == 0 {
			ids = []string{"\x00none"}
		}
		fq.RequestIDs = ids
		res, err := s.Reader.Search(ctx, fq)
		if err != nil {
			return nil, res, err
		}
		filtered = res
		for _, h := range res.Hits {
			h.Score = float64(score[h.Notice.RequestID])
			hits = append(hits, h)
		}
		if len(hits) >= Ranked {
			break
		}
	}
	slices.SortFunc(hits, byScore)
	if len(hits) > Ranked {
		hits = hits[:Ranked]
	}
	return hits, filtered, nil
}

// notices are the page's hits with their notices (brief ones when the
// query asked for them, Query.Brief): the rankings are of ids
// (Query.IDsOnly), and only the page shown is read. A notice gone since
// (deleted between the two reads) is left out.
func (s *Service) notices(ctx context.Context, page []search.Hit, brief bool) ([]search.Hit, error) {
	out := []search.Hit{}
	if len(page) == 0 {
		return out, nil
	}
	ids := make([]string, len(page))
	for i, h := range page {
		ids[i] = h.Notice.RequestID
	}
	res, err := s.Reader.Search(ctx, search.Query{RequestIDs: ids, Sort: search.SortNewest, Limit: len(ids), Brief: brief})
	if err != nil {
		return nil, err
	}
	byID := make(map[string]record.Notice, len(res.Hits))
	for _, h := range res.Hits {
		byID[h.Notice.RequestID] = h.Notice
	}
	for _, h := range page {
		if n, ok := byID[h.Notice.RequestID]; ok {
			h.Notice = n
			out = append(out, h)
		}
	}
	return out, nil
}

// nearFilter is what of q's filters the notice vectors carry (the keys,
// source, date and amount of NoticeVectorKind's records), as the filter of
// the nearest-neighbour search: notice fields as exact values, the
// publication days as the instants they span in New York, amounts as
// valid amounts within the bounds.
func nearFilter(q search.Query) search.RecordQuery {
	f := search.RecordQuery{Sources: q.Sources, Keys: map[string][]string{}}
	for name, vs := range map[string][]string{
		keyLenses: q.Lenses, keySection: q.Sections, keyNoticeType: q.NoticeTypes,
		search.KeyAgencyID: q.AgencyIDs, search.KeyVendorStem: q.VendorStems, keyPIN: q.PINs,
	} {
		if len(vs) > 0 {
			f.Keys[name] = vs
		}
	}
	if !q.From.IsZero() {
		f.From = search.DayStart(q.From)
	}
	if !q.To.IsZero() {
		f.To = search.DayEnd(q.To)
	}
	f.MinAmount, f.MaxAmount, f.ValidAmountOnly = q.MinAmount, q.MaxAmount, q.ValidAmountOnly
	return f
}

// ranking is one ranking to fuse and its weight.
type ranking struct {
	hits   []search.Hit
	weight float64
}

// fuse is weighted reciprocal rank fusion: each notice scores the sum of
// weight/(FusionK+rank) over the rankings it is in (hybrid.go chooses the
// rankings and weights).
func fuse(rankings []ranking) []search.Hit {
	score := map[string]float64{}
	first := map[string]search.Hit{}
	for _, r := range rankings {
		for i, h := range r.hits {
			id := h.Notice.RequestID
			score[id] += r.weight / float64(FusionK+i+1)
			if _, ok := first[id]; !ok {
				first[id] = h
			}
		}
	}
	out := make([]search.Hit, 0, len(first))
	for id, h := range first {
		h.Score = score[id]
		out = append(out, h)
	}
	slices.SortFunc(out, byScore)
	if len(out) > Ranked {
		out = out[:Ranked]
	}
	return out
}

// exclusionsOnly is a keyword string of q's exclusions alone.
func exclusionsOnly(k search.Keywords) string {
	var b strings.Builder
	for _, e := range k.Excluded {
		if strings.ContainsRune(e, ' ') {
			fmt.Fprintf(&b, "-%q ", e)
		} else {
			fmt.Fprintf(&b, "-%s ", e)
		}
	}
	return strings.TrimSpace(b.String())
}

// describe is what a semantic or hybrid scope states of its method.
func (s *Service) describe(mode string, held int, lexical bool) *record.SemanticSearched {
	d := &record.SemanticSearched{
		Mode: mode, Model: ModelName, VectorsHeld: held, Candidates: Candidates, MinSimilarity: MinSimilarity,
		NoteKeys: record.Notes{record.N("semantic.ranked"), record.N("semantic.filters"), record.N("semantic.at_most", Ranked)},
	}
	d.Note = d.NoteKeys.Clauses("en")
	if mode == ModeHybrid {
		f := record.N("semantic.fusion", FusionK, Ranked)
		d.Fusion, d.FusionKey = f.String(), &f
		if lexical {
			d.NoteKeys = append(d.NoteKeys, record.N("semantic.fusion_title_words", MinorWeight, TitleHead))
		} else {
			d.NoteKeys = append(d.NoteKeys, record.N("semantic.fusion_other_words", MinorWeight, ExpansionTop))
		}
		d.Note = d.NoteKeys.Clauses("en")
	}
	return d
}

const offsetPrefix = "o:"

func encodeOffset(n int) string { return offsetPrefix + strconv.Itoa(n) }

func decodeOffset(c string) (int, error) {
	if c == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(strings.TrimPrefix(c, offsetPrefix))
	if err != nil || !strings.HasPrefix(c, offsetPrefix) || n < 0 || n > Ranked {
		return 0, record.InvalidNote("cursor", "param.search.cursor_other")
	}
	return n, nil
}
