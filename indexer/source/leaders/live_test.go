package leaders

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/fetch"
	"github.com/recordwatch/recordwatch/internal/people"
)

// The live fetch pages the SODA resource in record_id order and reads
// every row of the real v1.8.43 Socrata response (replayed by a local
// server, page by page) as one release dated the day it was fetched.
func TestFetchReplaysSODAPages(t *testing.T) {
	data, err := os.ReadFile("testdata/" + jsonName)
	if err != nil {
		t.Fatal(err)
	}
	var all []json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil {
		t.Fatal(err)
	}
	requests := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests++
		q := r.URL.Query()
		if q.Get("$order") != "record_id" || r.Header.Get("X-App-Token") != "tok" {
			http.Error(w, "bad query", http.StatusBadRequest)
			return
		}
		limit, _ := strconv.Atoi(q.Get("$limit"))
		offset, _ := strconv.Atoi(q.Get("$offset"))
		end := min(offset+limit, len(all))
		page := all[min(offset, len(all)):end]
		b, _ := json.Marshal(page)
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
	}))
	defer srv.Close()
	f := &Fetcher{Client: fetch.New(), BaseURL: srv.URL, AppToken: "tok", PageSize: 100,
		Now: func() time.Time { return time.Date(2026, 8, 22, 3, 0, 0, 0, time.UTC) }}
	b, errs, err := f.Fetch(context.Background())
	if err != nil || len(errs) != 0 {
		t.Fatalf("fetch: %v %v", err, errs)
	}
	if requests != 4 || b.Read != 307 || len(b.Rows) != 307+238 {
		t.Fatalf("requests %d, read %d, rows %d", requests, b.Read, len(b.Rows))
	}
	acs := byID(b.Rows)["NYC_GOID_000002"]
	// 03:00 UTC on Aug 22 is Aug 21 in New York
	if acs.Release.Date != "2026-08-21" || acs.Release.DateKind != people.DateFetched || acs.Release.AsOf() != "as fetched on 2026-08-21" || acs.ObservedAt.IsZero() {
		t.Fatalf("release of a live read: %+v", acs.Release)
	}
	if acs.Relation(people.RelPrincipalOfficer).Value != "Rebecca Jones Gaston" {
		t.Fatalf("ACS: %+v", acs)
	}

	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{"error":true}`)) }))
	defer failing.Close()
	if _, _, err := (&Fetcher{Client: fetch.New(), BaseURL: failing.URL}).Fetch(context.Background()); err == nil {
		t.Fatal("a page that is not rows must fail the fetch, not store a partial release")
	}
}
