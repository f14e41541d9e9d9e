package meeting_test

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/internal/joins"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
)

// landJoins loads the bundled meetings and land samples, in the order
// given, into a fresh engine through the pipeline and returns the engine
// and the meeting ↔ land project link records the link stage wrote.
func landJoins(t *testing.T, order ...string) (*embedded.Backend, []record.Link) {
	t.Helper()
	ctx := context.Background()
	b, ix := newIndexer(t)
	for _, name := range order {
		src, err := indexer.LookupSource(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ix.Load(ctx, src, os.DirFS("../../testdata/sample"), name); err != nil {
			t.Fatal(err)
		}
	}
	p, err := search.Find(ctx, b, joins.Kind, search.RecordQuery{
		Keys: map[string][]string{joins.KeyLinkPair: {joins.Pair(record.RefMeeting, record.RefLandProject)}}, Sort: search.RecordSortID, Limit: 500})
	if err != nil {
		t.Fatal(err)
	}
	return b, p.Items
}

// The bundled Council agendas name application numbers of three land
// projects the bundled ZAP rows hold: 2024Q0113 (50-20 108th Street
// Rezoning, C 250253 ZMQ / N 250254 ZRQ), 2024Q0164 (164th Street
// Rezoning, 250290 ZMQ / 250291 ZRQ) and 2024R0300 (198-208 Richmond
// Terrace, 260169 ZMR / 260170 ZRR). The link stage joins them whichever is
// loaded first, with method, confidence and evidence: 10 joins, from the
// Zoning subcommittee and Land Use committee of July 14 and the Stated
// Meetings of July 16 (all three) and August 13 (2024Q0113 only). The land
// project read lists its meetings and the meeting read its land projects.
func TestMeetingsJoinLandProjectsOnTheBundledSample(t *testing.T) {
	ctx := context.Background()
	b, first := landJoins(t, "meetings", "land")
	_, second := landJoins(t, "land", "meetings")
	ids := func(ls []record.Link) []string {
		var out []string
		for _, l := range ls {
			out = append(out, l.ID+" "+l.Method+" "+l.Confidence)
		}
		return out
	}
	if !slices.Equal(ids(first), ids(second)) {
		t.Errorf("joins depend on the load order:\n%v\n%v", ids(first), ids(second))
	}
	want := map[string][]string{
		"legistar:22440": {"2024Q0113", "2024Q0164", "2024R0300"},
		"legistar:22441": {"2024Q0113", "2024Q0164", "2024R0300"},
		"legistar:22611": {"2024Q0113", "2024Q0164", "2024R0300"},
		"legistar:22663": {"2024Q0113"},
	}
	got := map[string][]string{}
	for _, l := range first {
		got[l.From.ID] = append(got[l.From.ID], l.To.ID)
		if l.From.Kind != record.RefMeeting || l.To.Kind != record.RefLandProject || l.Method != "ulurp_number" ||
			l.Confidence != meeting.High || !strings.Contains(l.Evidence, "agenda item") {
			t.Errorf("link %+v", l)
		}
	}
	if len(got) != len(want) {
		t.Errorf("joins %v, want %v", got, want)
	}
	for m, ps := range want {
		if !slices.Equal(got[m], ps) {
			t.Errorf("meeting %s joins %v, want %v", m, got[m], ps)
		}
	}
	if len(first) == 0 {
		t.FailNow()
	}
	l := first[0]
	pr, err := land.New(b).Project(ctx, l.To.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(pr.Meetings, func(x record.Link) bool { return x.ID == l.ID }) || pr.MeetingsNote == "" {
		t.Errorf("project %s lists meetings %+v", l.To.ID, pr.Meetings)
	}
	svc := &meeting.Service{Records: b, Notices: b}
	m, err := svc.Get(ctx, l.From.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(m.LandProjects, func(x record.Link) bool { return x.ID == l.ID }) || len(m.Applications) == 0 || m.LandProjectsNote != "" {
		t.Errorf("meeting %s lists land projects %+v (%q), applications %+v", m.ID, m.LandProjects, m.LandProjectsNote, m.Applications)
	}
	// a join read cut at its bound says so (22440 joins three projects)
	defer func(n int) { joins.MaxRead = n }(joins.MaxRead)
	joins.MaxRead = 1
	cut, err := svc.Get(ctx, "legistar:22440") // the id its links name (want above)
	if err != nil {
		t.Fatal(err)
	}
	if len(cut.LandProjects) != 1 || !strings.Contains(cut.LandProjectsNote, "Incomplete") {
		t.Errorf("meeting %s read with joins.MaxRead 1: %d land projects, note %q", cut.ID, len(cut.LandProjects), cut.LandProjectsNote)
	}
}

// A City Planning hearing notice names its applications far from its
// start: every one is read, however long the text, and each keeps the
// words around where it is named (within MaxApplicationText bytes), not
// the notice's first words.
func TestApplicationsInReadTheWholeText(t *testing.T) {
	var b strings.Builder
	b.WriteString("NOTICE IS HEREBY GIVEN that resolutions have been adopted by the City Planning Commission, scheduling public hearings on the following matters to be held at 120 Broadway, Lower Concourse, New York, NY, on Wednesday, September 10, 2026, at 10:00 A.M. ")
	for i := range 6 {
		b.WriteString("BOROUGH OF THE BRONX No. " + string(rune('1'+i)) + " CD 4 IN THE MATTER OF an application submitted by the Department of Housing Preservation and Development pursuant to Section 197-c of the New York City Charter for the disposition of city-owned property. ")
	}
	b.WriteString("No. 7 CD 1 C 250253 ZMQ IN THE MATTER OF an application submitted by 50-20 108th Street LLC for an amendment of the Zoning Map, Section No. 14b. ")
	for range 4 {
		b.WriteString("A public hearing on the same matters will also be held by the Commission, and written comments are accepted until the close of the hearing. ")
	}
	b.WriteString("Project 2024Q0113, 108th Street, and N 250254 ZRQ (A) close the calendar.")
	text := b.String()
	as := meeting.ApplicationsIn(meeting.WhereText, text)
	want := map[string]string{"250253ZMQ": "C 250253 ZMQ", "250254ZRQ(A)": "N 250254 ZRQ (A)", "2024Q0113": "2024Q0113"}
	if len(as) != len(want) {
		t.Fatalf("read %d applications, want %d: %+v", len(as), len(want), as)
	}
	for _, a := range as {
		key := a.Key + a.ProjectID
		named, ok := want[key]
		if !ok {
			t.Errorf("unexpected application %+v", a)
			continue
		}
		if strings.Index(text, named) < meeting.MaxApplicationText {
			t.Fatalf("%s is named within the first %d bytes: the test reads nothing new", named, meeting.MaxApplicationText)
		}
		if !strings.Contains(a.Text, named) || len(a.Text) > meeting.MaxApplicationText+2*len("…") || !strings.HasPrefix(a.Text, "…") {
			t.Errorf("%s: text %q (%d bytes), want the words around it, within %d bytes", key, a.Text, len(a.Text), meeting.MaxApplicationText)
		}
		if strings.Contains(a.Text, "NOTICE IS HEREBY") {
			t.Errorf("%s: text %q is the notice's start, not where it is named", key, a.Text)
		}
	}
	// a short text is kept whole
	short := "LU 105 - Zoning, 50-20 108th Street Rezoning, Queens (C 250253 ZMQ)"
	if as := meeting.ApplicationsIn(meeting.WhereAgendaItem, short); len(as) != 1 || as[0].Text != short || as[0].Number != "C 250253 ZMQ" {
		t.Errorf("short text: %+v", as)
	}
}
