package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/store"
	"github.com/recordwatch/recordwatch/internal/store/osstore"
)

// syncBuffer collects a child process's log.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// role is one Recordwatch process (main() re-executed by TestMain).
type role struct {
	name string
	cmd  *exec.Cmd
	log  *syncBuffer
	done chan error
}

func startRole(t *testing.T, name string, env []string, args ...string) *role {
	t.Helper()
	for _, a := range args {
		if strings.ContainsAny(a, " \t\n") {
			t.Fatalf("argument %q has a blank (RECORDWATCH_TEST_ARGS splits on blanks)", a)
		}
	}
	r := &role{name: name, log: &syncBuffer{}, done: make(chan error, 1)}
	r.cmd = exec.Command(os.Args[0], "-test.run=^$")
	r.cmd.Env = append(append(os.Environ(), "RECORDWATCH_TEST_MAIN=1", "RECORDWATCH_TEST_ARGS="+strings.Join(args, " ")), env...)
	r.cmd.Stdout, r.cmd.Stderr = r.log, r.log
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { r.done <- r.cmd.Wait() }()
	t.Cleanup(func() {
		if r.cmd.ProcessState == nil {
			_ = r.cmd.Process.Kill()
			<-r.done
		}
	})
	return r
}

// wait waits for a one-shot role to end and fails unless it ended well.
func (r *role) wait(t *testing.T, limit time.Duration) {
	t.Helper()
	select {
	case err := <-r.done:
		if err != nil {
			t.Fatalf("%s: %v\n%s", r.name, err, r.log)
		}
	case <-time.After(limit):
		t.Fatalf("%s did not finish within %v\n%s", r.name, limit, r.log)
	}
}

// stop ends a serving role as a deployment does (SIGTERM).
func (r *role) stop(t *testing.T) {
	t.Helper()
	_ = r.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-r.done:
		if err != nil {
			t.Errorf("%s stopped with %v\n%s", r.name, err, r.log)
		}
	case <-time.After(30 * time.Second):
		t.Errorf("%s did not stop within 30 s", r.name)
	}
}

// eventually polls cond until it holds or the limit passes.
func eventually(t *testing.T, limit time.Duration, what string, cond func() bool, logs ...*role) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			var b strings.Builder
			for _, r := range logs {
				b.WriteString("--- " + r.name + "\n" + r.log.String())
			}
			t.Fatalf("%s: not within %v\n%s", what, limit, b.String())
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// TestSplitRolesCooperateOnOpenSearch runs -target=indexer, -target=api and
// -target=mailer as three processes with their own data directories against
// one OpenSearch cluster (OPENSEARCH_URL) and index prefix: the indexer
// loads the bundled sample, a watch is created through the api process, the
// mailer process sees it (shared state store) and, once the indexer adds a
// new matching notice, mails the digest holding it.
func TestSplitRolesCooperateOnOpenSearch(t *testing.T) {
	t.Parallel() // its own data directories, ports and index prefix
	osURL := endToEndOpenSearch(t)
	if testing.Short() {
		t.Skip("starts three processes")
	}
	started := time.Now()
	b := make([]byte, 6)
	rand.Read(b)
	prefix := "rwroles-" + hex.EncodeToString(b)
	t.Cleanup(func() { removeIndexes(t, osURL, prefix) })
	common := []string{"-engine", "opensearch", "-opensearch-index-prefix", prefix}
	dirs := map[string]string{}
	for _, n := range []string{"indexer", "api", "mailer"} {
		dirs[n] = filepath.Join(t.TempDir(), n)
	}

	// 1. the indexer role loads the bundled sample (City Record notices)
	ix := startRole(t, "indexer", nil, append([]string{"-target=indexer", "-data", dirs["indexer"]}, common...)...)
	ix.wait(t, 3*time.Minute)
	if !strings.Contains(ix.log.String(), `msg="source loaded" source=crol`) {
		t.Fatalf("the indexer did not load the sample:\n%s", ix.log)
	}
	t.Logf("indexer loaded the sample in %v", time.Since(started).Round(time.Millisecond))

	// 2. api and mailer, each with its own data directory
	addr := freeAddr(t)
	base := "http://" + addr
	common = append(common, "-base-url", base) // links in mail point at the api role
	api := startRole(t, "api", nil, append([]string{"-target=api", "-addr", addr, "-data", dirs["api"]}, common...)...)
	mailer := startRole(t, "mailer", []string{"RECORDWATCH_SMTP_ADDR=127.0.0.1:0", "RECORDWATCH_DIGEST_EVERY=1m", "RECORDWATCH_DIGEST_POLL=1s"},
		append([]string{"-target=mailer", "-data", dirs["mailer"]}, common...)...)
	eventually(t, time.Minute, "api serving", func() bool {
		res, err := http.Get(base + "/healthz")
		if err != nil {
			return false
		}
		res.Body.Close()
		return res.StatusCode == 200
	}, api)
	eventually(t, time.Minute, "mailer running", func() bool { return strings.Contains(mailer.log.String(), "receiving subscribe mail") }, mailer)

	// 3. search through the api: the sample is there, the notice to come is not
	type searchOut struct {
		Total int `json:"total"`
		Hits  []struct {
			RequestID string `json:"request_id"`
		} `json:"hits"`
		Scope struct {
			RecordsInCorpus int `json:"records_in_corpus"`
		} `json:"scope"`
	}
	var money searchOut
	getJSON(t, base+"/api/search?q=construction&lens=money", &money)
	if money.Total == 0 || money.Scope.RecordsInCorpus < 1000 {
		t.Fatalf("sample search through the api role: %+v", money)
	}
	// the notice to come: a real City Record award (Parks, Hickman
	// Playground reconstruction) that the bundled City Record sample lacks
	const newID = "20260616012"
	var before searchOut
	getJSON(t, base+"/api/search?q=hickman+playground&limit=100", &before)
	for _, h := range before.Hits {
		if h.RequestID == newID {
			t.Fatalf("notice %s is in the sample already", newID)
		}
	}

	// 4. a Form 1 watch through the api role: active at once
	res, err := http.Post(base+"/api/watches", "application/json",
		strings.NewReader(`{"email":"reader@example.org","lens":"money","agency":["Parks"],"q":"playground","awards":true,"description":"Parks playground awards"}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	var created struct {
		Status string `json:"status"`
	}
	if res.StatusCode != http.StatusCreated || json.Unmarshal(body, &created) != nil || created.Status != "active" {
		t.Fatalf("create watch: %d %s\n%s", res.StatusCode, body, api.log)
	}
	// the api role stores the welcome with the watch; the mailer role's
	// outbox worker delivers it
	eventually(t, 30*time.Second, "welcome mail in the mailer role's outbox", func() bool {
		m, _ := filepath.Glob(filepath.Join(dirs["mailer"], "outbox", "welcome.*.eml"))
		return len(m) == 1
	}, mailer)

	// 5. the mailer process sees the watch (the state store is shared):
	// it plans the first digest window that starts after the watch was
	// created (windows are a minute here), empty since nothing new arrived
	st, err := osstore.Open(context.Background(), osstore.Config{URL: osURL, IndexPrefix: prefix})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	watches, err := st.ListWatches(ctx)
	if err != nil || len(watches) != 1 {
		t.Fatalf("shared store holds %d watches (%v), want 1", len(watches), err)
	}
	wid := watches[0].ID
	var firstWindow string
	eventually(t, 150*time.Second, "the mailer plans a digest for the api's watch", func() bool {
		w, err := st.GetWatch(ctx, wid)
		firstWindow = w.LastWindow
		return err == nil && w.LastWindow != ""
	}, mailer)
	if d, ok, err := st.GetDelivery(ctx, wid, firstWindow); err != nil || !ok || d.State != store.DeliveryEmpty {
		t.Fatalf("first delivery %+v %v %v: want empty (nothing new yet)", d, ok, err)
	}
	t.Logf("mailer planned window %s for the api's watch at %v", firstWindow, time.Since(started).Round(time.Millisecond))

	// 6. a new real notice: the indexer role again, on a directory holding
	// that one row as NYC Open Data (dg92-zbpx) serves it
	raw, err := os.ReadFile(filepath.Join("api", "testdata", "watches", "award_20260616012.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rm struct {
		RequestID       string  `json:"request_id"`
		StartDate       string  `json:"start_date"`
		AgencyName      string  `json:"agency_name"`
		ShortTitle      string  `json:"short_title"`
		PIN             string  `json:"pin"`
		ContractAmount  float64 `json:"contract_amount"`
		VendorName      string  `json:"vendor_name"`
		SelectionMethod string  `json:"selection_method_description"`
		Evidence        []struct {
			Type string `json:"type_of_notice_description"`
		} `json:"notice_evidence"`
	}
	if err := json.Unmarshal(raw, &rm); err != nil || rm.RequestID != newID || len(rm.Evidence) == 0 {
		t.Fatalf("fixture row %s: %v", newID, err)
	}
	row := []map[string]string{{"request_id": rm.RequestID, "start_date": rm.StartDate + "T00:00:00.000", "agency_name": rm.AgencyName,
		"type_of_notice_description": rm.Evidence[0].Type, "short_title": rm.ShortTitle, "pin": rm.PIN,
		"contract_amount": strconv.FormatFloat(rm.ContractAmount, 'f', -1, 64), "vendor_name": rm.VendorName,
		"selection_method_description": rm.SelectionMethod}}
	extra := t.TempDir()
	out, _ := json.Marshal(row)
	if err := os.WriteFile(filepath.Join(extra, "dg92-zbpx_award_one_row.json"), out, 0o644); err != nil {
		t.Fatal(err)
	}
	ix2 := startRole(t, "indexer (new notice)", nil, append([]string{"-target=indexer", "-data", dirs["indexer"], "-source-dir", extra}, common...)...)
	ix2.wait(t, 2*time.Minute)
	var after searchOut
	found := false
	// the api process answers a repeated search from its response cache
	// for up to search.SharedEngineTTL: another process's write shows
	// within it (internal/search/cache.go)
	eventually(t, search.SharedEngineTTL+10*time.Second, "the new notice through the api role", func() bool {
		after, found = searchOut{}, false
		getJSON(t, base+"/api/search?q=hickman+playground&limit=100", &after)
		for _, h := range after.Hits {
			found = found || h.RequestID == newID
		}
		return found && after.Total == before.Total+1
	}, api)
	if !found || after.Total != before.Total+1 {
		t.Fatalf("after the second indexer run: %d hits (before %d), %s found: %v", after.Total, before.Total, newID, found)
	}
	indexed := time.Now()

	// 7. the mailer sends the digest with the new notice (next window)
	var digests []string
	eventually(t, 150*time.Second, "digest in the mailer role's outbox", func() bool {
		digests, _ = filepath.Glob(filepath.Join(dirs["mailer"], "outbox", "digest.*.eml"))
		return len(digests) > 0
	}, mailer, api)
	t.Logf("digest written %v after the notice was indexed (%v since start)", time.Since(indexed).Round(time.Millisecond), time.Since(started).Round(time.Millisecond))
	if len(digests) != 1 {
		t.Errorf("%d digests, want 1: %v", len(digests), digests)
	}
	msg, err := os.ReadFile(digests[0])
	if err != nil {
		t.Fatal(err)
	}
	text := string(msg)
	if !strings.Contains(text, "To: <reader@example.org>") || !strings.Contains(text, "1 new record") || !strings.Contains(text, "/r/money/"+newID) {
		t.Errorf("digest does not hold the new notice:\n%s", text)
	}
	for _, old := range before.Hits {
		if strings.Contains(text, old.RequestID) {
			t.Errorf("digest repeats %s, seen when the watch was created", old.RequestID)
		}
	}
	// the digest's manage link, signed by the mailer process, opens at the
	// api process (one token key in the shared store)
	manage := ""
	for _, f := range strings.Fields(text) {
		if strings.HasPrefix(f, base+"/manage/") {
			manage = f
		}
	}
	if manage == "" {
		t.Errorf("no manage link to %s in the digest", base)
	} else if res, err := http.Get(manage); err != nil || res.StatusCode != 200 {
		t.Errorf("the digest's manage link at the api role: %v %v", res, err)
	} else {
		res.Body.Close()
	}
	if m, _ := filepath.Glob(filepath.Join(dirs["api"], "outbox", "digest.*.eml")); len(m) != 0 {
		t.Errorf("the api role sent digests: %v", m)
	}
	w, err := st.GetWatch(ctx, wid)
	if err != nil || w.LastWindow <= firstWindow {
		t.Errorf("watch after the digest: %+v %v", w, err)
	}
	if d, ok, _ := st.GetDelivery(ctx, wid, w.LastWindow); !ok || d.State != store.DeliverySent || len(d.RequestIDs) != 1 || d.RequestIDs[0] != newID {
		t.Errorf("delivery %+v", d)
	}
	// counters are shared too: the api counted the subscription, the mailer the digest
	today := record.NewYorkDay(time.Now())
	eventually(t, 10*time.Second, "shared counters", func() bool {
		subs, err1 := st.Counts(ctx, store.CounterSubscriptionActive, today, today)
		sent, err2 := st.Counts(ctx, store.CounterDigestSent, today, today)
		return err1 == nil && err2 == nil && subs[today] == 1 && sent[today] == 1
	}, api, mailer)

	api.stop(t)
	mailer.stop(t)
	t.Logf("three roles, end to end: %v", time.Since(started).Round(time.Millisecond))
}

// removeIndexes removes every index whose name starts with prefix+"-".
func removeIndexes(t *testing.T, osURL, prefix string) {
	node := strings.TrimRight(strings.TrimSpace(strings.Split(osURL, ",")[0]), "/")
	res, err := http.Get(node + "/_cat/indices/" + prefix + "-*?h=index")
	if err != nil {
		t.Logf("cleanup: %v", err)
		return
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	for _, idx := range strings.Fields(string(body)) {
		if !strings.HasPrefix(idx, prefix+"-") {
			continue
		}
		req, _ := http.NewRequest(http.MethodDelete, node+"/"+idx, nil)
		if res, err := http.DefaultClient.Do(req); err != nil {
			t.Logf("cleanup %s: %v", idx, err)
		} else {
			res.Body.Close()
		}
	}
}
