package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"testing"
)

// SODA pages with $limit/$offset in the query's order, keeps the caller's
// parameters and headers, and stops after a short page or at an error.
func TestSODAPagesUntilAShortPage(t *testing.T) {
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if q.Get("$order") != ":id" || r.Header.Get("X-App-Token") != "tok" || q.Get("$limit") != "2" {
			http.Error(w, "bad request "+r.URL.RawQuery, 400)
			return
		}
		seen = append(seen, q.Get("$offset"))
		off, _ := strconv.Atoi(q.Get("$offset"))
		n := min(2, max(0, 5-off)) // five rows in all
		fmt.Fprint(w, n)
	}))
	defer srv.Close()
	s := SODA{Client: New(), URL: srv.URL, Query: url.Values{"$order": {":id"}}, Size: 2, Header: http.Header{"X-App-Token": {"tok"}}}
	rows := 0
	err := s.Each(context.Background(), func(p SODAPage) (int, error) {
		n, _ := strconv.Atoi(string(p.Body))
		rows += n
		return n, nil
	})
	if err != nil || rows != 5 || fmt.Sprint(seen) != "[0 2 4]" {
		t.Fatalf("rows %d, offsets %v, err %v", rows, seen, err)
	}
	stop := errors.New("stop")
	if err := s.Each(context.Background(), func(SODAPage) (int, error) { return 0, stop }); !errors.Is(err, stop) {
		t.Errorf("the page's error is not returned: %v", err)
	}
	if err := (SODA{URL: srv.URL, Size: 0}).Each(context.Background(), nil); err == nil {
		t.Error("a page size of 0 is accepted")
	}
}
