package api

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/indexer/sampletest"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/store"
	"github.com/recordwatch/recordwatch/internal/watch"
	"github.com/recordwatch/recordwatch/mailer"
)

// faultStore is the real bbolt store with a fault injected into its writes
// (fakes only to inject faults): while fail is set, Probe, Take, PutShare
// and CreateWatch (the writes; only the named ones when only is set)
// return fail as bbolt returns a failed write of its file, and store
// nothing.
type faultStore struct {
	store.Store
	mu   sync.Mutex
	fail error
	only map[string]bool
}

func (f *faultStore) inject(err error, only ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fail, f.only = err, map[string]bool{}
	for _, o := range only {
		f.only[o] = true
	}
}

func (f *faultStore) fault(op string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail == nil || (len(f.only) > 0 && !f.only[op]) {
		return nil
	}
	return f.fail
}

func (f *faultStore) Probe(ctx context.Context) error {
	if err := f.fault("Probe"); err != nil {
		return err
	}
	return f.Store.Probe(ctx)
}

func (f *faultStore) Take(ctx context.Context, ceiling, client string, limit int, now time.Time) (watch.Allowance, error) {
	if err := f.fault("Take"); err != nil {
		return watch.Allowance{}, err
	}
	return f.Store.Take(ctx, ceiling, client, limit, now)
}

func (f *faultStore) PutShare(ctx context.Context, sh store.Share) error {
	if err := f.fault("PutShare"); err != nil {
		return err
	}
	return f.Store.PutShare(ctx, sh)
}

func (f *faultStore) CreateWatch(ctx context.Context, w watch.Watch, once string, onceUntil time.Time, mail *watch.Promise) error {
	if err := f.fault("CreateWatch"); err != nil {
		return err
	}
	return f.Store.CreateWatch(ctx, w, once, onceUntil, mail)
}

// diskFull is what bbolt returns when its file cannot be written on a
// full disk (os.File.WriteAt's error), and readOnly on a file system
// remounted read-only.
var (
	diskFull = &os.PathError{Op: "write", Path: "/data/state.db", Err: syscall.ENOSPC}
	readOnly = &os.PathError{Op: "write", Path: "/data/state.db", Err: syscall.EROFS}
)

// newHealthEnv is the API with the mailer (watches) over the real
// embedded index and the real bbolt store behind faultStore, its data
// directory checked for free space against minFree (0: the default).
func newHealthEnv(t *testing.T, minFree uint64) (*env, *faultStore) {
	t.Helper()
	dir := t.TempDir()
	be, err := sampletest.CopyTo(filepath.Join(dir, "index"), sampletest.Notices, fixedNow)
	if err != nil {
		t.Fatal(err)
	}
	bolt, err := store.OpenBolt(filepath.Join(dir, "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	fs := &faultStore{Store: bolt}
	cw := entity.DefaultCrosswalk()
	now := func() time.Time { return fixedNow }
	m, err := newMailer(context.Background(), mailer.Config{BaseURL: "http://rw.test", Form: 1, SubscribeAddress: watchSubscribe,
		OutboxDir: filepath.Join(dir, "outbox"), RequestsPerClient: 1000}, mailer.Deps{Store: fs, Search: be, Crosswalk: cw, Now: now, Logger: quietLog})
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{BaseURL: "http://rw.test", Engine: "embedded", RatePerSecond: 1e6, Burst: 1e6, DataDir: dir, MinFreeBytes: minFree}
	srv := newServer(cfg, Deps{Search: be, Store: fs, Crosswalk: cw, Now: now, Watches: m.Watches(), Logger: quietLog})
	e := &env{srv: srv, ts: httptest.NewServer(srv), be: be, st: bolt}
	t.Cleanup(func() { e.ts.Close(); m.Flush(); be.Close(); bolt.Close() })
	return e, fs
}

type health struct {
	Status  string            `json:"status"`
	Engine  string            `json:"engine"`
	Records int               `json:"records"`
	Parts   map[string]string `json:"parts"`
}

// /readyz probes the state store with a real write and reads the data
// directory's free space: a store that cannot write (a full disk here)
// or a disk below the threshold makes it 503 naming the part; a store
// that recovers is ready again at the next reading. /healthz names the
// same parts and keeps its own fields and status (the index answers).
func TestReadyzStateStoreAndDiskSpace(t *testing.T) {
	e, fs := newHealthEnv(t, 0) // the default threshold (disk.DefaultMinFree)
	readyz := func() (int, health) {
		res, b := get(t, e, "/readyz")
		return res.StatusCode, decode[health](t, b)
	}
	// a good probe is reused for ProbeReuse, a failed one never: the
	// fault comes first on this fresh server
	fs.inject(diskFull)
	if code, h := readyz(); code != 503 || h.Status != "not ready" || h.Parts["state_store"] != "down" || h.Parts["search_index"] != "up" ||
		h.Parts["disk_space"] != "up" {
		t.Errorf("/readyz with the store out of space: %d %+v", code, h)
	}
	res, b := get(t, e, "/healthz")
	if h := decode[health](t, b); res.StatusCode != 200 || h.Status != "ok" || h.Engine != "embedded" || h.Records == 0 ||
		h.Parts["state_store"] != "down" || h.Parts["search_index"] != "up" || h.Parts["disk_space"] != "up" {
		t.Errorf("/healthz with the store out of space: %d %s", res.StatusCode, b)
	}
	fs.inject(nil)
	if code, h := readyz(); code != 200 || h.Status != "ready" || h.Parts["state_store"] != "up" || h.Parts["disk_space"] != "up" ||
		h.Parts["search_index"] != "up" {
		t.Errorf("/readyz once the store writes again: %d %+v", code, h)
	}
	res, b = get(t, e, "/healthz")
	if h := decode[health](t, b); res.StatusCode != 200 || h.Status != "ok" || h.Parts["state_store"] != "up" {
		t.Errorf("/healthz once the store writes again: %d %s", res.StatusCode, b)
	}

	short, _ := newHealthEnv(t, 1<<62) // more than any disk holds
	res, b = get(t, short, "/readyz")
	if h := decode[health](t, b); res.StatusCode != 503 || h.Parts["disk_space"] != "down" || h.Parts["state_store"] != "up" {
		t.Errorf("/readyz below the free-space threshold: %d %s", res.StatusCode, b)
	}
	if strings.Contains(string(b), short.ts.URL) || strings.Contains(string(b), "MiB") {
		t.Errorf("/readyz says more than the part: %s", b)
	}
}

// Write routes on a full disk answer 507 with the error shape and a
// message saying nothing was stored; on a read-only disk 503 with a
// clear message; never 500. A watch whose own write fails (the small
// ceiling writes still fit) is the case that was a 500. Once space is
// back, the same request is stored.
func TestWriteRoutesOnAFullOrReadOnlyDisk(t *testing.T) {
	e, fs := newHealthEnv(t, 0)
	watchBody := `{"email":"dora@example.org","lens":"money","q":"parks"}`
	share := []byte(`{"title": "t", "items": [{"kind": "notice", "id": "20140930007"}]}`)
	type answer struct {
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
			TraceID string `json:"trace_id"`
		} `json:"error"`
	}
	check := func(what string, status int, b []byte, wantStatus int, wantCode, wantWords string) {
		t.Helper()
		a := decode[answer](t, b)
		if status != wantStatus || a.Error.Code != wantCode || !strings.Contains(a.Error.Message, wantWords) ||
			!strings.Contains(a.Error.Message, "nothing was stored") || a.Error.TraceID == "" {
			t.Errorf("%s: %d %s, want %d %s saying %q", what, status, b, wantStatus, wantCode, wantWords)
		}
	}

	fs.inject(diskFull, "CreateWatch")
	res, out := httpDo(t, "POST", e.ts.URL+"/api/watches", "application/json", watchBody)
	check("watch on a full disk", res.StatusCode, []byte(out), http.StatusInsufficientStorage, record.ENOSPACE, "out of disk space")
	fs.inject(readOnly, "CreateWatch")
	res, out = httpDo(t, "POST", e.ts.URL+"/api/watches", "application/json", watchBody)
	check("watch on a read-only disk", res.StatusCode, []byte(out), http.StatusServiceUnavailable, record.EUNAVAILABLE, "read-only")

	fs.inject(diskFull)
	res, b := postInv(t, e, "198.51.100.9", share, false)
	check("share on a full disk (its daily ceiling)", res.StatusCode, b, http.StatusInsufficientStorage, record.ENOSPACE, "out of disk space")
	fs.inject(diskFull, "PutShare")
	res, b = postInv(t, e, "198.51.100.9", share, false)
	check("share on a full disk (the snapshot)", res.StatusCode, b, http.StatusInsufficientStorage, record.ENOSPACE, "out of disk space")
	fs.inject(readOnly, "PutShare")
	res, b = postInv(t, e, "198.51.100.9", share, false)
	if a := decode[answer](t, b); res.StatusCode != http.StatusServiceUnavailable || a.Error.Code != record.EUNAVAILABLE || a.Error.Message == "" {
		t.Errorf("share on a read-only disk: %d %s", res.StatusCode, b)
	}

	fs.inject(nil)
	if res, out := httpDo(t, "POST", e.ts.URL+"/api/watches", "application/json", watchBody); res.StatusCode != http.StatusCreated {
		t.Errorf("watch once space is back: %d %s", res.StatusCode, out)
	}
	if res, b := postInv(t, e, "198.51.100.9", share, false); res.StatusCode != http.StatusCreated {
		t.Errorf("share once space is back: %d %s", res.StatusCode, b)
	}
}
