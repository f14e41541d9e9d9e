package crol

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"time"

	"github.com/recordwatch/recordwatch/internal/fetch"
	"github.com/recordwatch/recordwatch/internal/record"
)

// Endpoint is the SODA resource of City Record Online on NYC Open Data.
const Endpoint = "https://data.cityofnewyork.us/resource/dg92-zbpx.json"

// Page sizes: SODA 2.x answers at most 50,000 rows per request; 1,000 keeps
// each response small and each indexer batch short.
const (
	DefaultPageSize = 1000
	MaxPageSize     = 50000
)

// Fetcher reads dg92-zbpx live, page by page, ordered by Order and paged
// with $limit/$offset. The zero value fetches from Endpoint with a default
// fetch.Client.
type Fetcher struct {
	Client   *fetch.Client // nil: fetch.New()
	BaseURL  string        // Endpoint when empty (tests point it at httptest)
	AppToken string        // sent as X-App-Token when set
	PageSize int           // DefaultPageSize when 0, at most MaxPageSize
	// Order is the $order column list; "request_id" when empty. Paging
	// with $offset needs a total order; ":id" is the other safe choice.
	Order string
	// SinceField is the floating-timestamp column an incremental fetch
	// filters on ("start_date" when empty; ":updated_at" also catches rows
	// changed in place).
	SinceField string
	// Where is an extra SoQL predicate ANDed with the since-clause.
	Where string
	// Progress, when set, is called after each page with the number of
	// rows fetched so far.
	Progress func(done int)
	// Now stamps Row.ObservedAt (time.Now when nil).
	Now func() time.Time
}

// errStop ends Fetch early when an iterator's consumer stops.
var errStop = errors.New("crol: stop")

// Fetch reads every row (or, when since is not zero, every row whose
// SinceField is at or after since, New York time) and calls page once per
// non-empty page, in order. It stops at the first error from the server,
// from page, or from ctx, and returns the number of rows handed to page.
// Each row has Format FormatJSON, File = the page URL, AllColumns = true
// (a missing field is null at the source) and ObservedAt = fetch time.
func (f *Fetcher) Fetch(ctx context.Context, since time.Time, page func(rows []Row) error) (int, error) {
	client := f.Client
	if client == nil {
		client = fetch.New()
	}
	size := f.PageSize
	if size <= 0 {
		size = DefaultPageSize
	}
	size = min(size, MaxPageSize)
	base := f.BaseURL
	if base == "" {
		base = Endpoint
	}
	var header http.Header
	if f.AppToken != "" {
		header = http.Header{"X-App-Token": {f.AppToken}}
	}
	now := f.Now
	if now == nil {
		now = time.Now
	}
	q := url.Values{}
	q.Set("$order", orDefault(f.Order, "request_id"))
	if w := f.where(since); w != "" {
		q.Set("$where", w)
	}
	done := 0
	err := fetch.SODA{Client: client, URL: base, Query: q, Size: size,
		Header: mergeHeader(header, http.Header{"Accept": {"application/json"}})}.Each(ctx, func(p fetch.SODAPage) (int, error) {
		rows, errs := parseJSON(p.Body, p.URL)
		if len(errs) > 0 {
			return 0, fmt.Errorf("page at offset %d: %w", p.Offset, errors.Join(errs...))
		}
		at := now()
		for i := range rows {
			rows[i].ObservedAt = at
			rows[i].AllColumns = true
		}
		if len(rows) > 0 {
			if err := page(rows); err != nil {
				return 0, err
			}
			done += len(rows)
			if f.Progress != nil {
				f.Progress(done)
			}
		}
		return len(rows), nil
	})
	if err != nil {
		return done, fmt.Errorf("crol: %w", err)
	}
	return done, nil
}

// Pages is Fetch as an iterator: it yields each page, or a final error.
func (f *Fetcher) Pages(ctx context.Context, since time.Time) iter.Seq2[[]Row, error] {
	return func(yield func([]Row, error) bool) {
		_, err := f.Fetch(ctx, since, func(rows []Row) error {
			if !yield(rows, nil) {
				return errStop
			}
			return nil
		})
		if err != nil && !errors.Is(err, errStop) {
			yield(nil, err)
		}
	}
}

// where builds the $where predicate: Where AND SinceField >= 'since'.
func (f *Fetcher) where(since time.Time) string {
	var clause string
	if !since.IsZero() {
		clause = fmt.Sprintf("%s >= '%s'", orDefault(f.SinceField, "start_date"), since.In(record.NewYork).Format("2006-01-02T15:04:05"))
	}
	switch {
	case f.Where == "":
		return clause
	case clause == "":
		return f.Where
	}
	return "(" + f.Where + ") AND " + clause
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func mergeHeader(a, b http.Header) http.Header {
	out := http.Header{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}
