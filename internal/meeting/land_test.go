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
