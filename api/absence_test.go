package api

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/absencetest"
	"github.com/recordwatch/recordwatch/internal/record"
)

// impossible are the queries a route is asked what nothing matches with,
// the first it answers taken: a word no record holds (with the lens feeds
// require), a name, vendor, body, agency or title none has, a date range
// before anything held; for a path parameter, an id no record has.
var impossible = []string{"q=zzzqqqxyzzy", "lens=money&q=zzzqqqxyzzy", "kind=vendor&name=zzzqqqxyzzy", "name=zzzqqqxyzzy",
	"vendor=zzzqqqxyzzy", "body=zzzqqqxyzzy", "title=zzzqqqxyzzy", "agency=zzzqqqxyzzy", "from=2001-01-01&to=2001-01-02", ""}

// Every GET route of the route table, asked what nothing matches, either
// answers something, an error, or an empty answer that says why (typed
// absence, one rule): none answers an untyped empty list. Routes that
// read one record by id answer 404 (ENOTFOUND); pages and calendars are
// read through their JSON twins.
//
// It runs with City Record fresh, failing upstream and stale; the land
// projects are never loaded in this corpus (not_ingested); a date range
// before anything held is outside_coverage whatever City Record's
// freshness, and one after it outside_coverage unless its live fetch
// fails (upstream_failing).
func TestEveryEmptyAnswerIsTyped(t *testing.T) {
	for _, c := range []struct {
		name     string
		receipts []record.Receipt
		want     string // the type of an empty notice search
	}{
		{"fresh", []record.Receipt{receipt("crol", fixedNow.Add(-10*time.Minute), true)}, record.NoneFound},
		{"failing", []record.Receipt{receipt("crol", fixedNow.Add(-30*time.Minute), true), receipt("crol", fixedNow.Add(-5*time.Minute), false)}, record.UpstreamFailing},
		{"stale", []record.Receipt{receipt("crol", fixedNow.Add(-30*time.Hour), true)}, record.AbsentStale},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, _ := scheduledEnv(t, c.receipts...)
			walkEmptyAnswers(t, e)
			for path, want := range map[string]string{
				"/api/search?q=zzzqqqxyzzy":                 c.want,
				"/api/land-projects":                        record.NotIngested,
				"/api/search?from=2001-01-01&to=2001-01-02": record.OutsideCoverage, // before what is held, whatever its freshness
				"/api/search?q=zzzqqqxyzzy&from=2099-01-01": map[bool]string{true: record.UpstreamFailing, false: record.OutsideCoverage}[c.want == record.UpstreamFailing],
			} {
				_, body := get(t, e, path)
				var v struct {
					Scope record.Scope `json:"scope"`
				}
				if err := json.Unmarshal(body, &v); err != nil || v.Scope.Empty == nil || v.Scope.Empty.Type != want {
					t.Errorf("%s: %+v, want %s (%v)", path, v.Scope.Empty, want, err)
				}
			}
		})
	}
}

func walkEmptyAnswers(t *testing.T, e *env) {
	checked := 0
	for _, rt := range e.srv.router.Routes() {
		if rt.Method != http.MethodGet || strings.HasPrefix(rt.Path, "/static") || strings.HasPrefix(rt.Path, "/test/") {
			continue
		}
		path := rt.Path
		for _, seg := range strings.Split(rt.Path, "/") {
			if strings.HasPrefix(seg, ":") || strings.HasPrefix(seg, "*") {
				path = strings.Replace(path, seg, "zzzqqq-no-such-id", 1)
			}
		}
		var res *http.Response
		var body []byte
		for _, q := range impossible {
			if res, body = get(t, e, path+"?"+q); res.StatusCode == http.StatusOK {
				path += "?" + q
				break
			}
		}
		ct := res.Header.Get("Content-Type")
		switch {
		case res.StatusCode != http.StatusOK:
			continue // an error (a 404 for an id no record has, a 400 for a filter the route does not take)
		case strings.HasPrefix(ct, "application/json") || strings.HasPrefix(ct, "application/feed+json"):
			var v map[string]any
			if json.Unmarshal(body, &v) != nil {
				continue // not an object (a list of suggestions …)
			}
			checked++
			empty, typed := absencetest.Check(v)
			if empty && !typed {
				t.Errorf("GET %s answers an empty list without its type: %.300s", path, body)
			}
		case strings.Contains(ct, "atom") || strings.Contains(ct, "xml"):
			checked++
			if !strings.Contains(string(body), "<entry>") && !strings.Contains(string(body), "<rw:absence type=") {
				t.Errorf("GET %s: an empty Atom feed without rw:absence", path)
			}
		case strings.Contains(ct, "calendar"):
			checked++
			if !strings.Contains(string(body), "BEGIN:VEVENT") && !strings.Contains(string(body), "X-RECORDWATCH-ABSENCE") {
				t.Errorf("GET %s: an empty calendar without X-RECORDWATCH-ABSENCE", path)
			}
		}
	}
	if checked < 15 {
		t.Errorf("only %d routes answered something to check", checked)
	}
}
