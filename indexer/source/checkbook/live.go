package checkbook

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/recordwatch/recordwatch/internal/fetch"
)

// Endpoint is the Checkbook NYC XML API.
const Endpoint = "https://www.checkbooknyc.com/api"

// MaxPageSize is the most records the API returns per call.
const MaxPageSize = 1000

// DefaultPace is the pause between two calls of one fetch.
const DefaultPace = 2 * time.Second

// Fetcher reads one type of data from the live API, page by page: the same
// request with records_from = 1, 1+size, 1+2·size … until record_count
// records were read or a page comes back short. The zero value needs only
// TypeOfData.
//
// The API's request schema has no sort element, so the order of a result
// is the server's. To keep pages from shifting under a long fetch, Window
// (when set) splits the fetch into date windows (each one request series
// with its own range criterion, e.g. issue_date for spending), every page
// is written under stable record ids (a page read twice replaces itself),
// and a window whose record_count changes between its pages is read again
// once.
type Fetcher struct {
	Client     *fetch.Client // nil: fetch.New() (retries 429 and 5xx with backoff)
	BaseURL    string        // Endpoint when empty (tests point it at httptest)
	TypeOfData string        // Contracts, Spending, Payroll …
	Criteria   []Criterion   // search criteria sent with every request
	Columns    []string      // response columns (nil: the API's defaults)
	PageSize   int           // records per call: MaxPageSize when 0, at most MaxPageSize
	// Pace is the pause before every call after the first (DefaultPace
	// when 0; negative: none). Sleep waits it out (tests inject a recorder).
	Pace  time.Duration
	Sleep func(ctx context.Context, d time.Duration) error
	// Window, when set, fetches one date range at a time: Field is the
	// range criterion, From and To the first and last day, Days the size
	// of a window.
	Window *Window
	// Now stamps the observation time of the answers (time.Now when nil).
	Now func() time.Time
}

// Window splits a fetch into date ranges of a range criterion.
type Window struct {
	Field    string
	From, To time.Time
	Days     int
}

// WindowField is the date criterion a fetch of typeOfData is windowed on:
// issue_date for spending, registration_date for contracts, pay_date for
// payroll ("" for other types).
func WindowField(typeOfData string) string {
	switch typeOfData {
	case TypeSpending:
		return "issue_date"
	case TypeContracts:
		return "registration_date"
	case TypePayroll:
		return "pay_date"
	}
	return ""
}

// Page is one answer of the live fetch.
type Page struct {
	Request    Request
	Response   *Response
	ObservedAt time.Time
}

func (f *Fetcher) sleep(ctx context.Context, d time.Duration) error {
	if f.Sleep != nil {
		return f.Sleep(ctx, d)
	}
	return fetch.SleepContext(ctx, d)
}

// Fetch runs the requests and calls page once per answer that holds
// transactions (read or rejected: a transaction that is not readable XML
// is in Response.Rejected and never fails its page), in order. It stops at the first error from the API (after
// the client's retries), from a failed status in an answer, from page or
// from ctx, and returns the number of transactions handed to page
// (rejected ones included).
func (f *Fetcher) Fetch(ctx context.Context, page func(Page) error) (int, error) {
	if f.TypeOfData == "" {
		return 0, fmt.Errorf("checkbook: a fetch needs a type of data")
	}
	windows := [][]Criterion{nil}
	if w := f.Window; w != nil && w.Field != "" && !w.From.IsZero() && !w.To.IsZero() {
		windows = nil
		days := max(w.Days, 1)
		for start := w.From; !start.After(w.To); start = start.AddDate(0, 0, days) {
			end := start.AddDate(0, 0, days-1)
			if end.After(w.To) {
				end = w.To
			}
			windows = append(windows, []Criterion{{Name: w.Field, Type: "range",
				Start: start.Format("2006-01-02"), End: end.Format("2006-01-02")}})
		}
	}
	total := 0
	calls := 0
	for _, extra := range windows {
		n, err := f.fetchWindow(ctx, extra, &calls, page)
		total += n
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

func (f *Fetcher) fetchWindow(ctx context.Context, extra []Criterion, calls *int, page func(Page) error) (int, error) {
	client := f.Client
	if client == nil {
		client = fetch.New()
	}
	base := f.BaseURL
	if base == "" {
		base = Endpoint
	}
	size := f.PageSize
	if size <= 0 || size > MaxPageSize {
		size = MaxPageSize
	}
	pace := f.Pace
	if pace == 0 {
		pace = DefaultPace
	}
	now := f.Now
	if now == nil {
		now = time.Now
	}
	criteria := append(append([]Criterion(nil), f.Criteria...), extra...)
	header := http.Header{"Content-Type": {"application/xml"}, "Accept": {"application/xml"}}
	n := 0
	for attempt := 0; ; attempt++ {
		done, count := 0, -1
		var moved error
		for from := 1; ; from += size {
			if *calls > 0 && pace > 0 {
				if err := f.sleep(ctx, pace); err != nil {
					return n, err
				}
			}
			*calls++
			req := Request{TypeOfData: f.TypeOfData, RecordsFrom: from, MaxRecords: size, Criteria: criteria, Columns: f.Columns}
			body, err := req.Marshal()
			if err != nil {
				return n, err
			}
			resp, err := client.Post(ctx, base, body, header)
			if err != nil {
				return n, fmt.Errorf("checkbook: records %d–%d: %w", from, from+size-1, err)
			}
			res, err := ParseResponse(resp.Body)
			if err != nil {
				return n, fmt.Errorf("checkbook: records %d–%d: %w", from, from+size-1, err)
			}
			if res.Status != "" && res.Status != "success" {
				return n, fmt.Errorf("checkbook: records %d–%d: the API answered %q: %v", from, from+size-1, res.Status, res.Messages)
			}
			if count >= 0 && res.RecordCount != count {
				moved = fmt.Errorf("checkbook: record_count changed from %d to %d during the fetch", count, res.RecordCount)
				break
			}
			count = res.RecordCount
			got := len(res.Transactions) + len(res.Rejected)
			if got > 0 {
				if err := page(Page{Request: req, Response: res, ObservedAt: now()}); err != nil {
					return n, err
				}
				n += got
			}
			done += got
			if got < size || done >= count {
				break
			}
		}
		if moved == nil {
			return n, nil
		}
		if attempt > 0 {
			return n, moved
		}
		// the result moved under us: read the window again (entries have
		// stable ids, so pages read twice replace themselves)
	}
}
