package api

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	ical "github.com/emersion/go-ical"
	"github.com/mmcdole/gofeed"
	atomparser "github.com/mmcdole/gofeed/atom"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/feed"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/store"
	"github.com/recordwatch/recordwatch/internal/view"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// feedCase is a feed request and the filter it must follow, written out by
// hand so the test does not reuse the handler's parsing.
type feedCase struct {
	params string
	filter func() watch.Filter
}

func amount(v float64) *float64 { return &v }

func agencyID(name string) string { return shared.srv.deps.Crosswalk.Resolve(name).ID }

var feedCases = []feedCase{
	{"lens=money", func() watch.Filter { return watch.Filter{Lens: "money"} }},
	{"lens=money&min=500000", func() watch.Filter { return watch.Filter{Lens: "money", MinAmount: amount(500000)} }},
	{"lens=money&min=0&agency=" + url.QueryEscape("Parks and Recreation"), func() watch.Filter {
		return watch.Filter{Lens: "money", MinAmount: amount(0), AgencyIDs: []string{agencyID("Parks and Recreation")}}
	}},
	{"lens=meetings", func() watch.Filter { return watch.Filter{Lens: "meetings"} }},
	{"lens=property", func() watch.Filter { return watch.Filter{Lens: "property"} }},
	{"lens=rules", func() watch.Filter { return watch.Filter{Lens: "rules"} }},
	{"lens=rules&q=" + url.QueryEscape(`hearing "public comment" -parking`), func() watch.Filter {
		return watch.Filter{Lens: "rules", AnyOf: []string{"hearing"}, Phrases: []string{"public comment"}, Exclude: []string{"parking"}}
	}},
	{"lens=land", func() watch.Filter { return watch.Filter{Lens: "land"} }},
	{"lens=people", func() watch.Filter { return watch.Filter{Lens: "people"} }},
	{"lens=people&agency=" + url.QueryEscape("DEPT. OF HOMELESS SERVICES"), func() watch.Filter {
		return watch.Filter{Lens: "people", AgencyIDs: []string{agencyID("DEPT. OF HOMELESS SERVICES")}}
	}},
	{"lens=entity&kind=vendor&name=" + url.QueryEscape("Dell Marketing, L.P."), func() watch.Filter {
		return watch.Filter{Lens: watch.LensEntity, Vendors: []string{"DELL MARKETING"}}
	}},
	{"lens=entity&kind=agency&name=" + url.QueryEscape("Housing Preservation and Development"), func() watch.Filter {
		return watch.Filter{Lens: watch.LensEntity, AgencyIDs: []string{agencyID("Housing Preservation and Development")}}
	}},
}

// expected runs the compiled query against the backend directly.
func expected(t *testing.T, f watch.Filter) search.Result {
	t.Helper()
	res, err := shared.be.Search(context.Background(), f.Compile(fixedNow))
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func noticeID(requestID string) string { return "tag:rw.test,2026:notice/" + requestID }

func parseFeed(t *testing.T, b []byte, wantType string) *gofeed.Feed {
	t.Helper()
	f, err := gofeed.NewParser().ParseString(string(b))
	if err != nil {
		t.Fatalf("gofeed: %v\n%.500s", err, b)
	}
	if f.FeedType != wantType {
		t.Fatalf("feed type %q, want %q", f.FeedType, wantType)
	}
	return f
}

func parseICS(t *testing.T, b []byte) *ical.Calendar {
	t.Helper()
	cal, err := ical.NewDecoder(bytes.NewReader(b)).Decode()
	if err != nil {
		t.Fatalf("go-ical: %v\n%.500s", err, b)
	}
	return cal
}

// jsonFeedDoc is the part of a JSON Feed gofeed does not read: extensions.
type jsonFeedDoc struct {
	Version   string `json:"version"`
	Extension struct {
		About   string     `json:"about"`
		ID      string     `json:"id"`
		Formats feed.Links `json:"formats"`
		feed.Scope
	} `json:"_recordwatch"`
	Items []struct {
		ID          string         `json:"id"`
		URL         string         `json:"url"`
		ExternalURL string         `json:"external_url"`
		ContentText string         `json:"content_text"`
		Extension   view.LinkedHit `json:"_recordwatch"`
	} `json:"items"`
}

// TestFeedsMatchBackend parses every lens's three feeds with third-party
// parsers and checks them against the backend's own results for the
// compiled filter: same ids in the same order, permalinks, official links,
// source dates, scope, and one calendar event per dated notice.
func TestFeedsMatchBackend(t *testing.T) {
	for _, fc := range feedCases {
		t.Run(fc.params, func(t *testing.T) {
			want := expected(t, fc.filter())
			if len(want.Hits) > watch.FeedLimit {
				t.Fatalf("backend returned %d hits", len(want.Hits))
			}
			var wantIDs []string
			for _, h := range want.Hits {
				wantIDs = append(wantIDs, noticeID(h.Notice.RequestID))
			}

			// Atom
			res, b := get(t, shared, "/feed.xml?"+fc.params)
			if res.StatusCode != 200 || res.Header.Get("Content-Type") != feed.ContentTypeAtom {
				t.Fatalf("atom: %d %s %s", res.StatusCode, res.Header.Get("Content-Type"), b)
			}
			atom := parseFeed(t, b, "atom")
			if len(atom.Items) != len(want.Hits) {
				t.Fatalf("atom: %d items, backend %d hits", len(atom.Items), len(want.Hits))
			}
			// gofeed's Atom parser keeps every link with its rel
			raw, err := (&atomparser.Parser{}).Parse(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			var gotIDs []string
			for i, it := range atom.Items {
				gotIDs = append(gotIDs, it.GUID)
				n := want.Hits[i].Notice
				rels := map[string]string{}
				for _, l := range raw.Entries[i].Links {
					rels[l.Rel] = l.Href
				}
				if it.Link != "http://rw.test/#notice/"+n.RequestID || rels["via"] != record.OfficialURL(n.RequestID) {
					t.Errorf("atom item %s links %q %v", it.GUID, it.Link, rels)
				}
				if it.PublishedParsed == nil || !it.PublishedParsed.Equal(n.StartDate) || it.UpdatedParsed == nil {
					t.Errorf("atom item %s published %v, source start date %v", it.GUID, it.PublishedParsed, n.StartDate)
				}
				if it.Title == "" || it.Description == "" || it.Content == "" {
					t.Errorf("atom item %s lacks title, summary or content", it.GUID)
				}
			}
			if !slices.Equal(gotIDs, wantIDs) {
				t.Errorf("atom ids\n got %v\nwant %v", gotIDs, wantIDs)
			}
			if atom.FeedLink == "" || !strings.Contains(atom.Description, "No search hits does not mean no record exists") ||
				!strings.Contains(atom.Description, "Corpus observed 2026-08-14") || atom.Copyright == "" {
				t.Errorf("atom feed metadata: self %q subtitle %q rights %q", atom.FeedLink, atom.Description, atom.Copyright)
			}
			scope := atom.Extensions["rw"]["scope"]
			if len(scope) != 1 || scope[0].Children["matched"][0].Value != fmt.Sprint(want.Total) ||
				len(scope[0].Children["absenceRule"]) != 4 || len(scope[0].Children["source"]) == 0 ||
				scope[0].Children["corpusObservedAt"][0].Value != "2026-08-14T00:00:00-04:00" {
				t.Errorf("atom rw:scope %+v", scope)
			}

			// JSON Feed
			res, b = get(t, shared, "/feed.json?"+fc.params)
			if res.StatusCode != 200 || res.Header.Get("Content-Type") != feed.ContentTypeJSON {
				t.Fatalf("json: %d %s", res.StatusCode, b)
			}
			jf := parseFeed(t, b, "json")
			gotIDs = nil
			for _, it := range jf.Items {
				gotIDs = append(gotIDs, it.GUID)
			}
			if !slices.Equal(gotIDs, wantIDs) {
				t.Errorf("json ids\n got %v\nwant %v", gotIDs, wantIDs)
			}
			doc := decode[jsonFeedDoc](t, b)
			if len(doc.Items) != len(want.Hits) {
				t.Fatalf("json: %d items, backend %d hits", len(doc.Items), len(want.Hits))
			}
			if doc.Version != "https://jsonfeed.org/version/1.1" || doc.Extension.Matched != want.Total ||
				doc.Extension.Items != len(want.Hits) || doc.Extension.Covers == "" || len(doc.Extension.AbsenceRules) != 4 ||
				!doc.Extension.CorpusObservedAt.Equal(want.Scope.CorpusObservedAt) || len(doc.Extension.Sources) == 0 ||
				doc.Extension.Formats.ICS == "" || doc.Extension.SearchURL == "" {
				t.Errorf("json _recordwatch %+v", doc.Extension)
			}
			for i, it := range doc.Items {
				n := want.Hits[i].Notice
				if it.URL != "http://rw.test/#notice/"+n.RequestID || it.ExternalURL != record.OfficialURL(n.RequestID) ||
					it.ContentText == "" || it.Extension.RequestID != n.RequestID {
					t.Errorf("json item %s: url %q external %q", it.ID, it.URL, it.ExternalURL)
				}
			}

			// iCalendar: one event per dated notice, in feed order
			res, b = get(t, shared, "/feed.ics?"+fc.params)
			if res.StatusCode != 200 || res.Header.Get("Content-Type") != feed.ContentTypeICS {
				t.Fatalf("ics: %d %s", res.StatusCode, b)
			}
			checkCRLF(t, b)
			cal := parseICS(t, b)
			var wantUIDs []string
			var wantStarts []time.Time
			for _, h := range want.Hits {
				n := h.Notice
				switch {
				case n.NoticeType == "Solicitation" && !n.DueDate.IsZero():
					wantUIDs, wantStarts = append(wantUIDs, n.RequestID+"-due@rw.test"), append(wantStarts, n.DueDate)
				case !n.EventDate.IsZero():
					wantUIDs, wantStarts = append(wantUIDs, n.RequestID+"-event@rw.test"), append(wantStarts, n.EventDate)
				case !n.DueDate.IsZero():
					wantUIDs, wantStarts = append(wantUIDs, n.RequestID+"-due@rw.test"), append(wantStarts, n.DueDate)
				}
			}
			if len(cal.Events()) != len(wantUIDs) {
				t.Fatalf("ics: %d events, want %d", len(cal.Events()), len(wantUIDs))
			}
			var gotUIDs []string
			for i, e := range cal.Events() {
				uid, _ := e.Props.Text(ical.PropUID)
				gotUIDs = append(gotUIDs, uid)
				start, err := e.DateTimeStart(record.NewYork)
				if err != nil || !start.Equal(wantStarts[i]) {
					t.Errorf("event %s starts %v (%v), want %v", uid, start, err, wantStarts[i])
				}
				if e.Props.Get(ical.PropDateTimeStamp) == nil || e.Props.Get(ical.PropSummary) == nil || e.Props.Get(ical.PropURL) == nil {
					t.Errorf("event %s lacks DTSTAMP, SUMMARY or URL", uid)
				}
			}
			if !slices.Equal(gotUIDs, wantUIDs) {
				t.Errorf("ics events\n got %v\nwant %v", gotUIDs, wantUIDs)
			}
			if v, _ := cal.Props.Text("X-RECORDWATCH-MATCHED"); v != fmt.Sprint(want.Total) {
				t.Errorf("ics X-RECORDWATCH-MATCHED %q", v)
			}
			if rules := cal.Props.Values("X-RECORDWATCH-ABSENCE-RULE"); len(rules) != 4 {
				t.Errorf("ics absence rules %v", rules)
			}

			// the feed's search_url lists the same records through /api/search
			u, _ := url.Parse(doc.Extension.SearchURL)
			res, b = get(t, shared, u.RequestURI())
			if res.StatusCode != 200 {
				t.Fatalf("search_url %s: %d %s", u, res.StatusCode, b)
			}
			sr := decode[SearchResponse](t, b)
			gotIDs = nil
			for _, h := range sr.Hits {
				gotIDs = append(gotIDs, noticeID(h.RequestID))
			}
			if !slices.Equal(gotIDs, wantIDs) || sr.Total != want.Total {
				t.Errorf("search_url ids\n got %v\nwant %v", gotIDs, wantIDs)
			}
		})
	}
}

// checkCRLF checks RFC 5545 line rules on a served calendar.
func checkCRLF(t *testing.T, b []byte) {
	t.Helper()
	lines := bytes.Split(bytes.TrimSuffix(b, []byte("\r\n")), []byte("\r\n"))
	for i, l := range lines {
		if len(l) > 75 || bytes.ContainsAny(l, "\r\n") || len(l) == 0 {
			t.Errorf("ics line %d (%d octets) breaks RFC 5545 §3.1: %q", i+1, len(l), l)
		}
	}
}

// TestFeedsNonEmpty makes sure the sample exercises every lens: the
// comparison above would pass vacuously on empty feeds.
func TestFeedsNonEmpty(t *testing.T) {
	for _, fc := range feedCases {
		res := expected(t, fc.filter())
		if len(res.Hits) == 0 {
			t.Errorf("%s: no hits in the sample at %s", fc.params, fixedNow)
		}
		if res.Total > watch.FeedLimit && len(res.Hits) != watch.FeedLimit {
			t.Errorf("%s: %d of %d hits, want the bound %d", fc.params, len(res.Hits), res.Total, watch.FeedLimit)
		}
	}
	// at least one calendar has events of both kinds
	_, b := get(t, shared, "/feed.ics?lens=meetings")
	if n := len(parseICS(t, b).Events()); n == 0 {
		t.Error("no upcoming meetings as events")
	}
	_, b = get(t, shared, "/feed.ics?lens=money")
	if n := len(parseICS(t, b).Events()); n == 0 {
		t.Error("no open solicitation due dates as events")
	}
}

func TestFeedGolden(t *testing.T) {
	for _, g := range []struct{ path, file string }{
		{"/feed.xml?lens=meetings", "feed_meetings.xml"},
		{"/feed.json?lens=meetings", "feed_meetings.json"},
		{"/feed.ics?lens=meetings", "feed_meetings.ics"},
		{"/feed.xml?lens=money", "feed_money_open.xml"},
		{"/feed.json?lens=money", "feed_money_open.json"},
		{"/feed.ics?lens=money", "feed_money_open.ics"},
		{"/feed.json?lens=entity&kind=vendor&name=Securus+Technologies+LLC", "feed_vendor_securus.json"},
		{"/feed.xml?lens=money&min=1m&q=marina", "feed_awards_marina.xml"},
	} {
		res, b := get(t, shared, g.path)
		if res.StatusCode != 200 {
			t.Fatalf("%s: %d %s", g.path, res.StatusCode, b)
		}
		golden(t, g.file, b)
	}
}

// TestFeedEntityVendorVariants: a real vendor that appears under several
// suffix and punctuation variants in the sample is followed by stem, so
// every variant is in its feed, whichever variant the name parameter uses.
func TestFeedEntityVendorVariants(t *testing.T) {
	for _, v := range []struct {
		stem     string
		names    []string
		variants int
	}{
		{"DELL MARKETING", []string{"Dell Marketing L.P.", "Dell Marketing LP", "DELL MARKETING, LP", "dell marketing"}, 3},
		{"SECURUS TECHNOLOGIES", []string{"Securus Technologies LLC", "Securus Technologies, Inc.", "securus technologies"}, 2},
	} {
		// the sample's own notices with this stem, whatever the spelling
		all := expected(t, watch.Filter{Lens: watch.LensEntity, Vendors: []string{v.stem}})
		var first []byte
		for _, name := range v.names {
			res, b := get(t, shared, "/feed.json?lens=entity&kind=vendor&name="+url.QueryEscape(name))
			if res.StatusCode != 200 {
				t.Fatalf("%s: %d %s", name, res.StatusCode, b)
			}
			if first == nil {
				first = b
			} else if !bytes.Equal(first, b) {
				t.Errorf("%q gives a different feed than %q", name, v.names[0])
			}
			doc := decode[jsonFeedDoc](t, b)
			spellings := map[string]bool{}
			for _, it := range doc.Items {
				if entity.VendorStem(it.Extension.Vendor) != v.stem {
					t.Errorf("%s: item %s names vendor %q", name, it.ID, it.Extension.Vendor)
				}
				spellings[it.Extension.Vendor] = true
			}
			if len(doc.Items) != all.Total || len(spellings) < v.variants {
				t.Errorf("%s: %d items under %d spellings %v; want all %d notices under %d variants",
					name, len(doc.Items), len(spellings), spellings, all.Total, v.variants)
			}
			if doc.Extension.Filter["name"] != v.stem || !strings.Contains(doc.Extension.Covers, v.stem) {
				t.Errorf("%s: scope %+v", name, doc.Extension.Scope)
			}
		}
	}
}

// TestFeedMinExcludesInvalid: the award feed never carries an invalid
// amount. The sample's Parks awards include six real "-1" placeholders;
// they are Parks awards (the search without an amount filter lists them),
// yet none is in the Parks award feed, even with min=0.
func TestFeedMinExcludesInvalid(t *testing.T) {
	parks := agencyID("Parks and Recreation")
	_, b := get(t, shared, "/api/search?lens=money&type=Award&agency="+parks+"&limit=100")
	awards := decode[SearchResponse](t, b)
	var placeholders []string
	for _, h := range awards.Hits {
		if h.Amount != nil && !h.Amount.Valid && h.Amount.SourceText == "-1" {
			placeholders = append(placeholders, h.RequestID)
		}
	}
	if len(placeholders) < 6 {
		t.Fatalf("expected the six real -1 placeholders among Parks awards, found %v", placeholders)
	}
	for _, minParam := range []string{"0", "1", "500000"} {
		res, b := get(t, shared, "/feed.json?lens=money&agency="+parks+"&min="+minParam)
		if res.StatusCode != 200 {
			t.Fatalf("min=%s: %d %s", minParam, res.StatusCode, b)
		}
		doc := decode[jsonFeedDoc](t, b)
		if doc.Extension.Matched > watch.FeedLimit {
			t.Fatalf("min=%s: %d matches; the test needs them all in one feed", minParam, doc.Extension.Matched)
		}
		minV, _ := watch.ParseDollars(minParam)
		for _, it := range doc.Items {
			a := it.Extension.Amount
			if a == nil || !a.Valid || a.Value == nil || *a.Value < minV {
				t.Errorf("min=%s: %s passed with amount %+v", minParam, it.Extension.RequestID, a)
			}
			if slices.Contains(placeholders, it.Extension.RequestID) {
				t.Errorf("min=%s: placeholder amount %s in the award feed", minParam, it.Extension.RequestID)
			}
		}
		if minParam == "0" && len(doc.Items) == 0 {
			t.Error("no valid Parks awards at all")
		}
	}
}

func TestFeedBadParameters(t *testing.T) {
	cases := []struct{ query, param, says string }{
		{"lens=money&q=one+two+three+four+five", "q", "at most 4 keywords"},
		{"lens=money&q=one+two+%22three+four%22+-five+-six", "q", "at most 4"},
		{"lens=money&colour=red", "colour", "unknown parameter"},
		{"q=parks", "lens", "lens is required"},
		{"lens=weather", "lens", "unknown lens"},
		{"lens=money&lens=land", "lens", "once"},
		{"lens=money&min=lots", "min", "amount"},
		{"lens=money&min=-5", "min", "amount"},
		{"lens=money&min=20b", "min", "10 billion"},
		{"lens=rules&min=5000", "min", "money lens only"},
		{"lens=money&kind=vendor&name=Acme", "kind", "entity lens"},
		{"lens=land&name=Acme", "name", "entity lens"},
		{"lens=entity", "kind", "kind"},
		{"lens=entity&kind=vendor", "name", "name"},
		{"lens=entity&kind=person&name=Jane", "kind", "vendor or agency"},
		{"lens=entity&kind=vendor&name=AB", "name", "3 characters"},
		{"lens=entity&kind=vendor&name=Acme&agency=Parks", "agency", "one entity"},
	}
	for _, c := range cases {
		for _, ext := range []string{"xml", "json", "ics"} {
			path := "/feed." + ext + "?" + c.query
			res, b := get(t, shared, path)
			if res.StatusCode != 400 {
				t.Errorf("%s: status %d", path, res.StatusCode)
				continue
			}
			e := decode[errorBody](t, b)
			if e.Error.Param != c.param || e.Error.Code != record.EINVALID || !strings.Contains(e.Error.Message, c.says) {
				t.Errorf("%s: error %+v, want param %s saying %q", path, e.Error, c.param, c.says)
			}
			if res.Header.Get("Cache-Control") != "no-store" {
				t.Errorf("%s: error cached: %q", path, res.Header.Get("Cache-Control"))
			}
		}
	}
	// four keywords (a phrase and an exclusion count once each) are fine;
	// kind and name alone imply the entity lens
	for _, q := range []string{"lens=money&q=one+two+%22three+four+five%22+-six", "kind=agency&name=Parks+and+Recreation"} {
		if res, b := get(t, shared, "/feed.xml?"+q); res.StatusCode != 200 {
			t.Errorf("%s: %d %s", q, res.StatusCode, b)
		}
	}
}

// countingReader counts the calls that reach the backend.
type countingReader struct {
	search.Engine
	searches atomic.Int64
	fail     atomic.Bool
}

func (c *countingReader) Search(ctx context.Context, q search.Query) (search.Result, error) {
	c.searches.Add(1)
	if c.fail.Load() {
		return search.Result{}, record.Errorf(record.EUNAVAILABLE, "the index is not answering")
	}
	return c.Engine.Search(ctx, q)
}

type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *testClock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func newCountingEnv(t *testing.T) (*env, *countingReader, *testClock) {
	t.Helper()
	cr := &countingReader{Engine: shared.be}
	clock := &testClock{t: fixedNow}
	st, err := store.OpenBolt(filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(Config{BaseURL: "http://rw.test", RatePerSecond: 1e6, Burst: 1e6},
		Deps{Search: cr, Store: st, Crosswalk: shared.srv.deps.Crosswalk, Now: clock.Now})
	e := &env{srv: srv, ts: httptest.NewServer(srv), be: shared.be, st: st}
	t.Cleanup(func() { e.ts.Close(); st.Close() })
	return e, cr, clock
}

// TestFeedCache: repeated polls within 15 minutes, in any format and with
// equivalent spellings of the parameters, are served from the in-process
// cache without touching the backend; after 15 minutes the feed is rebuilt.
func TestFeedCache(t *testing.T) {
	e, cr, clock := newCountingEnv(t)
	get1 := func(path string) []byte {
		t.Helper()
		res, b := get(t, e, path)
		if res.StatusCode != 200 {
			t.Fatalf("%s: %d %s", path, res.StatusCode, b)
		}
		if cc := res.Header.Get("Cache-Control"); cc != "public, max-age=900" {
			t.Errorf("%s: Cache-Control %q", path, cc)
		}
		return b
	}
	first := get1("/feed.xml?lens=money&agency=Parks+and+Recreation&q=Marina&min=1000")
	// one build's calls: its search, and for this empty feed the searches
	// of its widening (notices.Widening)
	n1 := cr.searches.Load()
	if n1 == 0 {
		t.Fatalf("first poll: no backend call")
	}
	// same feed: again, other formats, reordered and equivalent parameters
	for _, p := range []string{
		"/feed.xml?lens=money&agency=Parks+and+Recreation&q=Marina&min=1000",
		"/feed.json?lens=money&agency=Parks+and+Recreation&q=Marina&min=1000",
		"/feed.ics?lens=money&agency=Parks+and+Recreation&q=Marina&min=1000",
		"/feed.xml?min=1k&q=++marina+&agency=PARKS+%26+RECREATION&lens=money",
		"/feed.xml?lens=money&agency=" + agencyID("Parks and Recreation") + "&q=marina&min=%241%2C000",
	} {
		b := get1(p)
		if strings.HasPrefix(p, "/feed.xml") && !bytes.Equal(b, first) {
			t.Errorf("%s differs from the first poll", p)
		}
	}
	clock.Add(14*time.Minute + 59*time.Second)
	get1("/feed.xml?lens=money&agency=Parks+and+Recreation&q=Marina&min=1000")
	if n := cr.searches.Load(); n != n1 {
		t.Errorf("polls within 15 minutes made %d backend calls, want %d (the first build's)", n, n1)
	}
	clock.Add(2 * time.Second)
	get1("/feed.xml?lens=money&agency=Parks+and+Recreation&q=Marina&min=1000")
	if n := cr.searches.Load(); n != 2*n1 {
		t.Errorf("after 15 minutes: %d backend calls, want %d (one build more)", n, 2*n1)
	}
	// a different feed is its own entry
	get1("/feed.xml?lens=rules")
	n3 := cr.searches.Load()
	if n3 <= 2*n1 {
		t.Errorf("another feed: %d backend calls, want more than %d", n3, 2*n1)
	}
	// readers polling a cold feed at once share one backend call
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, _ := get(t, e, "/feed.ics?lens=meetings")
			if res.StatusCode != 200 {
				t.Errorf("concurrent poll: %d", res.StatusCode)
			}
		}()
	}
	wg.Wait()
	together := cr.searches.Load() - n3
	// one build of the same feed, cold again, alone
	clock.Add(16 * time.Minute)
	get1("/feed.ics?lens=meetings")
	if alone := cr.searches.Load() - n3 - together; together != alone || alone == 0 {
		t.Errorf("8 concurrent polls of a cold feed: %d backend calls in all, want %d (one build's)", together, alone)
	}
	// feed responses are counted per day (events, not people)
	counts, _ := e.st.Counts(context.Background(), store.CounterFeedRequest, "2026-08-14", "2026-08-14")
	if counts["2026-08-14"] != 18 {
		t.Errorf("feed_requests %v, want 18", counts)
	}
}

func TestFeedCacheBounded(t *testing.T) {
	clock := &testClock{t: fixedNow}
	fc := newFeedCache(cacheFeeds.maxAge(), 3, clock.Now)
	builds := 0
	build := func(context.Context) (*feedEntry, error) { builds++; return &feedEntry{built: clock.Now()}, nil }
	for i := range 5 {
		clock.Add(time.Second)
		fc.get(context.Background(), fmt.Sprint(i), build)
		if fc.len() > 3 {
			t.Fatalf("%d entries, bound 3", fc.len())
		}
	}
	fc.get(context.Background(), "4", build) // newest is kept
	fc.get(context.Background(), "0", build) // oldest was evicted
	if builds != 6 {
		t.Errorf("%d builds, want 6", builds)
	}
}

// TestFeedBackendFailure: a backend that cannot answer gives 503, and the
// failure is not cached.
func TestFeedBackendFailure(t *testing.T) {
	e, cr, _ := newCountingEnv(t)
	cr.fail.Store(true)
	res, b := get(t, e, "/feed.xml?lens=rules")
	if res.StatusCode != 503 || decode[errorBody](t, b).Error.Code != record.EUNAVAILABLE {
		t.Errorf("unavailable backend: %d %s", res.StatusCode, b)
	}
	cr.fail.Store(false)
	if res, _ := get(t, e, "/feed.xml?lens=rules"); res.StatusCode != 200 || cr.searches.Load() != 2 {
		t.Errorf("after recovery: %d with %d calls", res.StatusCode, cr.searches.Load())
	}
}

func TestFeedConditional(t *testing.T) {
	for _, ext := range []string{"xml", "json", "ics"} {
		path := "/feed." + ext + "?lens=meetings"
		res, b := get(t, shared, path)
		etag, lm := res.Header.Get("ETag"), res.Header.Get("Last-Modified")
		if res.StatusCode != 200 || etag == "" || lm == "" || res.Header.Get("Cache-Control") != "public, max-age=900" {
			t.Fatalf("%s: %d headers %v", path, res.StatusCode, res.Header)
		}
		if lm != "Fri, 14 Aug 2026 04:00:00 GMT" {
			t.Errorf("%s: Last-Modified %s", path, lm)
		}
		res2, b2 := get(t, shared, path, "If-None-Match", etag)
		if res2.StatusCode != http.StatusNotModified || len(b2) != 0 || res2.Header.Get("ETag") != etag {
			t.Errorf("%s If-None-Match: %d with %d bytes", path, res2.StatusCode, len(b2))
		}
		res3, _ := get(t, shared, path, "If-Modified-Since", lm)
		if res3.StatusCode != http.StatusNotModified {
			t.Errorf("%s If-Modified-Since: %d", path, res3.StatusCode)
		}
		res4, b4 := get(t, shared, path, "If-None-Match", `"stale"`)
		if res4.StatusCode != 200 || !bytes.Equal(b4, b) {
			t.Errorf("%s stale ETag: %d", path, res4.StatusCode)
		}
		req, _ := http.NewRequest("HEAD", shared.ts.URL+path, nil)
		res5, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res5.Body.Close()
		if res5.StatusCode != 200 || res5.Header.Get("ETag") != etag {
			t.Errorf("%s HEAD: %d %v", path, res5.StatusCode, res5.Header)
		}
	}
}

// TestDigestRedirect: /r/<kind>/<id> redirects known notices to their
// permalink and counts each follow for the day; unknown ids, kinds and
// malformed ids get a 404 page that links to search and never redirect.
func TestDigestRedirect(t *testing.T) {
	e, _, clock := newCountingEnv(t)
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	do := func(path string) (*http.Response, string) {
		t.Helper()
		res, err := noFollow.Get(e.ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var b bytes.Buffer
		b.ReadFrom(res.Body)
		return res, b.String()
	}
	counts := func(day string) int {
		c, err := e.st.Counts(context.Background(), store.CounterDigestLinkFollowed, day, day)
		if err != nil {
			t.Fatal(err)
		}
		return c[day]
	}
	for i, l := range []struct{ path, id string }{
		{"/r/money/20140930007", "20140930007"},
		{"/r/notice/20140930007", "20140930007"},
		{"/r/meetings/20260810053?utm_source=digest", "20260810053"},
	} {
		res, _ := do(l.path)
		if res.StatusCode != http.StatusFound || res.Header.Get("Location") != "http://rw.test/#notice/"+l.id {
			t.Errorf("%s: %d to %q", l.path, res.StatusCode, res.Header.Get("Location"))
		}
		if n := counts("2026-08-14"); n != i+1 {
			t.Errorf("after %d follows the day's count is %d", i+1, n)
		}
	}
	clock.Add(24 * time.Hour)
	do("/r/money/20140930007")
	if counts("2026-08-15") != 1 || counts("2026-08-14") != 3 {
		t.Errorf("per-day counts: 14th %d, 15th %d", counts("2026-08-14"), counts("2026-08-15"))
	}
	for _, path := range []string{"/r/money/20991231999", "/r/weather/20140930007", "/r/money/bad%20id!",
		"/r/money/" + url.PathEscape("https://evil.example/"), "/r/money/%2F%2Fevil.example", "/r/money//evil.example",
		"/r/money/20140930007/extra", "/r/money", "/r/"} {
		res, body := do(path)
		if res.StatusCode != http.StatusNotFound || res.Header.Get("Location") != "" {
			t.Errorf("%s: %d, Location %q", path, res.StatusCode, res.Header.Get("Location"))
		}
		if !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") || !strings.Contains(body, `href="http://rw.test/#search"`) ||
			strings.Contains(body, "evil.example") {
			t.Errorf("%s: page %s", path, body)
		}
	}
	if counts("2026-08-15") != 1 {
		t.Errorf("refused links were counted: %d", counts("2026-08-15"))
	}
}

// TestSearchOffersFeeds: a search view offers the feed URLs of the same
// filter when it maps to a feed, and the offered feeds work.
func TestSearchOffersFeeds(t *testing.T) {
	cases := map[string]string{
		"/api/search?lens=money&q=construction&sort=newest&limit=5":   "lens=money&q=construction",
		"/api/search?lens=money&min=500k&agency=Parks+and+Recreation": "agency=" + agencyID("Parks and Recreation") + "&lens=money&min=500000",
		"/api/search?lens=money&open=true":                            "lens=money",
		"/api/search?lens=meetings":                                   "lens=meetings",
		"/api/search?vendor=Dell+Marketing+LP":                        "kind=vendor&lens=entity&name=DELL+MARKETING",
		"/api/search?agency=Housing+Preservation+and+Development":     "kind=agency&lens=entity&name=" + agencyID("Housing Preservation and Development"),
		"/api/search?q=parks":                                         "",
		"/api/search?lens=money&section=Procurement":                  "",
		"/api/search?lens=rules&min=5":                                "",
		"/api/search?lens=money,land":                                 "",
		"/api/search?lens=money&q=a+b+c+d+e":                          "",
		"/api/search?lens=rules&vendor=Dell":                          "",
		"/api/search?lens=money&from=2026-01-01":                      "",
	}
	for path, want := range cases {
		res, b := get(t, shared, path)
		if res.StatusCode != 200 {
			t.Fatalf("%s: %d %s", path, res.StatusCode, b)
		}
		out := decode[SearchResponse](t, b)
		if want == "" {
			if out.Feeds != nil {
				t.Errorf("%s offers feeds %+v", path, out.Feeds)
			}
			continue
		}
		if out.Feeds == nil || out.Feeds.Atom != "http://rw.test/feed.xml?"+want || out.Feeds.JSON != "http://rw.test/feed.json?"+want ||
			out.Feeds.ICS != "http://rw.test/feed.ics?"+want {
			t.Errorf("%s: feeds %+v, want ?%s", path, out.Feeds, want)
			continue
		}
		for _, u := range []string{out.Feeds.Atom, out.Feeds.JSON, out.Feeds.ICS} {
			if res, b := get(t, shared, strings.TrimPrefix(u, "http://rw.test")); res.StatusCode != 200 {
				t.Errorf("%s: %d %s", u, res.StatusCode, b)
			}
		}
	}
}

// TestFeedEvents: which notices become calendar events, and when.
func TestFeedEvents(t *testing.T) {
	l := view.NoticeLinks{Permalink: "http://rw.test/#notice/1", Official: record.OfficialURL("1")}
	at := func(y int, m time.Month, d, h, min int) time.Time {
		return time.Date(y, m, d, h, min, 0, 0, record.NewYork)
	}
	due := at(2026, 9, 1, 14, 0)
	event := at(2026, 8, 20, 10, 0)
	cases := []struct {
		name   string
		n      record.Notice
		uid    string
		start  time.Time
		allDay bool
	}{
		{"rolling solicitation", record.Notice{RequestID: "1", NoticeType: "Solicitation", DueRolling: true}, "", time.Time{}, false},
		{"rolling with an event", record.Notice{RequestID: "1", NoticeType: "Solicitation", DueRolling: true, EventDate: event}, "1-event@rw.test", event, false},
		{"solicitation", record.Notice{RequestID: "1", NoticeType: "Solicitation", DueDate: due, EventDate: event}, "1-due@rw.test", due, false},
		{"hearing", record.Notice{RequestID: "1", NoticeType: "Public Hearings", EventDate: event, DueDate: due}, "1-event@rw.test", event, false},
		{"dated only", record.Notice{RequestID: "1", NoticeType: "Notice", DueDate: at(2026, 9, 2, 0, 0)}, "1-due@rw.test", at(2026, 9, 2, 0, 0), true},
		{"undated", record.Notice{RequestID: "1", NoticeType: "Award"}, "", time.Time{}, false},
	}
	for _, c := range cases {
		e := feedEvent(c.n, "rw.test", l)
		if c.uid == "" {
			if e != nil {
				t.Errorf("%s: event %+v", c.name, e)
			}
			continue
		}
		if e == nil || e.UID != c.uid || !e.Start.Equal(c.start) || e.AllDay != c.allDay || e.Start.Location() != record.NewYork {
			t.Errorf("%s: %+v", c.name, e)
		}
	}
}

// len is the number of cached feeds (the bound TestFeedCacheBounded checks).
func (fc *feedCache) len() int {
	fc.mu.Lock()
	defer fc.mu.Unlock()
	return len(fc.entries)
}
