package api

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
	"github.com/recordwatch/recordwatch/internal/search/searchtest"
	"github.com/recordwatch/recordwatch/internal/store"
)

// shareClock is an injected clock a test can move.
type shareClock struct{ ns atomic.Int64 }

func newShareClock(t time.Time) *shareClock {
	c := &shareClock{}
	c.Set(t)
	return c
}

func (c *shareClock) Now() time.Time  { return time.Unix(0, c.ns.Load()).In(record.NewYork) }
func (c *shareClock) Set(t time.Time) { c.ns.Store(t.UnixNano()) }

// newFixtureEnv serves a fresh embedded index holding the contract
// suite's fixtures (real City Record values) and a fresh state store at
// statePath (a new one when ""), on a clock the test moves. Requests may
// name their client address in X-Forwarded-For.
func newFixtureEnv(t *testing.T, cfg Config, statePath string) (*env, *shareClock) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	be, err := embedded.Open(filepath.Join(dir, "index"))
	if err != nil {
		t.Fatal(err)
	}
	if err := be.Upsert(ctx, searchtest.Fixtures()); err != nil {
		t.Fatal(err)
	}
	if err := be.Observe(ctx, search.Observation{Source: record.SourceCROL, Label: "City Record Online", RecordType: "notice",
		ObservedAt: fixedNow.Add(-6 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if statePath == "" {
		statePath = filepath.Join(dir, "state.db")
	}
	st, err := store.OpenBolt(statePath)
	if err != nil {
		t.Fatal(err)
	}
	clk := newShareClock(fixedNow)
	cfg.BaseURL, cfg.Engine, cfg.RatePerSecond, cfg.Burst = "http://rw.test", "embedded", 1e6, 1e6
	cfg.TrustedProxies = []string{"127.0.0.1", "::1"}
	srv := newServer(cfg, Deps{Search: be, Store: st, Crosswalk: entity.DefaultCrosswalk(), Now: clk.Now})
	e := &env{srv: srv, ts: httptest.NewServer(srv), be: be, st: st}
	var closeIndex sync.Once
	shareEnvClosers[e] = func() { closeIndex.Do(func() { be.Close() }) }
	t.Cleanup(func() {
		e.ts.Close()
		shareEnvClosers[e]()
		st.Close()
		delete(shareEnvClosers, e)
	})
	return e, clk
}

// shareEnvClosers close a fixture env's index once (a test may close it early).
var shareEnvClosers = map[*env]func(){}

// postInv posts body to /inv from client address ip. chunked sends it
// without a Content-Length.
func postInv(t *testing.T, e *env, ip string, body []byte, chunked bool) (*http.Response, []byte) {
	t.Helper()
	var r io.Reader = bytes.NewReader(body)
	if chunked {
		r = io.MultiReader(bytes.NewReader(body)) // unknown length
	}
	req, _ := http.NewRequest("POST", e.ts.URL+"/inv", r)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Forwarded-For", ip)
	if !chunked {
		req.ContentLength = int64(len(body))
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, b
}

// validPin names one record of each kind, from the fixtures, and one
// notice that is not held.
const validPin = `{
  "title": "Inmate calling and Parks concessions",
  "items": [
    {"kind": "notice", "id": "20141031001", "note": "Green Markets licence: the amount is a -1 placeholder.\nCompare with the marina."},
    {"kind": "vendor", "id": "SECURUS TECHNOLOGIES", "note": "Two awards, 2014 and 2026"},
    {"kind": "agency", "id": "parks-and-recreation"},
    {"kind": "matter", "id": "06814L0041001N001", "note": "child care <3 (not a tag) & more"},
    {"kind": "notice", "id": "20991231999", "note": "not held here"}
  ]
}`

func mustCreateShare(t *testing.T, e *env, ip, body string) ShareCreated {
	t.Helper()
	res, b := postInv(t, e, ip, []byte(body), false)
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("POST /inv: %d %s", res.StatusCode, b)
	}
	return decode[ShareCreated](t, b)
}

func TestShareStoredAndReadBackByteForByte(t *testing.T) {
	e, clk := newFixtureEnv(t, Config{}, "")
	res, b := postInv(t, e, "192.0.2.10", []byte(validPin), false)
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("POST /inv: %d %s", res.StatusCode, b)
	}
	created := decode[ShareCreated](t, b)
	raw, err := base64.RawURLEncoding.DecodeString(created.ID)
	if err != nil || len(raw) != 16 || len(created.ID) != 22 {
		t.Fatalf("id %q is not 128 bits of base64url (%v)", created.ID, err)
	}
	if res.Header.Get("Location") != "http://rw.test/inv/"+created.ID || created.Status != "stored" ||
		!created.ExpiresAt.Equal(fixedNow.Add(90*24*time.Hour)) || res.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("created %+v, headers %v", created, res.Header)
	}
	wantStatus := []record.Availability{record.Found, record.Found, record.Found, record.Found, record.NotFound}
	for i, it := range created.Items {
		if it.Status != wantStatus[i] {
			t.Errorf("item %d (%s %s) pinned as %s, want %s", i, it.Kind, it.ID, it.Status, wantStatus[i])
		}
	}
	if other := mustCreateShare(t, e, "192.0.2.10", validPin); other.ID == created.ID {
		t.Error("two shares got the same id")
	}

	sh, err := e.st.GetShare(context.Background(), created.ID)
	if err != nil {
		t.Fatal(err)
	}
	res, got := get(t, e, "/inv/"+created.ID)
	if res.StatusCode != 200 || !bytes.Equal(got, sh.Body) {
		t.Fatalf("GET /inv/<id>: %d, %d bytes, stored %d bytes", res.StatusCode, len(got), len(sh.Body))
	}
	if !strings.Contains(res.Header.Get("Cache-Control"), "max-age=3600") || res.Header.Get("ETag") == "" {
		t.Errorf("cache headers %v", res.Header)
	}
	if r2, b2 := get(t, e, "/inv/"+created.ID, "If-None-Match", res.Header.Get("ETag")); r2.StatusCode != 304 || len(b2) != 0 {
		t.Errorf("conditional GET: %d", r2.StatusCode)
	}
	golden(t, "inv_snapshot.json", bytes.ReplaceAll(got, []byte(created.ID), []byte("<id>")))

	snap := decode[Snapshot](t, got)
	if snap.ID != created.ID || len(snap.Items) != 5 || snap.Title != "Inmate calling and Parks concessions" {
		t.Fatalf("snapshot %+v", snap)
	}
	// pinned states agree with an independent reading of the fixtures
	docs := searchtest.Fixtures()
	count := func(match func(record.Notice) bool) int {
		n := 0
		for _, d := range docs {
			if match(d.Notice) {
				n++
			}
		}
		return n
	}
	n0 := snap.Items[0].Pinned
	if n0.Status != record.Found || n0.Title != "PARKS ENTERS INTO GREEN MARKETS AGREEMENT WITH GROWNYC" || n0.AmountValid == nil ||
		*n0.AmountValid || n0.Amount != nil || n0.AmountSourceText != "-1" || !strings.HasPrefix(n0.ContentHash, "sha256:") {
		t.Errorf("notice state %+v", n0)
	}
	if v := snap.Items[1].Pinned; *v.Records != count(func(n record.Notice) bool { return n.VendorStem == "SECURUS TECHNOLOGIES" }) ||
		v.LatestRequestID != "20260521015" || v.LastPublished != "2026-06-02" || v.FirstPublished != "2014-10-10" {
		t.Errorf("vendor state %+v", v)
	}
	if a := snap.Items[2].Pinned; *a.Records != count(func(n record.Notice) bool { return n.AgencyID == "parks-and-recreation" }) {
		t.Errorf("agency state %+v", a)
	}
	if m := snap.Items[3].Pinned; *m.Records != 1 || m.LatestRequestID != "20140930007" || m.Name != "CHILD CARE SERVICES" {
		t.Errorf("matter state %+v", m)
	}
	if nf := snap.Items[4].Pinned; nf.Status != record.NotFound || !strings.Contains(nf.Message, record.OfficialURL("20991231999")) {
		t.Errorf("missing notice state %+v", nf)
	}
	if snap.Items[0].Note != "Green Markets licence: the amount is a -1 placeholder.\nCompare with the marina." {
		t.Errorf("note %q", snap.Items[0].Note)
	}

	// nothing changed yet
	_, cb := get(t, e, "/inv/"+created.ID+"/changes")
	ch := decode[ShareChanges](t, cb)
	if ch.ChangedItems != 0 || len(ch.Items) != 5 {
		t.Fatalf("changes before any change: %s", cb)
	}
	for _, it := range ch.Items {
		if it.Comparison != "unchanged" || len(it.ChangedFields) != 0 {
			t.Errorf("%s %s: %s %v", it.Kind, it.ID, it.Comparison, it.ChangedFields)
		}
	}

	// the record changes in place a week later: the snapshot does not,
	// and /changes shows what changed
	clk.Set(fixedNow.Add(7 * 24 * time.Hour))
	d := docs[1] // 20141031001
	d.Notice.Title = "PARKS ENTERS INTO GREEN MARKETS AGREEMENT WITH GROWNYC (AMENDED)"
	d.Notice.AmountRaw, d.Notice.Amount, d.Notice.AmountValid = "250000", 250000, true
	if err := e.be.Upsert(context.Background(), []search.Doc{d}); err != nil {
		t.Fatal(err)
	}
	if _, again := get(t, e, "/inv/"+created.ID); !bytes.Equal(again, sh.Body) {
		t.Error("the stored snapshot changed when the record did")
	}
	res, cb = get(t, e, "/inv/"+created.ID+"/changes")
	if res.StatusCode != 200 {
		t.Fatalf("changes: %d %s", res.StatusCode, cb)
	}
	ch = decode[ShareChanges](t, cb)
	// only the notice: the agency's state is its set of notices, which is
	// the same
	if ch.ChangedItems != 1 || ch.Items[0].Comparison != "changed" ||
		!slices.Equal(ch.Items[0].ChangedFields, []string{"amount", "amount_source_text", "amount_valid", "content_hash", "title"}) {
		t.Errorf("changes after an edit: %d changed; first %+v", ch.ChangedItems, ch.Items[0])
	}
	if ch.Items[4].Comparison != "unchanged" || ch.Items[4].Current.Status != record.NotFound {
		t.Errorf("a still-missing notice: %+v", ch.Items[4])
	}
	if !ch.PinnedAt.Equal(fixedNow) || !ch.CheckedAt.Equal(fixedNow.Add(7*24*time.Hour)) {
		t.Errorf("dates %v %v", ch.PinnedAt, ch.CheckedAt)
	}

	// counted, per day, without addresses
	day := record.NewYorkDay(fixedNow)
	for name, want := range map[string]int{store.CounterShareCreated: 2} {
		if c, _ := e.st.Counts(context.Background(), name, day, day); c[day] != want {
			t.Errorf("%s = %d, want %d", name, c[day], want)
		}
	}
}

func TestShareSizeLimit(t *testing.T) {
	e, _ := newFixtureEnv(t, Config{}, "")
	// a valid pin list padded with JSON whitespace to an exact size
	padded := func(size int) []byte {
		b := []byte(validPin)
		return append(b, bytes.Repeat([]byte(" "), size-len(b))...)
	}
	at := padded(MaxShareBytes)
	if len(at) != 32768 {
		t.Fatalf("payload is %d bytes", len(at))
	}
	if res, b := postInv(t, e, "192.0.2.20", at, false); res.StatusCode != http.StatusCreated {
		t.Errorf("exactly 32 KB: %d %s", res.StatusCode, b)
	}
	if res, b := postInv(t, e, "192.0.2.20", at, true); res.StatusCode != http.StatusCreated {
		t.Errorf("exactly 32 KB, chunked: %d %s", res.StatusCode, b)
	}
	over := padded(MaxShareBytes + 1)
	for _, chunked := range []bool{false, true} {
		res, b := postInv(t, e, "192.0.2.21", over, chunked)
		if res.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("32 KB + 1 (chunked %v): %d %s", chunked, res.StatusCode, b)
			continue
		}
		if er := decode[errorBody](t, b); er.Error.Code != record.ETOOLARGE || !strings.Contains(er.Error.Message, "32768") {
			t.Errorf("413 body %s", b)
		}
	}
	// a large body whose Content-Length is honest is refused before it is read
	big := padded(1 << 20)
	if res, _ := postInv(t, e, "192.0.2.22", big, false); res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("1 MB: %d", res.StatusCode)
	}
}

func TestShareDailyLimit(t *testing.T) {
	e, clk := newFixtureEnv(t, Config{}, "")
	small := `{"title": "t", "items": [{"kind": "notice", "id": "20140930007"}]}`
	clk.Set(time.Date(2026, 8, 14, 22, 0, 0, 0, record.NewYork))
	for i := 1; i <= MaxSharesPerDay; i++ {
		res, b := postInv(t, e, "198.51.100.7", []byte(small), false)
		if res.StatusCode != http.StatusCreated {
			t.Fatalf("POST %d: %d %s", i, res.StatusCode, b)
		}
		if got := strings.Join(res.Header.Values("RateLimit"), ", "); !strings.Contains(got, `"inv";r=`+strconv.Itoa(MaxSharesPerDay-i)+";") {
			t.Errorf("POST %d: RateLimit %s", i, got)
		}
	}
	res, b := postInv(t, e, "198.51.100.7", []byte(small), false)
	if res.StatusCode != http.StatusTooManyRequests || decode[errorBody](t, b).Error.Code != record.ELIMIT {
		t.Fatalf("11th POST: %d %s", res.StatusCode, b)
	}
	// two hours to New York midnight
	if ra, _ := strconv.Atoi(res.Header.Get("Retry-After")); ra < 7200 || ra > 7201 {
		t.Errorf("Retry-After %q", res.Header.Get("Retry-After"))
	}
	// a refused POST stored nothing and counted nothing
	day := record.NewYorkDay(clk.Now())
	if c, _ := e.st.Counts(context.Background(), store.CounterShareCreated, day, day); c[day] != MaxSharesPerDay {
		t.Errorf("share_created = %d", c[day])
	}
	// other clients are not affected; the ceiling resets the next day
	if res, _ := postInv(t, e, "198.51.100.8", []byte(small), false); res.StatusCode != http.StatusCreated {
		t.Errorf("another client: %d", res.StatusCode)
	}
	clk.Set(time.Date(2026, 8, 15, 0, 0, 1, 0, record.NewYork))
	if res, _ := postInv(t, e, "198.51.100.7", []byte(small), false); res.StatusCode != http.StatusCreated {
		t.Errorf("the next day: %d", res.StatusCode)
	}
}

// shareCases are bad pin lists and the field each error must name.
// goOnly marks rules the JSON Schema cannot express (and says so).
var shareCases = []struct {
	name, body, param string
	goOnly            bool
}{
	{"not JSON", `{"title": "x", "items": [`, "body", false},
	{"not an object", `[{"kind": "notice", "id": "20140930007"}]`, "body", false},
	{"empty body", ``, "body", false},
	{"two objects", `{"title": "x", "items": [{"kind": "notice", "id": "1"}]} {}`, "body", false},
	{"unknown top field", `{"title": "x", "items": [{"kind": "notice", "id": "1"}], "html": "<b>x</b>"}`, "html", false},
	{"field name in another case", `{"Title": "x", "items": [{"kind": "notice", "id": "1"}]}`, "Title", false},
	{"missing title", `{"items": [{"kind": "notice", "id": "1"}]}`, "title", false},
	{"blank title", `{"title": "   ", "items": [{"kind": "notice", "id": "1"}]}`, "title", true},
	{"title wrong type", `{"title": 42, "items": [{"kind": "notice", "id": "1"}]}`, "title", false},
	{"title with HTML", `{"title": "Look <b>here</b>", "items": [{"kind": "notice", "id": "1"}]}`, "title", false},
	{"title with a script", `{"title": "x<script>alert(1)</script>", "items": [{"kind": "notice", "id": "1"}]}`, "title", false},
	{"title with a comment", `{"title": "x <!-- y -->", "items": [{"kind": "notice", "id": "1"}]}`, "title", false},
	{"title with a control character", `{"title": "bell\u0007", "items": [{"kind": "notice", "id": "1"}]}`, "title", false},
	{"title with a line break", `{"title": "two\nlines", "items": [{"kind": "notice", "id": "1"}]}`, "title", false},
	{"title with a bidi override", `{"title": "abc\u202edef", "items": [{"kind": "notice", "id": "1"}]}`, "title", false},
	{"title too long", `{"title": "` + strings.Repeat("é", MaxShareTitle+1) + `", "items": [{"kind": "notice", "id": "1"}]}`, "title", false},
	{"missing items", `{"title": "x"}`, "items", false},
	{"items not a list", `{"title": "x", "items": {"kind": "notice"}}`, "items", false},
	{"no items", `{"title": "x", "items": []}`, "items", false},
	{"too many items", `{"title": "x", "items": [` + strings.TrimSuffix(strings.Repeat(`{"kind": "agency", "id": "a"},`, MaxShareItems+1), ",") + `]}`, "items", false},
	{"item not an object", `{"title": "x", "items": [{"kind": "notice", "id": "1"}, "20140930007"]}`, "items[1]", false},
	{"item null", `{"title": "x", "items": [null]}`, "items[0]", false},
	{"unknown item field", `{"title": "x", "items": [{"kind": "notice", "id": "1"}, {"kind": "notice", "id": "2", "url": "http://x"}]}`, "items[1].url", false},
	{"missing kind", `{"title": "x", "items": [{"id": "1"}]}`, "items[0].kind", false},
	{"unknown kind (person became a kind; document is not one)", `{"title": "x", "items": [{"kind": "document", "id": "1"}]}`, "items[0].kind", false},
	{"kind wrong type", `{"title": "x", "items": [{"kind": ["notice"], "id": "1"}]}`, "items[0].kind", false},
	{"missing id", `{"title": "x", "items": [{"kind": "notice"}]}`, "items[0].id", false},
	{"id a number", `{"title": "x", "items": [{"kind": "notice", "id": 20140930007}]}`, "items[0].id", false},
	{"notice id with a space", `{"title": "x", "items": [{"kind": "notice", "id": "2014 0930007"}]}`, "items[0].id", false},
	{"agency id not canonical", `{"title": "x", "items": [{"kind": "agency", "id": "Parks and Recreation"}]}`, "items[0].id", false},
	{"vendor name in lower case", `{"title": "x", "items": [{"kind": "vendor", "id": "Securus Technologies"}]}`, "items[0].id", false},
	{"vendor name with its suffix", `{"title": "x", "items": [{"kind": "vendor", "id": "SECURUS TECHNOLOGIES INC"}]}`, "items[0].id", true},
	{"matter id with HTML", `{"title": "x", "items": [{"kind": "matter", "id": "<i>84124B0001</i>"}]}`, "items[0].id", false},
	{"matter id with trailing space", `{"title": "x", "items": [{"kind": "matter", "id": "84124B0001 "}]}`, "items[0].id", false},
	{"id too long", `{"title": "x", "items": [{"kind": "matter", "id": "` + strings.Repeat("9", 121) + `"}]}`, "items[0].id", false},
	{"duplicate pin", `{"title": "x", "items": [{"kind": "notice", "id": "1"}, {"kind": "agency", "id": "1"}, {"kind": "notice", "id": "1"}]}`, "items[2].id", true},
	{"note with HTML", `{"title": "x", "items": [{"kind": "notice", "id": "1"}, {"kind": "notice", "id": "2"}, {"kind": "notice", "id": "3"}, {"kind": "notice", "id": "4", "note": "see <a href=\"http://x\">this</a>"}]}`, "items[3].note", false},
	{"note with a closing tag", `{"title": "x", "items": [{"kind": "notice", "id": "1", "note": "a </p> b"}]}`, "items[0].note", false},
	{"note with a tab", `{"title": "x", "items": [{"kind": "notice", "id": "1", "note": "a\tb"}]}`, "items[0].note", false},
	{"note wrong type", `{"title": "x", "items": [{"kind": "notice", "id": "1", "note": {"text": "x"}}]}`, "items[0].note", false},
	{"note too long", `{"title": "x", "items": [{"kind": "notice", "id": "1", "note": "` + strings.Repeat("n", MaxShareNote+1) + `"}]}`, "items[0].note", false},
}

// goodShares are accepted by the service and by the published schema.
var goodShares = []string{
	validPin,
	`{"title": "a < b, and c << d; 3<4", "items": [{"kind": "notice", "id": "20140930007", "note": "<3 <<< > & &amp; \"quoted\" ’"}]}`,
	`{"title": "` + strings.Repeat("é", MaxShareTitle) + `", "items": [{"kind": "matter", "id": "RFQ # 61683   JC"}, {"kind": "vendor", "id": "CDW - GOVERNMENT"}]}`,
	`{"items": [{"note": "", "id": "61774.", "kind": "matter"}], "title": "order of fields is free"}`,
}

func shareSchemaValue(t *testing.T) *openapi3.Schema {
	t.Helper()
	var sch openapi3.Schema
	if err := json.Unmarshal(shareSchemaJSON, &sch); err != nil {
		t.Fatal(err)
	}
	return &sch
}

func TestShareShapeValidation(t *testing.T) {
	e, _ := newFixtureEnv(t, Config{}, "")
	sch := shareSchemaValue(t)
	for i, tc := range shareCases {
		t.Run(tc.name, func(t *testing.T) {
			ip := fmt.Sprintf("203.0.113.%d", i+1) // one client per case: the daily ceiling is not what is tested
			res, b := postInv(t, e, ip, []byte(tc.body), false)
			if res.StatusCode != http.StatusBadRequest {
				t.Fatalf("status %d: %s", res.StatusCode, b)
			}
			er := decode[errorBody](t, b).Error
			if er.Code != record.EINVALID || er.Param != tc.param || !strings.Contains(er.Message, strings.TrimPrefix(tc.param, "body")) {
				t.Errorf("error %+v, want param %s", er, tc.param)
			}
			var v any
			if json.Unmarshal([]byte(tc.body), &v) != nil {
				return // not JSON: nothing for a schema to say
			}
			err := sch.VisitJSON(v, openapi3.EnableJSONSchema2020())
			if tc.goOnly && err == nil {
				return
			}
			if err == nil {
				t.Errorf("the published schema accepts it")
			}
		})
	}
	for i, body := range goodShares {
		res, b := postInv(t, e, fmt.Sprintf("203.0.113.%d", 200+i), []byte(body), false)
		if res.StatusCode != http.StatusCreated {
			t.Errorf("good pin list %d: %d %s", i, res.StatusCode, b)
		}
		var v any
		if err := json.Unmarshal([]byte(body), &v); err != nil {
			t.Fatal(err)
		}
		if err := sch.VisitJSON(v, openapi3.EnableJSONSchema2020()); err != nil {
			t.Errorf("good pin list %d: the schema refuses it: %v", i, err)
		}
	}
	// a form post is not a pin list
	req, _ := http.NewRequest("POST", e.ts.URL+"/inv", strings.NewReader("title=x"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Forwarded-For", "203.0.113.250")
	if r, _ := http.DefaultClient.Do(req); r.StatusCode != 400 {
		t.Errorf("form post: %d", r.StatusCode)
	}
}

func TestShareSchemaMatchesTheValidator(t *testing.T) {
	res, b := get(t, shared, "/inv/schema.json")
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/schema+json" || !bytes.Equal(b, shareSchemaJSON) {
		t.Fatalf("GET /inv/schema.json: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	sch := shareSchemaValue(t)
	title := sch.Properties["title"].Value
	items := sch.Properties["items"].Value
	item := items.Items.Value
	if title.Pattern != PatternTitle || *title.MaxLength != MaxShareTitle || *items.MaxItems != MaxShareItems ||
		item.Properties["note"].Value.Pattern != PatternNote || *item.Properties["note"].Value.MaxLength != MaxShareNote ||
		*item.Properties["id"].Value.MaxLength != MaxShareItemID {
		t.Error("the schema's limits or plain-text patterns differ from the validator's")
	}
	var kinds []string
	for _, k := range item.Properties["kind"].Value.Enum {
		kinds = append(kinds, k.(string))
	}
	if !slices.Equal(kinds, ShareKinds) {
		t.Errorf("schema kinds %v, validator kinds %v", kinds, ShareKinds)
	}
	patterns := map[string]string{}
	for _, c := range item.AllOf {
		k := c.Value.If.Value.Properties["kind"].Value.Const.(string)
		patterns[k] = c.Value.Then.Value.Properties["id"].Value.Pattern
	}
	want := map[string]string{ShareKindNotice: PatternNotice, ShareKindVendor: PatternVendor, ShareKindAgency: PatternAgency, ShareKindMatter: PatternMatter}
	for k, p := range want {
		if patterns[k] != p {
			t.Errorf("%s id pattern in the schema differs from the validator's", k)
		}
	}
	if !strings.Contains(sch.Description, strconv.Itoa(MaxShareBytes)) {
		t.Error("the schema does not state the size limit")
	}
	// the schema's own example is a valid pin list
	for _, ex := range sch.Examples {
		if err := sch.VisitJSON(ex, openapi3.EnableJSONSchema2020()); err != nil {
			t.Errorf("schema example: %v", err)
		}
		b, _ := json.Marshal(ex)
		if _, err := parseShare(b); err != nil {
			t.Errorf("schema example refused: %v", err)
		}
	}
}

func TestShareExpiresAfter90Days(t *testing.T) {
	e, clk := newFixtureEnv(t, Config{}, "")
	created := mustCreateShare(t, e, "192.0.2.30", validPin)
	path := "/inv/" + created.ID
	_, first := get(t, e, path)
	for _, d := range []time.Duration{89 * 24 * time.Hour, 90*24*time.Hour - time.Second} {
		clk.Set(fixedNow.Add(d))
		res, b := get(t, e, path)
		if res.StatusCode != 200 || !bytes.Equal(b, first) {
			t.Errorf("after %v: %d", d, res.StatusCode)
		}
		if d == 90*24*time.Hour-time.Second && !strings.Contains(res.Header.Get("Cache-Control"), "max-age=1") {
			t.Errorf("a second before expiry, Cache-Control %q", res.Header.Get("Cache-Control"))
		}
	}
	check410 := func(when string) {
		t.Helper()
		for _, p := range []string{path, path + "/changes"} {
			res, b := get(t, e, p)
			if res.StatusCode != http.StatusGone {
				t.Errorf("%s, %s: %d %s", when, p, res.StatusCode, b)
				continue
			}
			v := decode[struct {
				Status    string       `json:"status"`
				ID        string       `json:"id"`
				ExpiredAt time.Time    `json:"expired_at"`
				Error     record.Error `json:"error"`
			}](t, b)
			if v.Status != "expired" || v.ID != created.ID || v.Error.Code != "expired" || !v.ExpiredAt.Equal(created.ExpiresAt) ||
				!strings.Contains(v.Error.Message, "November 12, 2026") || res.Header.Get("Cache-Control") != "no-store" {
				t.Errorf("%s: 410 body %s", when, b)
			}
		}
	}
	clk.Set(fixedNow.Add(90 * 24 * time.Hour))
	check410("at 90 days")
	clk.Set(fixedNow.Add(91 * 24 * time.Hour))
	check410("day 91")

	// the sweep (run hourly by main through Bolt.Sweep) removes the content
	n, err := e.st.Sweep(clk.Now())
	if err != nil || n < 1 {
		t.Fatalf("sweep removed %d (%v)", n, err)
	}
	sh, err := e.st.GetShare(context.Background(), created.ID)
	if err != nil || !sh.Swept || sh.Body != nil {
		t.Errorf("after the sweep: %+v %v", sh, err)
	}
	check410("after the sweep")

	if res, _ := get(t, e, "/inv/AAAAAAAAAAAAAAAAAAAAAA"); res.StatusCode != 404 {
		t.Errorf("unknown id: %d", res.StatusCode)
	}
	res, b := get(t, e, "/inv/not-an-id")
	if res.StatusCode != 400 || decode[errorBody](t, b).Error.Param != "id" {
		t.Errorf("malformed id: %d %s", res.StatusCode, b)
	}
	if res, _ := get(t, e, path+"?compare=1"); res.StatusCode != 400 {
		t.Errorf("unknown parameter: %d", res.StatusCode)
	}
}

var shareIDInJSON = regexp.MustCompile(`[A-Za-z0-9_-]{22}`)

// The snapshot reads back with an unavailable index, saying so, and a
// pin taken while the index is down records "unavailable", not "not found".
func TestShareWhileIndexUnavailable(t *testing.T) {
	e, _ := newFixtureEnv(t, Config{}, "")
	created := mustCreateShare(t, e, "192.0.2.40", validPin)
	shareEnvClosers[e]() // the index goes away under the running API
	res, b := get(t, e, "/inv/"+created.ID)
	if res.StatusCode != 200 || !shareIDInJSON.Match(b) {
		t.Errorf("stored snapshot over a closed index: %d", res.StatusCode)
	}
	_, cb := get(t, e, "/inv/"+created.ID+"/changes")
	ch := decode[ShareChanges](t, cb)
	for _, it := range ch.Items {
		if it.Comparison != "unknown" || it.Current.Status != record.Unavailable {
			t.Errorf("%s %s over a closed index: %s %s", it.Kind, it.ID, it.Comparison, it.Current.Status)
		}
	}
	res, b = postInv(t, e, "192.0.2.40", []byte(validPin), false)
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("POST over a closed index: %d %s", res.StatusCode, b)
	}
	for _, it := range decode[ShareCreated](t, b).Items {
		if it.Status != record.Unavailable {
			t.Errorf("%s %s pinned as %s over a closed index", it.Kind, it.ID, it.Status)
		}
	}
}
