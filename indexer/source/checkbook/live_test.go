package checkbook

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/fetch"
)

var fixedObserved = time.Date(2026, 8, 14, 16, 0, 0, 0, time.UTC)

// replay is a loopback stand-in for the Checkbook API that answers from the
// real documentation sample: it slices the sample's five pending-contract
// transactions into pages by records_from and max_records, echoing the
// request, so paging runs over real rows.
type replay struct {
	t        *testing.T
	mu       sync.Mutex
	requests []Request
	bodies   [][]byte
	header   []http.Header
	txs      []string // the real <transaction> elements
	count    int      // record_count to report; 0: len(txs)
	// fault answers instead when it returns a status.
	fault func(n int, req Request) (int, string)
}

func newReplay(t *testing.T) (*replay, *httptest.Server) {
	t.Helper()
	raw := string(readRaw(t, "contracts_pending_expense_citywide.response.xml"))
	// the real sample's bare & is what a documentation page shows; a live
	// answer encodes it, so the replay serves it encoded
	raw = strings.ReplaceAll(raw, "1&3", "1&amp;3")
	raw = strings.ReplaceAll(raw, "</original_amount&gt", "</original_amount>")
	r := &replay{t: t}
	for rest := raw; ; {
		i := strings.Index(rest, "<transaction>")
		if i < 0 {
			break
		}
		j := strings.Index(rest[i:], "</transaction>") + i + len("</transaction>")
		r.txs = append(r.txs, rest[i:j])
		rest = rest[j:]
	}
	if len(r.txs) != 5 {
		t.Fatalf("sample has %d transactions", len(r.txs))
	}
	srv := httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(srv.Close)
	return r, srv
}

func (r *replay) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	parsed, err := ParseRequest(body)
	r.mu.Lock()
	n := len(r.requests)
	r.requests = append(r.requests, parsed)
	r.bodies = append(r.bodies, body)
	r.header = append(r.header, req.Header.Clone())
	fault := r.fault
	count := r.count
	r.mu.Unlock()
	if req.Method != http.MethodPost || err != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	if fault != nil {
		if status, out := fault(n, parsed); status != 0 {
			w.WriteHeader(status)
			io.WriteString(w, out)
			return
		}
	}
	if count == 0 {
		count = len(r.txs)
	}
	from := max(parsed.RecordsFrom, 1) - 1
	to := min(from+parsed.MaxRecords, len(r.txs))
	var page []string
	if from < len(r.txs) {
		page = r.txs[from:to]
	}
	w.Header().Set("Content-Type", "application/xml")
	fmt.Fprintf(w, "<response><status><result>success</result></status><request_criteria>%s</request_criteria><result_records><record_count>%d</record_count><contract_transactions>%s</contract_transactions></result_records></response>",
		body, count, strings.Join(page, "\n"))
}

type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.d = append(s.d, d)
	s.mu.Unlock()
	return ctx.Err()
}

func newFetcher(srv *httptest.Server, rec *sleeps) *Fetcher {
	return &Fetcher{
		Client:     &fetch.Client{Sleep: rec.sleep, MaxRetries: 2},
		BaseURL:    srv.URL,
		TypeOfData: TypeContracts,
		Criteria:   []Criterion{{Name: "status", Type: "value", Value: "pending"}, {Name: "agency_code", Type: "value", Value: "850"}},
		PageSize:   2,
		Pace:       3 * time.Second,
		Sleep:      rec.sleep,
		Now:        func() time.Time { return fixedObserved },
	}
}

func TestFetchPagesRealRows(t *testing.T) {
	r, srv := newReplay(t)
	rec := &sleeps{}
	f := newFetcher(srv, rec)
	var got []string
	n, err := f.Fetch(context.Background(), func(p Page) error {
		rows, errs := NormalizeResponse(p.Response, "live", entity.DefaultCrosswalk(), p.ObservedAt)
		if len(errs) > 0 {
			return errs[0]
		}
		if len(rows.Payments) > 0 {
			t.Errorf("payments in a contracts answer: %+v", rows.Payments)
		}
		for _, e := range rows.Contracts {
			got = append(got, e.ID)
			if !e.ObservedAt.Equal(fixedObserved) || e.Status != "pending" {
				t.Errorf("contract %+v", e)
			}
		}
		return nil
	})
	if err != nil || n != 5 {
		t.Fatalf("fetched %d, %v", n, err)
	}
	// records_from pages through 1, 3, 5 with max_records 2; the criteria
	// go with every request
	var froms []int
	for i, q := range r.requests {
		froms = append(froms, q.RecordsFrom)
		if q.MaxRecords != 2 || q.TypeOfData != TypeContracts || q.Criterion("status") != "pending" || q.Criterion("agency_code") != "850" {
			t.Errorf("request %d: %+v", i, q)
		}
		if ct := r.header[i].Get("Content-Type"); ct != "application/xml" {
			t.Errorf("request %d: Content-Type %q", i, ct)
		}
		if !bytes.Contains(r.bodies[i], []byte("<type_of_data>Contracts</type_of_data>")) {
			t.Errorf("request body %s", r.bodies[i])
		}
	}
	if fmt.Sprint(froms) != "[1 3 5]" {
		t.Errorf("records_from %v", froms)
	}
	// gentle: a pause before every call but the first
	if fmt.Sprint(rec.d) != "[3s 3s]" {
		t.Errorf("pauses %v", rec.d)
	}
	if len(got) != 5 || got[0] != "checkbook:contract:CTR85020151424706:v52" {
		t.Errorf("entries %v", got)
	}
}

func TestFetchStopsAtRecordCountAndCapsPageSize(t *testing.T) {
	r, srv := newReplay(t)
	r.count = 3 // the source says 3 match: stop after them
	f := newFetcher(srv, &sleeps{})
	f.PageSize = 5000
	n, err := f.Fetch(context.Background(), func(Page) error { return nil })
	if err != nil || n != 5 {
		t.Fatalf("fetched %d, %v", n, err)
	}
	if len(r.requests) != 1 || r.requests[0].MaxRecords != MaxPageSize {
		t.Errorf("requests %+v", r.requests)
	}
}

func TestFetchRetriesAndFails(t *testing.T) {
	r, srv := newReplay(t)
	rec := &sleeps{}
	r.fault = func(n int, req Request) (int, string) {
		if n == 0 {
			return http.StatusServiceUnavailable, "busy"
		}
		return 0, ""
	}
	f := newFetcher(srv, rec)
	n, err := f.Fetch(context.Background(), func(Page) error { return nil })
	if err != nil || n != 5 {
		t.Fatalf("after a 503: %d, %v", n, err)
	}
	if len(r.requests) != 4 || r.requests[0].RecordsFrom != 1 || r.requests[1].RecordsFrom != 1 {
		t.Errorf("the failed page was not asked again: %+v", r.requests)
	}

	// a failure status in the answer stops the fetch with its message
	r2, srv2 := newReplay(t)
	r2.fault = func(n int, req Request) (int, string) {
		return 200, "<response><status><result>failure</result><messages><message><code>1003</code><description>Invalid criteria</description></message></messages></status></response>"
	}
	_, err = newFetcher(srv2, &sleeps{}).Fetch(context.Background(), func(Page) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "Invalid criteria") {
		t.Errorf("failure answer: %v", err)
	}
}

func TestFetchRereadsAWindowThatMoves(t *testing.T) {
	r, srv := newReplay(t)
	calls := 0
	r.fault = func(n int, req Request) (int, string) {
		calls++
		if calls == 2 { // from the third answer on, the source reports a new count
			r.mu.Lock()
			r.count = 6
			r.mu.Unlock()
		}
		return 0, ""
	}
	f := newFetcher(srv, &sleeps{})
	f.Window = &Window{Field: "received_date", From: time.Date(2021, 7, 27, 0, 0, 0, 0, time.UTC), To: time.Date(2021, 8, 18, 0, 0, 0, 0, time.UTC), Days: 31}
	n, err := f.Fetch(context.Background(), func(Page) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	// pages 1, 3 (count 5), 5 (count 6: moved), then the window again
	if len(r.requests) != 6 || r.requests[3].RecordsFrom != 1 || n < 5 {
		t.Errorf("window not read again: %d records, requests %+v", n, r.requests)
	}
	for _, q := range r.requests {
		if q.Criterion("received_date") != "2021-07-27" {
			t.Errorf("window criterion missing: %+v", q.Criteria)
		}
	}
}

// A live page holding a malformed transaction (a mismatched tag, in a copy
// of the real rows) keeps its other transactions; the bad one is rejected
// with its reason and still counts as read, so paging goes on through
// every record.
func TestFetchRejectsOneMalformedTransaction(t *testing.T) {
	r, srv := newReplay(t)
	r.txs[2] = strings.Replace(r.txs[2], "</purpose>", "</purpse>", 1)
	f := newFetcher(srv, &sleeps{})
	var ids []string
	var rejected []error
	n, err := f.Fetch(context.Background(), func(p Page) error {
		rows, errs := ReadResponse(p.Response, "live", p.ObservedAt)
		rejected = append(rejected, errs...)
		for _, e := range rows.Contracts {
			ids = append(ids, e.ID)
		}
		return nil
	})
	if err != nil || n != 5 || len(ids) != 4 || len(rejected) != 1 || len(r.requests) != 3 {
		t.Fatalf("fetched %d (%v): %d entries, rejected %v, %d requests", n, err, len(ids), rejected, len(r.requests))
	}
	if msg := rejected[0].Error(); !strings.Contains(msg, "transaction 1") || !strings.Contains(msg, "closed by </purpse>") {
		t.Errorf("rejection %q", msg)
	}
}
