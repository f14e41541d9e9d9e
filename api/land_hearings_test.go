package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/api/mcp"
	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/indexer/sampletest"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/fetch"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/opensearch"
	"github.com/recordwatch/recordwatch/internal/store"
	"github.com/recordwatch/recordwatch/mailer"
)

// The resident's path of issue 48, on the embedded engine and on
// OpenSearch too when OPENSEARCH_URL is set (under an index prefix of its
// own, removed after): a resident follows land project 2024Q0292 ("108-05
// 68th Road Rezoning"); the City Record job fetches a City Planning
// Commission hearing notice naming its application C 260234 ZMQ (a
// fixture in City Record's own row shape, testdata/hearings) and, with no
// run of the land job, the notice is linked to the project and its
// hearing shows date, time and place on the page, the JSON twin, MCP
// get_land_project and the decision path, next first; the follower gets
// one mail when it is noticed and one when it moves to 2:00 PM, and the
// project's calendar carries it with SEQUENCE raised.
func TestResidentFollowsAProjectsHearing(t *testing.T) {
	engines := []string{"embedded"}
	if os.Getenv("OPENSEARCH_URL") != "" {
		engines = append(engines, "opensearch")
	} else {
		t.Log("OPENSEARCH_URL is not set: the resident's path runs on the embedded engine only")
	}
	for _, engine := range engines {
		t.Run(engine, func(t *testing.T) { residentHearingPath(t, engine) })
	}
}

// hearingEngine is an engine holding the bundled notices and land
// projects (sampleEngine).
func hearingEngine(t *testing.T, kind string) search.Engine {
	return sampleEngine(t, kind, sampletest.NoticesAndLand, "rwhearing")
}

// sampleEngine is an engine holding corpus c of the bundled sample: a
// private copy of the embedded one, or an OpenSearch index set of its own
// (under prefix, removed after) loaded with the same corpus.
func sampleEngine(t *testing.T, kind string, c sampletest.Corpus, prefix string) search.Engine {
	t.Helper()
	if kind == "embedded" {
		return sampletest.Copy(t, c, fixedNow)
	}
	cfg := opensearch.Config{URL: os.Getenv("OPENSEARCH_URL"), Username: os.Getenv("OPENSEARCH_USERNAME"),
		Password: os.Getenv("OPENSEARCH_PASSWORD"), IndexPrefix: fmt.Sprintf("%s-%d", prefix, time.Now().UnixNano())}
	be, err := opensearch.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		be.Close()
		for _, u := range strings.Split(cfg.URL, ",") {
			req, _ := http.NewRequest(http.MethodDelete, strings.TrimRight(strings.TrimSpace(u), "/")+"/"+cfg.IndexPrefix+"*", nil)
			req.SetBasicAuth(cfg.Username, cfg.Password)
			if res, err := http.DefaultClient.Do(req); err == nil {
				res.Body.Close()
				return
			}
		}
	})
	if err := sampletest.Load(context.Background(), be, c, fixedNow); err != nil {
		t.Fatal(err)
	}
	return be
}

func residentHearingPath(t *testing.T, engine string) {
	ctx := context.Background()
	be := hearingEngine(t, engine)
	dir := t.TempDir()
	st, err := store.OpenBolt(filepath.Join(dir, "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	today := time.Date(2026, 12, 6, 9, 0, 0, 0, record.NewYork)
	clock := &watchClock{t: today}
	cw := entity.DefaultCrosswalk()

	// the live jobs, every upstream answered here: City Record's
	// dg92-zbpx by a replay of the fixture rows, version 1 then version 2
	// (changed in place); any other address (Council Legistar) nothing
	rows := "cpc_hearing_v1.json"
	soda := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/resource/dg92-zbpx.json" || (r.URL.Query().Get("$offset") != "" && r.URL.Query().Get("$offset") != "0") {
			w.Write([]byte("[]"))
			return
		}
		http.ServeFile(w, r, filepath.Join("testdata", "hearings", rows))
	}))
	t.Cleanup(soda.Close)
	client := fetch.New()
	client.MaxRetries = -1
	client.HTTP = &http.Client{Transport: toServer{soda.URL}}
	ix := &indexer.Indexer{Backend: be, Crosswalk: cw, Now: clock.Now, Logger: quietLog}
	job := func(name string) indexer.Report {
		t.Helper()
		src, err := indexer.LookupSource(name)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := ix.RunLive(ctx, src.(indexer.LiveSource), indexer.LiveConfig{Full: true, Client: client})
		if err != nil || rep.Indexed == 0 {
			t.Fatalf("%s job: %+v %v", name, rep, err)
		}
		if err := be.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		return rep
	}
	crolJob := func() {
		t.Helper()
		if rep := job("crol"); rep.Indexed != 1 || len(rep.Errors) > 0 {
			t.Fatalf("City Record job: %+v", rep)
		}
	}

	// the service graph, the mailer and the server, as main wires them
	var handler http.Handler
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { handler.ServeHTTP(w, r) }))
	cfg := Config{Form: 1, BaseURL: ts.URL, RatePerSecond: 1e6, Burst: 1e6}
	d := withServices(cfg, Deps{Search: be, Store: st, Crosswalk: cw, Now: clock.Now, Logger: quietLog})
	mcfg := mailer.Config{BaseURL: ts.URL, Form: 1, SubscribeAddress: watchSubscribe, OutboxDir: filepath.Join(dir, "outbox"), RequestsPerClient: 1000}
	m, err := newMailer(ctx, mcfg, mailer.Deps{Store: st, Search: be, Crosswalk: cw, Now: clock.Now, Logger: quietLog, Procure: d.Procure, Land: d.Land})
	if err != nil {
		t.Fatal(err)
	}
	d.Watches = m.Watches()
	d.MCP = mcp.Handler(mcpDepsOf(d, ts.URL), 1)
	handler = New(cfg, d)
	t.Cleanup(func() { ts.Close(); m.Flush() })
	e := &watchEnv{ts: ts, st: st, m: m, clock: clock, outbox: mcfg.OutboxDir, cfg: mcfg, dir: dir}

	const project, notice = "2024Q0292", "20261202017"
	var view LandProjectView
	getJSONAt := func(path string, v any) {
		t.Helper()
		res, body := httpDo(t, "GET", ts.URL+path, "", "")
		if res.StatusCode != 200 {
			t.Fatalf("%s: %d %s", path, res.StatusCode, body)
		}
		if err := json.Unmarshal([]byte(body), v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	getJSONAt("/api/land-projects/"+project, &view)
	if len(view.Hearings) != 0 || view.NextHearing != nil {
		t.Fatalf("before the notice: hearings %+v", view.Hearings)
	}
	if res, cal := httpDo(t, "GET", ts.URL+view.HearingsICS, "", ""); res.StatusCode != 200 || strings.Contains(cal, "BEGIN:VEVENT") ||
		!strings.Contains(cal, "X-RECORDWATCH-ABSENCE;X-TYPE=none_found") {
		t.Errorf("the calendar before the notice: %d, want no event and its absence said:\n%s", res.StatusCode, cal)
	}

	// the resident follows the project: nothing is mailed for what it holds
	res, out := httpDo(t, "POST", ts.URL+"/api/watches", "application/json", `{"email":"resident@example.org","follow":{"kind":"land_project","id":"`+project+`"}}`)
	if res.StatusCode != http.StatusCreated || !strings.Contains(out, `"status":"active"`) {
		t.Fatalf("follow: %d %s", res.StatusCode, out)
	}
	runDigests := func(day int) []string {
		t.Helper()
		clock.Set(today.AddDate(0, 0, day))
		if _, err := m.RunDigests(ctx); err != nil {
			t.Fatal(err)
		}
		return e.outboxFiles("change.")
	}
	if got := runDigests(1); len(got) != 0 {
		t.Fatalf("change mails with nothing changed: %v", got)
	}

	// the City Record job loads the notice; the land job does not run
	crolJob()
	getJSONAt("/api/land-projects/"+project, &view)
	linked := false
	for _, l := range view.Project.Links {
		linked = linked || (l.RequestID == notice && l.Method == "ulurp_number" && l.Confidence == "high")
	}
	if !linked {
		t.Fatalf("notice %s not linked to %s by its application number once the City Record job loaded it: %+v", notice, project, view.Project.Links)
	}
	h := view.NextHearing
	if h == nil || len(view.Hearings) == 0 || view.Hearings[0].ID != h.ID || h.When != land.HearingNext {
		t.Fatalf("next hearing %+v, hearings %+v", h, view.Hearings)
	}
	if h.Date != "2026-12-16" || h.Time != "10:00 AM" || !strings.Contains(h.Place, "120 Broadway") || h.Body != "City Planning Commission" ||
		h.Status != land.HearingScheduled || h.SourceID != notice || h.LinkMethod != "ulurp_number" || !strings.Contains(h.HowToTestify, "To testify") {
		t.Errorf("hearing %+v", *h)
	}
	if view.HearingsICS == "" || view.HearingsNote == "" {
		t.Errorf("the JSON twin names no calendar or note: %+v", view)
	}
	// the page, the decision path and MCP say the same
	_, page := httpDo(t, "GET", ts.URL+"/land-projects/"+project, "", "")
	sec := regexp.MustCompile(`(?s)<section id="hearings".*?</section>`).FindString(page)
	for _, want := range []string{"Next hearing", "2026-12-16", "10:00 AM", "120 Broadway", "City Planning Commission", "To testify", "hearings.ics"} {
		if !strings.Contains(sec, want) {
			t.Errorf("the page's hearings lack %q:\n%s", want, sec)
		}
	}
	var path land.DecisionPath
	getJSONAt("/api/land-projects/"+project+"/decision-path", &path)
	if path.NextHearing == nil || path.NextHearing.Time != "10:00 AM" || path.NextHearing.Date != "2026-12-16" {
		t.Errorf("decision path next hearing %+v", path.NextHearing)
	}
	mcpOut := callTool(t, ts.URL, "get_land_project", `{"id":"`+project+`"}`)
	if mcpOut.NextHearing == nil || mcpOut.NextHearing.Time != "10:00 AM" || mcpOut.NextHearing.Date != "2026-12-16" ||
		!strings.Contains(mcpOut.NextHearing.Place, "120 Broadway") || len(mcpOut.Hearings) == 0 {
		t.Errorf("MCP get_land_project next hearing %+v", mcpOut.NextHearing)
	}
	ics := func() string {
		t.Helper()
		res, body := httpDo(t, "GET", ts.URL+view.HearingsICS, "", "")
		if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/calendar") {
			t.Fatalf("calendar: %d %s", res.StatusCode, body)
		}
		return strings.ReplaceAll(body, "\r\n ", "")
	}
	cal := ics()
	uid := "UID:" + notice + "-event@127.0.0.1"
	if !strings.Contains(cal, uid) || !strings.Contains(cal, "DTSTART;TZID=America/New_York:20261216T100000") || !strings.Contains(cal, "SEQUENCE:0") {
		t.Errorf("calendar lacks the hearing at 10:00 (%s, SEQUENCE:0):\n%s", uid, cal)
	}

	// one mail when the hearing is noticed
	field := "hearing: City Planning Commission (City Record notice " + notice + ")"
	changes := runDigests(2)
	if len(changes) != 1 {
		t.Fatalf("change mails %v, want one for the hearing noticed", changes)
	}
	first := readMail(t, changes[0]).Text
	flat := strings.Join(strings.Fields(first), " ")
	if !strings.Contains(flat, field+": (none) → 2026-12-16 10:00 AM, 120 Broadway") || !strings.Contains(flat, "scheduled") || !strings.Contains(flat, "To testify") {
		t.Errorf("the first mail does not say the hearing set, with date, time, place and how to take part:\n%s", first)
	}
	// the meetings job reads the same notice as a meeting naming C 260234
	// ZMQ: joined to the project, the same one hearing, and no mail
	job("meetings")
	getJSONAt("/api/land-projects/"+project, &view)
	joined := false
	for _, l := range view.Meetings {
		joined = joined || l.From.ID == meeting.SourceHearings+":"+notice
	}
	if !joined || len(view.Hearings) != 1 || view.Hearings[0].ID != "notice:"+notice || !slices.Contains(view.Hearings[0].AlsoIn, "meeting:"+meeting.SourceHearings+":"+notice) {
		t.Errorf("after the meetings job: meetings %+v; hearings %+v (one, read from the notice, the meeting named)", view.Meetings, view.Hearings)
	}
	if got := runDigests(3); len(got) != 1 {
		t.Fatalf("change mails after a quiet run: %v", got)
	}

	// the notice changes in place: 2:00 PM; one mail old → new
	rows = "cpc_hearing_v2.json"
	crolJob()
	changes = runDigests(4)
	if len(changes) != 2 {
		t.Fatalf("change mails %v, want a second one for the hearing moved", changes)
	}
	second := ""
	for _, f := range changes {
		if txt := readMail(t, f).Text; txt != first {
			second = strings.Join(strings.Fields(txt), " ")
		}
	}
	if !strings.Contains(second, field+": 2026-12-16 10:00 AM, 120 Broadway") || !strings.Contains(second, "→ 2026-12-16 2:00 PM, 120 Broadway") {
		t.Errorf("the second mail does not say the hearing moved 10:00 AM → 2:00 PM:\n%s", second)
	}
	getJSONAt("/api/land-projects/"+project, &view)
	if view.NextHearing == nil || view.NextHearing.Time != "2:00 PM" || len(view.Hearings) != 1 {
		t.Errorf("after the move: next %+v, hearings %d (one hearing, moved)", view.NextHearing, len(view.Hearings))
	}
	cal = ics()
	if !strings.Contains(cal, uid) || !strings.Contains(cal, "DTSTART;TZID=America/New_York:20261216T140000") || !strings.Contains(cal, "SEQUENCE:1") {
		t.Errorf("calendar lacks the moved hearing at 14:00 with SEQUENCE:1:\n%s", cal)
	}
}

// callTool calls an MCP get_land_project on the server at base and
// decodes its structured answer.
func callTool(t *testing.T, base, name, args string) mcp.LandProjectOut {
	t.Helper()
	res, body := httpDo(t, "POST", base+"/mcp", "application/json",
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"`+name+`","arguments":`+args+`}}`,
		"Accept", "application/json, text/event-stream")
	if res.StatusCode != 200 {
		t.Fatalf("MCP %s: %d %s", name, res.StatusCode, body)
	}
	if i := strings.Index(body, "data: "); i >= 0 { // an event stream: its one message
		body = strings.TrimSpace(body[i+len("data: "):])
	}
	var rpc struct {
		Result struct {
			Structured mcp.LandProjectOut `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(body), &rpc); err != nil {
		t.Fatalf("MCP %s: %v %s", name, err, body)
	}
	return rpc.Result.Structured
}

// toServer sends every request to the test server at base (its path and
// query kept): the live jobs' upstreams, answered locally.
type toServer struct{ base string }

func (r toServer) RoundTrip(req *http.Request) (*http.Response, error) {
	u, err := url.Parse(r.base)
	if err != nil {
		return nil, err
	}
	req = req.Clone(req.Context())
	req.URL.Scheme, req.URL.Host, req.Host = u.Scheme, u.Host, u.Host
	return http.DefaultTransport.RoundTrip(req)
}
