package mailer

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/indexer/sampletest"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/store"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// laterMeeting is a real Council event held back from the first load: it
// is the meeting record that appears after the watch began.
const laterMeeting = "legistar/2026-09-10_13_30_city-council_22540.json"

// meetingsSample is the bundled meetings sample, without skip.
func meetingsSample(t *testing.T, skip string) fstest.MapFS {
	t.Helper()
	out := fstest.MapFS{}
	root := "../testdata/sample/meetings"
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if filepath.ToSlash(rel) == skip {
			return nil
		}
		b, err := os.ReadFile(p)
		out["meetings/"+filepath.ToSlash(rel)] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func loadMeetings(t *testing.T, ix *indexer.Indexer, fsys fs.FS) {
	t.Helper()
	src, err := indexer.LookupSource("meetings")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Load(context.Background(), src, fsys, "meetings"); err != nil {
		t.Fatal(err)
	}
}

// A Form 1 watch on the meetings lens follows the meeting records: its
// baseline holds the meetings of the window, and a meeting record that
// appears later is delivered once, with its dated start, its four facts
// and its permalink; the hearing notices held as meetings are not
// delivered again as notices.
func TestMeetingsWatchDigest(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	// the sample's notices as LoadCROLDir writes them at start (a copy)
	be := sampletest.Copy(t, sampletest.Notices, start)
	ix := &indexer.Indexer{Backend: be, Crosswalk: entity.DefaultCrosswalk(), Now: func() time.Time { return start }, Logger: quiet}
	loadMeetings(t, ix, meetingsSample(t, laterMeeting))

	st, err := store.OpenBolt(filepath.Join(dir, "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	c := &clock{t: start}
	cfg := Config{BaseURL: "http://rw.test", Form: 1, SubscribeAddress: subscribe, OutboxDir: filepath.Join(dir, "outbox")}
	m, err := newMailer(ctx, cfg, Deps{Store: st, Search: be, Now: c.Now, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Flush)
	tm := &testMailer{Mailer: m, st: st, clock: c, outbox: cfg.OutboxDir, cfg: cfg}

	if _, err := m.Watches().Subscribe(ctx, watch.Request{Email: "pat@example.org", Filter: &watch.Filter{Lens: record.LensMeetings},
		Channel: watch.ChannelMCP, Client: "192.0.2.1"}); err != nil {
		t.Fatal(err)
	}
	m.Flush()
	ws, _ := st.ListWatches(ctx)
	if len(ws) != 1 || ws[0].Form != 1 {
		t.Fatalf("watches %+v", ws)
	}
	w := ws[0]
	for _, id := range []string{"legistar:22632", meeting.HearingID("20260727031")} {
		if !slices.Contains(w.Seen, id) {
			t.Errorf("baseline lacks meeting %s", id)
		}
	}

	// the first window: nothing new (the baseline holds every meeting)
	c.Set(start.Add(20 * time.Hour))
	if rep, err := m.RunDigests(ctx); err != nil || rep.Sent != 0 || rep.Empty != 1 {
		t.Fatalf("first window %+v %v", rep, err)
	}

	// a Council meeting record appears; the next window delivers it alone
	loadMeetings(t, ix, meetingsSample(t, ""))
	c.Set(start.Add(44 * time.Hour))
	rep, err := m.RunDigests(ctx)
	if err != nil || rep.Sent != 1 {
		t.Fatalf("second window %+v %v", rep, err)
	}
	d, ok, _ := st.GetDelivery(ctx, w.ID, rep.Window)
	if !ok || strings.Join(d.RequestIDs, ",") != "legistar:22540" {
		t.Fatalf("delivery %+v", d)
	}
	files := tm.files("digest.")
	if len(files) != 1 {
		t.Fatalf("digests %v", files)
	}
	text := decodedText(t, files[0])
	for _, want := range []string{"1 new record since your last digest", "1. Meeting: ", "Thu Sep 10, 2026 1:30 PM New York time",
		"Held: ", "Observed: ", "Minutes: ", "City Record notice: ", meeting.Permalink("http://rw.test", "legistar:22540")} {
		if !strings.Contains(strings.ReplaceAll(text, "\n   ", " "), want) {
			t.Errorf("digest lacks %q:\n%s", want, text)
		}
	}

	// the third window: nothing new again
	c.Set(start.Add(68 * time.Hour))
	if rep, _ := m.RunDigests(ctx); rep.Sent != 0 {
		t.Errorf("third window %+v", rep)
	}
}

// A hearing meeting read from a notice the watch already saw (a watch
// stored before meeting records were followed) is not new.
func TestDecideMeetingFromSeenNotice(t *testing.T) {
	hearing := meeting.Meeting{ID: meeting.HearingID("20260727031"), Source: meeting.SourceHearings, SourceID: "20260727031"}
	council := meeting.Meeting{ID: "legistar:22540", Source: "legistar", SourceID: "22540"}
	w := watch.Watch{ID: "w", Form: 1, Filter: watch.Filter{Lens: record.LensMeetings}, ActivatedAt: start,
		Progress: watch.Progress{Seen: []string{"20260727031"}}}
	d, next := Decide(DigestInput{Watch: w, Meetings: []meeting.Meeting{hearing, council}, Now: start.Add(24 * time.Hour), QuietAfter: 14 * 24 * time.Hour})
	if strings.Join(d.RequestIDs, ",") != "legistar:22540" || !slices.Contains(next.Seen, hearing.ID) || !slices.Contains(next.Seen, council.ID) {
		t.Errorf("delivery %v, next seen %v", d.RequestIDs, next.Seen)
	}
}
