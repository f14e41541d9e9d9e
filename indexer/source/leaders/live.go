package leaders

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/recordwatch/recordwatch/internal/fetch"
	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/record"
)

// Endpoint is the SODA resource of the roster on NYC Open Data.
const Endpoint = "https://data.cityofnewyork.us/resource/t3jq-9nkf.json"

// DefaultPageSize is the rows asked for per request (the roster has a few
// hundred rows: one or two pages).
const DefaultPageSize = 1000

// Fetcher reads the roster live, paged with $limit/$offset in record_id
// order. The rows of one fetch are one release dated the day it was
// fetched (date kind "fetched": the API does not say when the publisher
// last changed a row). The zero value reads Endpoint with fetch.New().
type Fetcher struct {
	Client   *fetch.Client
	BaseURL  string // Endpoint when empty (tests point it at httptest)
	AppToken string
	PageSize int
	Now      func() time.Time
}

// Fetch reads every page. A page that fails fails the fetch: a partial
// roster would read as a release that lacks organizations. Row errors
// are rejected rows, with their reasons.
func (f *Fetcher) Fetch(ctx context.Context) (Batch, []error, error) {
	client := f.Client
	if client == nil {
		client = fetch.New()
	}
	base := f.BaseURL
	if base == "" {
		base = Endpoint
	}
	size := f.PageSize
	if size <= 0 {
		size = DefaultPageSize
	}
	now := time.Now
	if f.Now != nil {
		now = f.Now
	}
	header := http.Header{"Accept": {"application/json"}}
	if f.AppToken != "" {
		header.Set("X-App-Token", f.AppToken)
	}
	at := now()
	rel := people.Release{Dataset: Dataset, Date: at.In(record.NewYork).Format("2006-01-02"), DateKind: people.DateFetched, File: base}
	var rows []raw
	err := fetch.SODA{Client: client, URL: base, Query: url.Values{"$order": {"record_id"}}, Size: size, Header: header}.Each(ctx, func(p fetch.SODAPage) (int, error) {
		page, err := readJSON(p.Body)
		if err != nil {
			return 0, fmt.Errorf("page at offset %d: %w", p.Offset, err)
		}
		for i := range page {
			page[i].line = p.Offset + i + 1
		}
		rows = append(rows, page...)
		return len(page), nil
	})
	if err != nil {
		return Batch{}, nil, fmt.Errorf("leaders: %w", err)
	}
	out, merged, errs := Build(rows, rel, nil, map[string]bool{})
	for i := range out {
		out[i].ObservedAt = at
	}
	return Batch{Rows: out, Read: len(rows), Merged: merged}, errs, nil
}
