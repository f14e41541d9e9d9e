package mailer

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/emersion/go-message/mail"

	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
	"github.com/recordwatch/recordwatch/internal/store"
	"github.com/recordwatch/recordwatch/internal/watch"
)

const rosterFile = "t3jq-9nkf_NYCGovernanceOrganizations_v1.8.43_2026-06-12.csv"

// rosterFS is the bundled roster (with its name crosswalk) as a leaders/
// directory; with blankACS the roster is an earlier release (file renamed
// to 2025-12-01) whose ACS row prints no principal officer.
func rosterFS(t *testing.T, blankACS bool) fstest.MapFS {
	t.Helper()
	fsys := fstest.MapFS{}
	for _, name := range []string{rosterFile, "nycgo_name_crosswalk_v1.8.43.csv"} {
		data, err := os.ReadFile("../testdata/sample/leaders/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if name == rosterFile && blankACS {
			const row = "Rebecca Jones Gaston,Rebecca,Jones Gaston,Commissioner,"
			if strings.Count(string(data), row) != 1 {
				t.Fatal("the ACS row is not in the sample as expected")
			}
			data = []byte(strings.Replace(string(data), row, ",,,,", 1))
			name = "t3jq-9nkf_NYCGovernanceOrganizations_v1.7.0_2025-12-01.csv"
		}
		fsys["leaders/"+name] = &fstest.MapFile{Data: data}
	}
	return fsys
}

// A Form 1 watch on the people lens of one agency follows its
// appearances: after its baseline, a new Changes in Personnel notice of
// the agency and a new roster release that changes its leader each reach
// the next digest once (the roster item dated "as of", linked to the
// organization page); neither comes again in the digest after.
func TestPeopleLensWatchDigest(t *testing.T) {
	ctx := context.Background()
	be, err := embedded.Open(filepath.Join(t.TempDir(), "index"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { be.Close() })
	cw := entity.DefaultCrosswalk()
	ix := &indexer.Indexer{Backend: be, Crosswalk: cw, Now: func() time.Time { return start }, Logger: quiet}
	if _, err := ix.LoadCROLDir(ctx, os.DirFS("../testdata/sample/crol"), "socrata_2026"); err != nil {
		t.Fatal(err)
	}
	leaders, err := indexer.LookupSource("leaders")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Load(ctx, leaders, rosterFS(t, true), "leaders"); err != nil {
		t.Fatal(err)
	}

	st, err := store.OpenBolt(filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	c := &clock{t: start}
	tr := &flaky{}
	m, err := newMailer(ctx, Config{BaseURL: "http://rw.test", Form: 1, SubscribeAddress: subscribe, OutboxDir: filepath.Join(t.TempDir(), "outbox")},
		Deps{Store: st, Search: be, Now: c.Now, Logger: quiet, Transport: tr})
	if err != nil {
		t.Fatal(err)
	}
	const acs = "administration-for-childrens-services"
	f := watch.PeopleFilter([]string{acs})
	if _, err := m.Watches().Subscribe(ctx, watch.Request{Email: "pat@example.org", Filter: &f, Agencies: map[string]string{acs: "Administration for Children's Services"},
		Client: "192.0.2.7", Channel: watch.ChannelWeb}); err != nil {
		t.Fatal(err)
	}
	m.Flush()
	ws, err := st.ListWatches(ctx)
	if err != nil || len(ws) != 1 || len(ws[0].Seen) == 0 || !strings.Contains(ws[0].Scope, "roster releases that change their leader") {
		t.Fatalf("watch %+v %v", ws, err)
	}

	// a new ACS personnel notice (a real one republished under a new id)
	// and the next roster release, which prints ACS's commissioner
	res, err := be.Search(ctx, f.Compile(start))
	if err != nil || len(res.Hits) == 0 {
		t.Fatalf("ACS personnel notices: %v", err)
	}
	fresh := republished(res.Hits[0].Notice, "29990101009")
	if err := be.Upsert(ctx, []search.Doc{{Notice: fresh}}); err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Load(ctx, leaders, rosterFS(t, false), "leaders"); err != nil {
		t.Fatal(err)
	}
	_ = be.Refresh(ctx)

	c.Set(start.Add(20 * time.Hour))
	if rep, err := m.RunDigests(ctx); err != nil || rep.Sent != 1 {
		t.Fatalf("digest: %+v %v", rep, err)
	}
	mr, err := mail.CreateReader(bytes.NewReader(tr.sent[len(tr.sent)-1]))
	if err != nil {
		t.Fatal(err)
	}
	text, err := bodyText(mr)
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(text), " ") // wrapped lines read as one
	for _, want := range []string{"2 new records", fresh.RequestID, "Roster release as of 2026-06-12", "Rebecca Jones Gaston (Commissioner)",
		"as of 2025-12-01 printed no principal officer name", "http://rw.test/organizations/NYC_GOID_000002/", "does not say who holds the role now"} {
		if !strings.Contains(flat, want) {
			t.Errorf("digest lacks %q:\n%s", want, text)
		}
	}
	c.Set(start.Add(44 * time.Hour))
	if rep, _ := m.RunDigests(ctx); rep.Sent != 0 || rep.Empty != 1 {
		t.Errorf("the next digest repeats: %+v", rep)
	}
}
