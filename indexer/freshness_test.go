package indexer

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/indexer/source/meetings"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
	"github.com/recordwatch/recordwatch/internal/store"
)

// upstreams answers every live source's address from the bundled sample,
// each upstream in its own mode: "" or "good" (its rows), "empty" (200
// with no rows), "failing" (500), "pdf" (a calendar that is a PDF).
// Legistar answers no events when good (the sample's Legistar files are
// loaded from files where needed).
type upstreams struct {
	tables    map[string][]json.RawMessage // SODA resource path → rows
	checkbook []byte
	mu        sync.Mutex
	modes     map[string]string
}

func newUpstreams(t *testing.T) *upstreams {
	t.Helper()
	cb, err := os.ReadFile("../testdata/sample/checkbook/contracts_pending_expense_citywide.response.xml")
	if err != nil {
		t.Fatal(err)
	}
	return &upstreams{checkbook: cb, modes: map[string]string{}, tables: map[string][]json.RawMessage{
		"crol":                     crolReplay(t).rows[:40],
		"hearings":                 readRows(t, "../testdata/sample/crol/dg92-zbpx_hearings_with_event_date_cityscroll_asof_2026-08-14_event_2026-08-17_to_2026-09-03.json"),
		"/resource/hgx4-8ukb.json": readRows(t, "../testdata/sample/land/hgx4-8ukb_projects_cityscroll_warehouse_rows_milestone_before_2026-06-15.json"),
		"/resource/t3jq-9nkf.json": readRows(t, "source/leaders/testdata/t3jq-9nkf_NYCGovernanceOrganizations_v1.8.43_2026-06-12.socrata.json"),
		"/resource/64uk-42ks.json": readRows(t, "../testdata/mappluto/64uk-42ks_replay_rows.json"),
		"/resource/k397-673e.json": {json.RawMessage(`{":id":"row-1","fiscal_year":"2016","agency_name":"POLICE DEPARTMENT","last_name":"DOE","first_name":"JANE","title_description":"POLICE OFFICER","regular_gross_paid":"100.00","base_salary":"1000.00","pay_basis":"per Annum"}`)},
	}}
}

func (u *upstreams) set(upstream, mode string) {
	u.mu.Lock()
	u.modes[upstream] = mode
	u.mu.Unlock()
}

// upstream names the upstream a request is for.
func upstreamOf(r *http.Request) string {
	switch {
	case r.Method == http.MethodPost:
		return "checkbook"
	case strings.HasSuffix(r.URL.Path, "/events"):
		return "legistar"
	case strings.HasPrefix(r.URL.Path, "/cal/"):
		return "calendar"
	case strings.HasSuffix(r.URL.Path, "dg92-zbpx.json") && strings.Contains(r.URL.Query().Get("$where"), "event_date"):
		return "hearings"
	case strings.HasSuffix(r.URL.Path, "dg92-zbpx.json"):
		return "crol"
	}
	return r.URL.Path
}

func (u *upstreams) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	up := upstreamOf(r)
	u.mu.Lock()
	mode := u.modes[up]
	u.mu.Unlock()
	switch {
	case mode == "failing":
		http.Error(w, "upstream "+up+" is down", http.StatusInternalServerError)
	case mode == "pdf" || (up == "calendar" && strings.HasSuffix(r.URL.Path, ".pdf")):
		w.Header().Set("Content-Type", "application/pdf")
		w.Write([]byte("%PDF-1.7\n"))
	case up == "checkbook" && mode == "empty":
		w.Write([]byte(`<response><status><result>success</result></status><result_records><record_count>0</record_count></result_records></response>`))
	case up == "checkbook":
		w.Write(u.checkbook)
	case up == "calendar" && mode != "empty":
		b, err := os.ReadFile("../testdata/sample/meetings/calendars/" + strings.TrimPrefix(r.URL.Path, "/cal/"))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write(b)
	case up == "calendar":
		w.Write([]byte("\n"))
	default:
		rows := u.tables[up]
		if mode == "empty" {
			rows = nil
		}
		q := r.URL.Query()
		off, _ := strconv.Atoi(q.Get("$offset"))
		lim, _ := strconv.Atoi(q.Get("$limit"))
		if q.Get("$top") != "" { // Legistar's paging
			off, _ = strconv.Atoi(q.Get("$skip"))
			lim, _ = strconv.Atoi(q.Get("$top"))
		}
		out := rows[min(off, len(rows)):min(off+lim, len(rows))]
		if out == nil {
			out = []json.RawMessage{}
		}
		json.NewEncoder(w).Encode(out)
	}
}

const calendarURL = "https://cb.example/cal/bronx-cb-10-september-2026.txt"

// Every job's Feeds are exactly the coverage sources its fetch reads:
// each upstream answering rows, a job's fetch writes records (or parts)
// of every source in its Feeds and of none outside them. (The land job
// listed six sources its fetch never reads: indexer/schedule.go:82-83
// against indexer/source/zap/live.go:82-85.)
func TestJobFeedsAreWhatItsFetchReads(t *testing.T) {
	ctx := context.Background()
	srv := httptest.NewServer(newUpstreams(t))
	defer srv.Close()
	now := time.Date(2026, 8, 14, 6, 0, 0, 0, time.UTC)
	// the index MapPLUTO's fetch asks for the lots of: one land project
	// with a lot the replay answers
	held, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	rec, err := land.ProjectKind.Encode(land.Project{ID: "2024Q0292", Name: "a project", Lots: []land.Lot{{BBL: "1006440001"}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := held.PutRecords(ctx, []search.Record{rec}); err != nil {
		t.Fatal(err)
	}
	if err := held.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	for _, j := range DefaultJobs() {
		cfg := LiveConfig{Client: replayClient(srv), CalendarURLs: []string{calendarURL}, PageSize: 50, Now: func() time.Time { return now }, Held: held}
		j.Window(&cfg, nil, now)
		cfg.CheckbookFrom = cfg.CheckbookTo // one day: one paced call
		read := map[string]bool{}
		err := j.Source.Fetch(ctx, Checkpoint{}, cfg, func(b Batch, _ []error) error {
			if len(b.Notices) > 0 {
				read[j.Source.Name()] = true
			}
			for _, p := range b.Parts {
				read[p.Source] = true
			}
			for _, set := range b.Records {
				recs, _ := set.Encode()
				for _, r := range recs {
					read[r.Source] = true
				}
			}
			return nil
		})
		if err != nil {
			t.Fatalf("%s: %v", j.Name, err)
		}
		var got []string
		for s := range read {
			got = append(got, s)
		}
		slices.Sort(got)
		want := slices.Sorted(slices.Values(j.Feeds))
		if !slices.Equal(got, want) {
			t.Errorf("job %s: its fetch reads %v, its Feeds say %v", j.Name, got, want)
		}
	}
}

// freshEnv is an embedded engine, a state store, an upstream replay, an
// indexer and a scheduler of jobs on an injected clock, and the engine
// as every surface reads it (search.WithFreshness over SourceRuns of the
// receipts, as main.go wires it).
type freshEnv struct {
	b     *embedded.Backend
	st    *store.Bolt
	up    *upstreams
	ix    *Indexer
	s     *Scheduler
	fresh *search.Freshened
	now   time.Time
}

func newFreshEnv(t *testing.T, jobs ...Job) *freshEnv {
	t.Helper()
	up := newUpstreams(t)
	srv, st := liveEnv(t, up)
	b, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	e := &freshEnv{b: b, st: st, up: up, now: time.Date(2026, 9, 1, 6, 0, 0, 0, time.UTC)}
	clock := func() time.Time { return e.now }
	e.ix = sampleIndexer(b)
	e.ix.Now = clock
	e.s = &Scheduler{Indexer: e.ix, Jobs: jobs, Receipts: st, Now: clock, Config: LiveConfig{Client: replayClient(srv), PageSize: 50}}
	e.fresh = search.WithFreshness(b, func(ctx context.Context) (func(string) record.SourceRun, error) {
		return SourceRuns(ctx, jobs, st)
	}, clock)
	return e
}

// coverage is every source's coverage (notices and records) with its
// freshness, read afresh, by source (the last kind of each).
func (e *freshEnv) coverage(t *testing.T) map[string]record.SourceCoverage {
	t.Helper()
	out := map[string]record.SourceCoverage{}
	for _, c := range e.list(t) {
		out[c.Source] = c
	}
	return out
}

// list is every source's coverage, each kind apart.
func (e *freshEnv) list(t *testing.T) []record.SourceCoverage {
	t.Helper()
	e.fresh.Invalidate()
	var out []record.SourceCoverage
	ctx := context.Background()
	nc, err := e.fresh.Coverage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	rc, err := e.fresh.RecordCoverage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range append(nc, rc...) {
		if c.RecordType == "derived.notice_vector" || c.RecordType == "derived.link" {
			continue
		}
		out = append(out, c)
	}
	return out
}

func jobNamed(name string) Job {
	for _, j := range DefaultJobs() {
		if j.Name == name {
			return j
		}
	}
	panic("no job " + name)
}

// A job marks only the sources it fetched, each by its own part: with the
// Legistar fetch failing and no board calendar configured, one City
// Record hearing row made the meetings run "ok" and every meetings source
// read fresh (indexer/schedule.go:137-143, internal/record/freshness.go
// :101-103, indexer/sources.go:416). Now Legistar reads failing with its
// error, the hearings fresh, the calendars (never fetched live) not fresh,
// and the empty answer for Legistar's January is upstream_failing naming
// the error; a calendar that is a PDF fails its own part, and an empty
// answer from the calendars is upstream_failing naming the document.
func TestJobMarksEachSourceByItsOwnFetch(t *testing.T) {
	ctx := context.Background()
	job := jobNamed("meetings")
	e := newFreshEnv(t, job)
	if _, err := e.ix.Load(ctx, meetingsSource{}, os.DirFS("../testdata/sample"), "meetings"); err != nil {
		t.Fatal(err)
	}
	e.up.set("legistar", "failing")
	rc := e.s.RunJob(ctx, job)
	if rc.Outcome != record.ReceiptOK || rc.Written == 0 {
		t.Fatalf("the run: %+v", rc)
	}
	parts := map[string]record.ReceiptPart{}
	for _, p := range rc.Parts {
		parts[p.Source] = p
	}
	if p := parts[meetings.LegistarSource]; p.Outcome != record.ReceiptFailed || !strings.Contains(p.Error, "500") {
		t.Errorf("legistar part: %+v", p)
	}
	if p := parts[meetings.HearingSource]; p.Outcome != record.ReceiptOK || p.RowsRead == 0 {
		t.Errorf("hearings part: %+v", p)
	}
	if p, ok := parts[meetings.CalendarSource]; ok {
		t.Errorf("no calendar is configured, yet the run marks cb-calendar: %+v", p)
	}
	cov := e.coverage(t)
	if c := cov[meetings.LegistarSource]; c.State != record.Failing || !strings.Contains(c.LastError, "500") || !c.StateSince.Equal(rc.Started) {
		t.Errorf("legistar: %+v, want failing since the run with its error", c)
	}
	if c := cov[meetings.HearingSource]; c.State != record.Fresh {
		t.Errorf("hearings: %+v, want fresh", c)
	}
	if c := cov[meetings.CalendarSource]; c.State == record.Fresh || !strings.Contains(c.FreshnessNote, "never fetched live") {
		t.Errorf("cb-calendar (never fetched live): %+v", c)
	}
	var all []record.SourceCoverage
	for _, c := range cov {
		all = append(all, c)
	}
	jan := record.NewScope(record.Searched{Kind: "meetings", Filters: map[string]string{"kind": "meeting", "source": meetings.LegistarSource,
		"from": "2027-01-01", "to": "2027-01-31"}}, all, 0)
	if jan.Empty == nil || jan.Empty.Type != record.UpstreamFailing || !strings.Contains(jan.Empty.Sources[0].Note, "500") ||
		!slices.Contains(jan.NotFresh, meetings.LegistarSource) {
		t.Errorf("Legistar's January, empty: %+v not fresh %v", jan.Empty, jan.NotFresh)
	}

	// a configured calendar that is a PDF: that part fails, naming it
	e.now = e.now.Add(time.Hour)
	e.up.set("legistar", "")
	e.s.Config.CalendarURLs = []string{"https://cb.example/cal/bronx-cb-10-september-2026.pdf"}
	rc = e.s.RunJob(ctx, job)
	var calPart *record.ReceiptPart
	for i, p := range rc.Parts {
		if p.Source == meetings.CalendarSource {
			calPart = &rc.Parts[i]
		}
	}
	if calPart == nil || calPart.Outcome != record.ReceiptFailed || !strings.Contains(calPart.Error, "a PDF") || !strings.Contains(calPart.Error, ".pdf") {
		t.Fatalf("calendar part: %+v (receipt %+v)", calPart, rc)
	}
	cov = e.coverage(t)
	if c := cov[meetings.LegistarSource]; c.State != record.Fresh {
		t.Errorf("legistar after a good fetch: %+v", c)
	}
	all = all[:0]
	for _, c := range cov {
		all = append(all, c)
	}
	sep := record.NewScope(record.Searched{Kind: "meetings", Filters: map[string]string{"kind": "meeting", "source": meetings.CalendarSource,
		"from": "2026-09-01", "to": "2026-09-30"}}, all, 0)
	if sep.Empty == nil || sep.Empty.Type != record.UpstreamFailing || !strings.Contains(sep.Empty.Sources[0].Note, "bronx-cb-10-september-2026.pdf") ||
		!strings.Contains(sep.Empty.Sources[0].Note, "a PDF") {
		t.Errorf("calendars' September, empty, after a rejected calendar: %+v", sep.Empty)
	}
}

// An upstream answering "nothing new" (200 with no rows for the days
// asked) is a good fetch: the Checkbook run is ok and the source fresh,
// not failing (indexer/indexer.go:343).
func TestNothingNewIsAGoodFetch(t *testing.T) {
	ctx := context.Background()
	job := jobNamed("checkbook-spending")
	window := job.Window
	day := func(cfg *LiveConfig, lastOK *record.Receipt, now time.Time) Window {
		w := window(cfg, lastOK, now)
		cfg.CheckbookFrom = cfg.CheckbookTo // one day: one paced call
		return w
	}
	job.Window = day
	e := newFreshEnv(t, job)
	if rc := e.s.RunJob(ctx, job); rc.Outcome != record.ReceiptOK || rc.Written == 0 {
		t.Fatalf("first run: %+v", rc)
	}
	e.now = e.now.Add(24 * time.Hour)
	e.up.set("checkbook", "empty")
	rc := e.s.RunJob(ctx, job)
	if rc.Outcome != record.ReceiptOK || rc.RowsRead != 0 || rc.Error != "" {
		t.Fatalf("a quiet day: %+v, want a good run of nothing new", rc)
	}
	for _, c := range e.coverage(t) {
		if c.Source == "checkbook" && (c.State != record.Fresh || !c.ObservedAt.Equal(rc.Finished)) {
			t.Errorf("checkbook after a quiet day: %+v, want fresh, observed at the quiet run", c)
		}
	}
}

// A live fetch that keeps failing is failing whatever its age: a
// Checkbook fetch failing on every run read stale, "out of date since"
// its last good run (internal/record/freshness.go:119-132), hiding the
// failure.
func TestFailingWhateverItsAge(t *testing.T) {
	ctx := context.Background()
	job := jobNamed("checkbook-spending")
	e := newFreshEnv(t, job)
	if _, err := e.ix.Load(ctx, checkbookSource{}, os.DirFS("../testdata/sample"), "checkbook"); err != nil {
		t.Fatal(err)
	}
	e.up.set("checkbook", "failing")
	first := e.s.RunJob(ctx, job)
	for range 3 {
		e.now = e.now.Add(24 * time.Hour)
		e.s.RunJob(ctx, job)
	}
	var c record.SourceCoverage
	for _, x := range e.list(t) {
		if x.Source == "checkbook" && x.RecordType == "payment" {
			c = x
		}
	}
	if c.State != record.Failing || !c.StateSince.Equal(first.Started) || !strings.Contains(c.LastError, "500") {
		t.Errorf("checkbook failing for 3 days (past its maximum age of 3 days): %+v", c)
	}
	all := []record.SourceCoverage{c}
	sc := record.NewScope(record.Searched{Kind: "record", Filters: map[string]string{"kind": "payment", "from": "2018-05-01", "to": "2018-05-03"}}, all, 0)
	if sc.Empty.Type != record.UpstreamFailing {
		t.Errorf("empty answer: %+v", sc.Empty)
	}
}

// Loading an older file never moves a source's observation back: City
// Record's observed_at went back to the 2014 export's date on a corpus
// holding rows to 2026 (indexer/indexer.go:357).
func TestOldFileNeverMovesObservedAt(t *testing.T) {
	ctx := context.Background()
	b, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ix := sampleIndexer(b)
	sample := os.DirFS("../testdata/sample")
	if _, err := ix.Load(ctx, crolSource{}, sample, "crol/socrata_2026"); err != nil {
		t.Fatal(err)
	}
	held := crolObserved(t, b)
	if _, err := ix.Load(ctx, crolSource{}, sample, "crol/dcas_2014"); err != nil {
		t.Fatal(err)
	}
	if got := crolObserved(t, b); !got.Equal(held) {
		t.Errorf("loading the 2014 export moved observed_at from %v to %v", held, got)
	}
	old := embeddedAt(t)
	if _, err := (&Indexer{Backend: old, Crosswalk: ix.Crosswalk, Now: ix.Now}).Load(ctx, crolSource{}, sample, "crol/dcas_2014"); err != nil {
		t.Fatal(err)
	}
	if o := crolObserved(t, old); !o.Before(held) {
		t.Fatalf("the 2014 export states %v, not older than %v: the test proves nothing", o, held)
	}
}

func embeddedAt(t *testing.T) *embedded.Backend {
	t.Helper()
	b, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// A board calendar that cannot be read is kept with its reason: the run's
// receipt names it in its calendar part's unread documents (address,
// board, month, why), the source's coverage lists it (as /api/sources
// does), and the empty answer for that board and month is
// upstream_failing naming the document and why; an answer for another
// month of that board does not name it.
func TestUnreadCalendarTypesItsBoardAndMonth(t *testing.T) {
	ctx := context.Background()
	job := jobNamed("meetings")
	e := newFreshEnv(t, job)
	if _, err := e.ix.Load(ctx, meetingsSource{}, os.DirFS("../testdata/sample"), "meetings"); err != nil {
		t.Fatal(err)
	}
	u := "https://cb.example/cal/bronx-cb-10-november-2026.txt"
	e.s.Config.CalendarURLs = []string{u}
	e.up.set("calendar", "empty") // the address answers no text
	rc := e.s.RunJob(ctx, job)
	var part record.ReceiptPart
	for _, p := range rc.Parts {
		if p.Source == meetings.CalendarSource {
			part = p
		}
	}
	key := meeting.BodyKey("Bronx Community Board 10")
	want := record.UnreadDocument{Document: u, Body: "Bronx Community Board 10", BodyKey: key, Month: "2026-11"}
	if part.Outcome != record.ReceiptFailed || len(part.Unread) != 1 {
		t.Fatalf("calendar part %+v", part)
	}
	got := part.Unread[0]
	reason := got.Reason
	got.Reason = ""
	if got != want || !strings.Contains(reason, "no text") {
		t.Errorf("unread %+v (reason %q), want %+v", got, reason, want)
	}
	c := e.coverage(t)[meetings.CalendarSource]
	if len(c.Unread) != 1 || c.Unread[0].Document != u {
		t.Errorf("coverage of cb-calendar: %+v", c)
	}
	scope := func(body, from, to string) record.Scope {
		return record.NewScope(record.Searched{Kind: "meetings", Filters: map[string]string{"kind": "meeting", "body_key": body,
			"from": from, "to": to}}, e.list(t), 0)
	}
	nov := scope(key, "2026-11-01T05:00:00Z", "2026-12-01T04:59:59Z")
	var note string
	for _, a := range nov.Empty.Sources {
		if a.Source == meetings.CalendarSource {
			note = a.Note
			if a.Type != record.UpstreamFailing {
				t.Errorf("cb-calendar's November of the board: %+v", a)
			}
		}
	}
	if nov.Empty.Type != record.UpstreamFailing || !strings.Contains(note, u) || !strings.Contains(note, "no text") || !strings.Contains(note, "could not be read") {
		t.Errorf("the board's November, empty: %+v", nov.Empty)
	}
	for _, other := range []record.Scope{scope(key, "2026-10-01T04:00:00Z", "2026-11-01T03:59:59Z"), scope("bronx-community-board-9", "2026-11-01T05:00:00Z", "2026-12-01T04:59:59Z")} {
		for _, a := range other.Empty.Sources {
			if strings.Contains(a.Note, "could not be read") {
				t.Errorf("another month or board names the unread calendar: %+v", a)
			}
		}
	}
}
