package payroll

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/fetch"
	"github.com/recordwatch/recordwatch/internal/record"
)

// Endpoint is the SODA resource of Citywide Payroll Data on NYC Open Data.
const Endpoint = "https://data.cityofnewyork.us/resource/k397-673e.json"

// Page sizes: SODA answers at most 50,000 rows per request.
const (
	DefaultPageSize = 1000
	MaxPageSize     = 50000
)

// Fetcher reads k397-673e live, page by page ($limit/$offset), ordered by
// the row id (":id", a total order, so pages do not overlap) and asking
// for it ($select=:id,*), so a row keeps its id across fetches.
type Fetcher struct {
	Client   *fetch.Client // nil: fetch.New()
	BaseURL  string        // Endpoint when empty (tests point it at httptest)
	AppToken string        // sent as X-App-Token when set
	PageSize int           // DefaultPageSize when 0, at most MaxPageSize
	// Where is a SoQL predicate (e.g. "fiscal_year='2024'"); empty: every
	// row.
	Where string
	// Progress, when set, is called after each page with the rows read so
	// far.
	Progress func(done int)
	// Now stamps the rows' observation time (time.Now when nil).
	Now func() time.Time
}

// Page is one answer: the rows that could be read, and each row that
// could not, with its reason (a bad row never fails its page).
type Page struct {
	URL        string
	Rows       []record.PayrollRow
	Rejected   []error
	Read       int // rows in the answer
	ObservedAt time.Time
}

// Fetch reads every row Where matches and calls page once per non-empty
// answer, in order. It stops at the first error from the server (after
// the client's retries), from an answer that is not a JSON array, from
// page or from ctx, and returns the number of rows read.
func (f *Fetcher) Fetch(ctx context.Context, page func(Page) error) (int, error) {
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
	header := http.Header{"Accept": {"application/json"}}
	if f.AppToken != "" {
		header.Set("X-App-Token", f.AppToken)
	}
	now := f.Now
	if now == nil {
		now = time.Now
	}
	q := url.Values{}
	q.Set("$select", ":id,*")
	q.Set("$order", ":id")
	if f.Where != "" {
		q.Set("$where", f.Where)
	}
	done := 0
	err := fetch.SODA{Client: client, URL: base, Query: q, Size: size, Header: header}.Each(ctx, func(sp fetch.SODAPage) (int, error) {
		p, err := ParseJSON(sp.Body, sp.URL, sp.Offset, now())
		if err != nil {
			return 0, err
		}
		if p.Read > 0 {
			if err := page(p); err != nil {
				return 0, err
			}
			done += p.Read
			if f.Progress != nil {
				f.Progress(done)
			}
		}
		return p.Read, nil
	})
	if err != nil {
		return done, fmt.Errorf("payroll: %w", err)
	}
	return done, nil
}

// ParseJSON reads a SODA answer: a JSON array of row objects whose values
// are strings (null fields left out). A row that is not an object, or that
// Row cannot read, is rejected with its position (offset+index+1) and
// reason; an answer that is not a JSON array is an error.
func ParseJSON(body []byte, u string, offset int, observed time.Time) (Page, error) {
	p := Page{URL: u, ObservedAt: observed}
	var raw []json.RawMessage
	if err := json.Unmarshal(bytes.TrimSpace(body), &raw); err != nil {
		return p, fmt.Errorf("payroll: the answer at offset %d is not a JSON array of rows: %w", offset, err)
	}
	p.Read = len(raw)
	seen := map[string]int{}
	for i, m := range raw {
		at := offset + i + 1
		var obj map[string]any
		if err := json.Unmarshal(m, &obj); err != nil || obj == nil {
			p.Rejected = append(p.Rejected, fmt.Errorf("payroll: row %d of the live answer rejected: not a JSON object", at))
			continue
		}
		fields := map[string]string{}
		for k, v := range obj {
			switch x := v.(type) {
			case string:
				fields[columnKey(k)] = x
			case float64:
				fields[columnKey(k)] = strconv.FormatFloat(x, 'f', -1, 64)
			case nil:
			default:
				fields[columnKey(k)] = fmt.Sprint(x)
			}
		}
		if k := strings.TrimSpace(fields[":id"]); k == "" {
			// the dataset answered without row ids: identical rows of one
			// answer stay apart by rank
			fields[":id"] = strings.TrimPrefix(hashID(fields, seen), "payroll:")
		}
		r, err := Row(fields, "", at, observed)
		if err != nil {
			p.Rejected = append(p.Rejected, fmt.Errorf("payroll: row %d of the live answer (%s) rejected: %w", at, fields[":id"], err))
			continue
		}
		r.Line = 0
		p.Rows = append(p.Rows, r)
	}
	return p, nil
}
