package search

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"sync/atomic"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/recordwatch/recordwatch/internal/lru"
	"github.com/recordwatch/recordwatch/internal/record"
)

// Engine is what both engines are, and the one engine type main.go hands
// to every consumer: full text over notices and passages (Backend), typed
// records (Records), the notice aggregations the entity views read, and a
// generation. Services take the narrowest of these interfaces they use as
// a typed field; nothing probes an engine for an ability at run time.
type Engine interface {
	Backend
	Records
	NoticeAggregates
	BulkLoader
	// Generation counts the writes through this value: a response built
	// at one generation is current until it changes (the feed cache keys
	// on it). Writes by other processes do not change it.
	Generation() uint64
}

// NoticesAndRecords is what a topic service reading notices and typed
// records needs of an engine.
type NoticesAndRecords interface {
	Reader
	Records
}

// Response cache bounds (Cached).
const (
	// CacheEntries bounds the cached responses.
	CacheEntries = 1024
	// CacheBytes bounds their estimated size in memory.
	CacheBytes = 64 << 20
	// SharedEngineTTL bounds how long a response of an engine that other
	// processes may write to (OpenSearch: the indexer role, other api
	// replicas) is served from the cache: their writes do not bump this
	// process's generation.
	SharedEngineTTL = 10 * time.Second
	// cacheRunTimeout bounds one engine call that callers share.
	cacheRunTimeout = 30 * time.Second
)

// Cache is the response cache of notice and passage searches, in front of
// an engine: every surface (API, site, feeds, MCP, watches, digests) reads
// through it, so a repeated search — a polled feed, a popular query, the
// site's first page — is answered from memory.
//
// An entry is keyed by the normalized query (Query.Normalize, so "" and
// the default sort or limit are one key) and stamped with the index
// generation: a counter every write through this Cache bumps once it
// returns (Upsert, Delete, Observe, Refresh, PutRecords, DeleteRecords), so
// a search never answers from before a write it could see. A search that
// started before a write stores its answer under the old generation, where
// no later lookup finds it. Writes by another process are not seen: for an
// engine that others may write to (every engine but the embedded one, whose
// index is locked by one process), entries also expire after TTL.
//
// The cache holds at most MaxEntries responses and about MaxBytes (an
// estimate of their strings and slices), evicting the least recently used.
// Responses are copied in and out: a caller may change what it gets back
// without touching what others get. Errors are never cached. Safe for
// concurrent use. Every other method is the engine's own.
type Cache struct {
	Engine

	// TTL bounds an entry's age; 0 keeps it until a write or eviction.
	TTL        time.Duration
	MaxEntries int
	MaxBytes   int64
	// Now is the clock of TTL (time.Now when nil).
	Now func() time.Time

	gen          atomic.Uint64
	hits, misses atomic.Uint64

	group singleflight.Group

	entries lru.Cache[string, *cacheEntry]
}

type cacheEntry struct {
	gen    uint64
	stored time.Time
	val    any // Result or PassageResult, never handed out itself
}

// Cached wraps e in a response cache with the default bounds (CacheEntries,
// CacheBytes). shared says whether other processes write to e's indexes
// (OpenSearch: the indexer role, other api replicas): their writes do not
// bump this process's generation, so entries then expire after
// SharedEngineTTL.
func Cached(e Engine, shared bool) Engine {
	c := NewCache(e)
	if shared {
		c.TTL = SharedEngineTTL
	}
	return c
}

// NewCache wraps e in a response cache with the default bounds and no TTL.
func NewCache(e Engine) *Cache {
	return &Cache{Engine: e, MaxEntries: CacheEntries, MaxBytes: CacheBytes}
}

// Generation is the index generation: how many writes went through c.
func (c *Cache) Generation() uint64 { return c.gen.Load() }

// CacheStats counts lookups answered from the cache and sent on.
type CacheStats struct {
	Hits, Misses uint64
	Entries      int
	Bytes        int64
}

// Stats reports the cache's counters.
func (c *Cache) Stats() CacheStats {
	return CacheStats{Hits: c.hits.Load(), Misses: c.misses.Load(), Entries: c.entries.Len(), Bytes: c.entries.Bytes()}
}

// Search answers a notice query from the cache or the engine.
func (c *Cache) Search(ctx context.Context, q Query) (Result, error) {
	return cached(c, ctx, "n", q, Query.key, c.Engine.Search, cloneResult, resultSize)
}

// Passages answers a passage query from the cache or the engine.
func (c *Cache) Passages(ctx context.Context, q PassageQuery) (PassageResult, error) {
	return cached(c, ctx, "p", q, PassageQuery.key, c.Engine.Passages, clonePassageResult, passageResultSize)
}

// totalsRequest is one RecordTotals call as a cache key.
type totalsRequest struct {
	Q       RecordQuery
	GroupBy []string
	Size    int
}

func (r totalsRequest) key() string {
	err := r.Q.Normalize()
	return normalizedKey(err, r)
}

// RecordTotals answers from the cache or the engine. A browse's totals are
// the same on every page of it (the sort, limit and cursor are ignored),
// so at one generation only its first page has the engine sum the matches;
// the pages after it cost what a page costs.
func (c *Cache) RecordTotals(ctx context.Context, q RecordQuery, groupBy []string, size int) (Totals, error) {
	q.Limit, q.Cursor, q.Sort = 0, "", ""
	return cached(c, ctx, "t", totalsRequest{Q: q, GroupBy: groupBy, Size: size}, totalsRequest.key,
		func(ctx context.Context, r totalsRequest) (Totals, error) {
			return c.Engine.RecordTotals(ctx, r.Q, r.GroupBy, r.Size)
		},
		cloneTotals, totalsSize)
}

// noticeTotalsRequest is one NoticeTotals call as a cache key.
type noticeTotalsRequest struct {
	Q       Query
	GroupBy []string
	Size    int
}

func (r noticeTotalsRequest) key() string {
	_, err := r.Q.Normalize()
	return normalizedKey(err, r)
}

// NoticeTotals answers from the cache or the engine: a profile's totals
// (a vendor's, an agency's, a batch look-up's names) are summed once per
// generation.
func (c *Cache) NoticeTotals(ctx context.Context, q Query, groupBy []string, size int) (Totals, error) {
	q.Limit, q.Cursor, q.Facets, q.Sort = 0, "", false, ""
	return cached(c, ctx, "s", noticeTotalsRequest{Q: q, GroupBy: groupBy, Size: size}, noticeTotalsRequest.key,
		func(ctx context.Context, r noticeTotalsRequest) (Totals, error) {
			return c.Engine.NoticeTotals(ctx, r.Q, r.GroupBy, r.Size)
		},
		cloneTotals, totalsSize)
}

func cloneTotals(t Totals) Totals {
	if t.Groups != nil {
		g := make(map[string][]Bucket, len(t.Groups))
		for k, v := range t.Groups {
			g[k] = slices.Clone(v)
		}
		t.Groups = g
	}
	t.Other = maps.Clone(t.Other)
	return t
}

func totalsSize(t Totals) int64 {
	n := int64(128)
	for k, v := range t.Groups {
		n += int64(len(k)) + 64
		for _, b := range v {
			n += int64(len(b.Value)) + 48
		}
	}
	return n + int64(len(t.Other))*48
}

// key is the normalized form of q ("" when it does not normalize: the
// engine answers, and refuses, it).
func (q Query) key() string {
	_, err := q.Normalize()
	return normalizedKey(err, q)
}

func (q PassageQuery) key() string {
	_, err := q.Normalize()
	return normalizedKey(err, q)
}

// normalizedKey is the JSON of a normalized query, "" when it did not
// normalize (err) or does not encode.
func normalizedKey(err error, q any) string {
	if err != nil {
		return ""
	}
	b, err := json.Marshal(q)
	if err != nil {
		return ""
	}
	return string(b)
}

// cached answers q from the cache (a copy: clone) or runs it and keeps a
// copy of its answer. Concurrent misses of one query at one generation
// share one engine call (a popular query right after a write); each caller
// gets its own copy and may leave early (the call goes on, bounded by
// cacheRunTimeout, for the others).
func cached[Q, R any](c *Cache, ctx context.Context, kind string, q Q, key func(Q) string,
	run func(context.Context, Q) (R, error), clone func(R) R, size func(R) int64) (R, error) {
	var zero R
	k := key(q)
	if k == "" {
		return run(ctx, q)
	}
	k = kind + k
	gen := c.gen.Load()
	if v, ok := c.lookup(k, gen); ok {
		c.hits.Add(1)
		return clone(v.(R)), nil
	}
	ch := c.group.DoChan(strconv.FormatUint(gen, 10)+"@"+k, func() (any, error) {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cacheRunTimeout)
		defer cancel()
		res, err := run(rctx, q)
		if err != nil {
			return nil, err
		}
		cp := clone(res) // never handed out: every caller gets a copy of it
		c.store(k, gen, cp, size(res))
		return cp, nil
	})
	c.misses.Add(1) // after DoChan: a caller counted as a miss waits on the shared call
	select {
	case r := <-ch:
		if r.Err != nil {
			return zero, r.Err
		}
		return clone(r.Val.(R)), nil
	case <-ctx.Done():
		return zero, ctx.Err()
	}
}

func (c *Cache) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// lookup returns the entry for key (never to be handed out itself) if it
// belongs to generation gen and is within the TTL.
func (c *Cache) lookup(key string, gen uint64) (any, bool) {
	e, ok := c.entries.Get(key)
	if !ok {
		return nil, false
	}
	if e.gen != gen || (c.TTL > 0 && c.now().Sub(e.stored) >= c.TTL) {
		c.entries.Remove(key)
		return nil, false
	}
	return e.val, true
}

// store keeps v (a copy no caller holds) for key under generation gen,
// unless a write has happened since gen was read. (An answer stored while
// a write comes in carries the old generation, which lookup refuses.)
func (c *Cache) store(key string, gen uint64, v any, size int64) {
	size += int64(len(key)) + 128
	if c.MaxEntries <= 0 || c.MaxBytes <= 0 || size > c.MaxBytes/8 {
		return
	}
	if c.gen.Load() != gen {
		return // a write came in: this answer may be from before it
	}
	c.entries.Put(key, &cacheEntry{gen: gen, stored: c.now(), val: v}, size)
	c.entries.Trim(c.MaxEntries, c.MaxBytes)
}

// written bumps the generation after a write and drops every entry (none
// can be served any more).
func (c *Cache) written() {
	c.gen.Add(1)
	c.entries.Clear()
}

// Upsert writes through and bumps the generation.
func (c *Cache) Upsert(ctx context.Context, docs []Doc) error {
	defer c.written()
	return c.Engine.Upsert(ctx, docs)
}

// Delete writes through and bumps the generation.
func (c *Cache) Delete(ctx context.Context, requestIDs []string) error {
	defer c.written()
	return c.Engine.Delete(ctx, requestIDs)
}

// Observe writes through and bumps the generation.
func (c *Cache) Observe(ctx context.Context, o Observation) error {
	defer c.written()
	return c.Engine.Observe(ctx, o)
}

// Refresh makes writes visible and bumps the generation.
func (c *Cache) Refresh(ctx context.Context) error {
	defer c.written()
	return c.Engine.Refresh(ctx)
}

// PutRecords writes through and bumps the generation.
func (c *Cache) PutRecords(ctx context.Context, rs []Record) error {
	defer c.written()
	return c.Engine.PutRecords(ctx, rs)
}

// DeleteRecords writes through and bumps the generation.
func (c *Cache) DeleteRecords(ctx context.Context, kind string, ids []string) error {
	defer c.written()
	return c.Engine.DeleteRecords(ctx, kind, ids)
}

// cloneResult copies every slice and map of a notice result (strings are
// shared: they cannot change), so that a copy encodes as the original (nil
// stays nil, empty stays empty). TestCacheClonesEveryField fails when a
// field these clones do not copy is added.
func cloneResult(r Result) Result {
	out := r
	if r.Hits != nil {
		out.Hits = make([]Hit, len(r.Hits))
		for i, h := range r.Hits {
			h.Notice = cloneNotice(h.Notice)
			out.Hits[i] = h
		}
	}
	if r.Facets != nil {
		out.Facets = make(map[string][]FacetCount, len(r.Facets))
		for k, v := range r.Facets {
			out.Facets[k] = slices.Clone(v)
		}
	}
	out.Scope = cloneScope(r.Scope)
	return out
}

func cloneNotice(n record.Notice) record.Notice {
	n.Lenses = slices.Clone(n.Lenses)
	n.DocumentLinks = slices.Clone(n.DocumentLinks)
	n.Raw = maps.Clone(n.Raw)
	return n
}

func clonePassageResult(r PassageResult) PassageResult {
	out := r
	if r.Passages != nil {
		out.Passages = make([]PassageHit, len(r.Passages))
		for i, h := range r.Passages {
			h.Passage.Lenses = slices.Clone(h.Passage.Lenses)
			out.Passages[i] = h
		}
	}
	out.Scope = cloneScope(r.Scope)
	return out
}

func cloneScope(s record.Scope) record.Scope {
	s.Searched.Terms = slices.Clone(s.Searched.Terms)
	s.Searched.Phrases = slices.Clone(s.Searched.Phrases)
	s.Searched.Excluded = slices.Clone(s.Searched.Excluded)
	s.Searched.Lenses = slices.Clone(s.Searched.Lenses)
	s.Searched.Filters = maps.Clone(s.Searched.Filters)
	if s.Searched.Synonyms != nil {
		syn := make(map[string][]string, len(s.Searched.Synonyms))
		for k, v := range s.Searched.Synonyms {
			syn[k] = slices.Clone(v)
		}
		s.Searched.Synonyms = syn
	}
	if s.Searched.Semantic != nil {
		sem := *s.Searched.Semantic
		sem.NoteKeys = sem.NoteKeys.Clone()
		if sem.FusionKey != nil {
			f := sem.FusionKey.Clone()
			sem.FusionKey = &f
		}
		s.Searched.Semantic = &sem
	}
	s.SourceTypes = slices.Clone(s.SourceTypes)
	s.Sources = slices.Clone(s.Sources)
	for i := range s.Sources {
		s.Sources[i].Unread = slices.Clone(s.Sources[i].Unread)
		if n := s.Sources[i].FreshnessNoteKey; n != nil {
			c := n.Clone()
			s.Sources[i].FreshnessNoteKey = &c
		}
	}
	s.Absence = slices.Clone(s.Absence)
	s.AbsenceKeys = s.AbsenceKeys.Clone()
	s.NotFresh = slices.Clone(s.NotFresh)
	if s.Empty != nil {
		e := *s.Empty
		e.Sources = slices.Clone(e.Sources)
		e.NoteKey = e.NoteKey.Clone()
		s.Empty = &e
	}
	return s
}

// resultSize estimates the bytes an answer holds: its texts and a fixed
// share per hit and per scope.
func resultSize(r Result) int64 {
	n := int64(2048)
	for _, h := range r.Hits {
		x := h.Notice
		n += 512 + int64(len(x.Body)+len(x.Text)+len(x.Title)+len(x.AgencyRaw)+len(x.AgencyName)+len(x.VendorName)+
			len(x.VendorAddress)+len(x.EventPlace)+len(x.OfficialURL)+len(x.OpenDataURL))
		for _, l := range x.DocumentLinks {
			n += int64(len(l))
		}
	}
	for _, f := range r.Facets {
		n += int64(len(f)) * 48
	}
	return n
}

func passageResultSize(r PassageResult) int64 {
	n := int64(2048)
	for _, h := range r.Passages {
		n += 256 + int64(len(h.Passage.Text)+len(h.Passage.Title)+len(h.Passage.SourceURL))
	}
	return n
}

// EndBulk ends the engine's bulk load (BulkLoader) and bumps the
// generation: its indexes replace those read before.
func (c *Cache) EndBulk(ctx context.Context) error {
	defer c.written()
	return c.Engine.EndBulk(ctx)
}
