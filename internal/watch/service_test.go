package watch

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
	"github.com/recordwatch/recordwatch/internal/view"
)

// memStore is an in-memory Store: daily ceilings, watches, one-time keys.
type memStore struct {
	mu      sync.Mutex
	taken   map[string]int
	watches map[string]Watch
	once    map[string]bool
	counts  map[string]int
	down    bool
}

func newMemStore() *memStore {
	return &memStore{taken: map[string]int{}, watches: map[string]Watch{}, once: map[string]bool{}, counts: map[string]int{}}
}

func (s *memStore) Take(_ context.Context, ceiling, key string, limit int, now time.Time) (Allowance, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.down {
		return Allowance{}, errors.New("down")
	}
	k := ceiling + "|" + key + "|" + now.In(record.NewYork).Format("2006-01-02")
	reset := view.OpenFrom(now).AddDate(0, 0, 1)
	if s.taken[k] >= limit {
		return Allowance{Allowed: false, ResetAt: reset}, nil
	}
	s.taken[k]++
	return Allowance{Allowed: true, Remaining: limit - s.taken[k], ResetAt: reset}, nil
}

func (s *memStore) Ledger(context.Context, string) ([]LedgerEntry, error) { return nil, nil }

func (s *memStore) CreateWatch(_ context.Context, w Watch, once string, _ time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if once != "" {
		if s.once[once] {
			return ErrTokenUsed
		}
		s.once[once] = true
	}
	s.watches[w.ID] = w
	return nil
}

func (s *memStore) GetWatch(_ context.Context, id string) (Watch, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w, ok := s.watches[id]
	if !ok {
		return Watch{}, record.Errorf(record.ENOTFOUND, "no watch")
	}
	return w, nil
}

func (s *memStore) DeleteWatch(_ context.Context, id string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.watches[id]
	delete(s.watches, id)
	return ok, nil
}

func (s *memStore) SetCadence(_ context.Context, id, cadence string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w, ok := s.watches[id]
	if ok {
		w.Cadence = cadence
		s.watches[id] = w
	}
	return ok, nil
}

func (s *memStore) Incr(_ context.Context, counter, _ string, delta int) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.counts[counter] += delta
	return s.counts[counter], nil
}

// memSender records mail and holds queued work until run is called, so a
// test sees what happens on the request path and what happens later.
type memSender struct {
	mu       sync.Mutex
	queued   []func(context.Context) error
	confirms []string // link per confirmation sent
	to       []string
	welcomes []Watch
}

func (s *memSender) Later(_ context.Context, _ string, fn func(context.Context) error) {
	s.mu.Lock()
	s.queued = append(s.queued, fn)
	s.mu.Unlock()
}

func (s *memSender) Confirmation(_ context.Context, to string, _ Understanding, link, _, _ string) error {
	s.mu.Lock()
	s.confirms, s.to = append(s.confirms, link), append(s.to, to)
	s.mu.Unlock()
	return nil
}

func (s *memSender) Welcome(_ context.Context, w Watch, manage, unsub string) error {
	s.mu.Lock()
	s.welcomes = append(s.welcomes, w)
	s.mu.Unlock()
	if !strings.Contains(manage, "/manage/") || !strings.Contains(unsub, "/u/") {
		return errors.New("bad manage links")
	}
	return nil
}

func (s *memSender) run(t *testing.T) {
	t.Helper()
	s.mu.Lock()
	q := s.queued
	s.queued = nil
	s.mu.Unlock()
	for _, fn := range q {
		if err := fn(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
}

type svcEnv struct {
	svc    *Service
	st     *memStore
	sender *memSender
}

// welcomes runs the queued mail and counts the welcome mails sent.
func (e *svcEnv) welcomes() int {
	e.sender.mu.Lock()
	q := e.sender.queued
	e.sender.queued = nil
	e.sender.mu.Unlock()
	for _, fn := range q {
		_ = fn(context.Background())
	}
	e.sender.mu.Lock()
	defer e.sender.mu.Unlock()
	return len(e.sender.welcomes)
}

var svcNow = time.Date(2026, 8, 14, 12, 0, 0, 0, record.NewYork)

func newSvc(t *testing.T, form int, tweak func(*ServiceConfig)) *svcEnv {
	t.Helper()
	be, err := embedded.Open(filepath.Join(t.TempDir(), "index"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { be.Close() })
	signer, err := NewSigner([]byte("0123456789abcdef0123456789abcdef"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := ServiceConfig{Form: form, Links: view.Links{Base: "http://rw.test", Form: form}, ConfirmTTL: 72 * time.Hour,
		RepliesPerAddress: 3, RequestsPerClient: 20, RequestsPerDay: 1000, FairShareAfter: 0.75, FairShareRequests: 2}
	if tweak != nil {
		tweak(&cfg)
	}
	e := &svcEnv{st: newMemStore(), sender: &memSender{}}
	e.svc, err = NewService(cfg, ServiceDeps{Store: e.st, Readers: Readers{Search: be, People: people.New(be, entity.DefaultCrosswalk()), Meetings: &meeting.Service{Records: be, Notices: be}}, Parse: ParseOptions{Crosswalk: entity.DefaultCrosswalk()},
		Signer: signer, Sender: e.sender, Now: func() time.Time { return svcNow }})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestServiceForm2DoubleOptIn: a Form 2 request stores nothing and sends
// nothing on the request path; the queued confirmation carries a link that
// activates the watch once; manage and unsubscribe links end it.
func TestServiceForm2DoubleOptIn(t *testing.T) {
	e := newSvc(t, 2, nil)
	ctx := context.Background()
	out, err := e.svc.Subscribe(ctx, Request{Email: "Pat@Example.org", Text: "Parks awards over $1 million"})
	if err != nil || out.Status != StatusAwaiting {
		t.Fatalf("subscribe: %+v %v", out, err)
	}
	if len(e.st.watches) != 0 || len(e.sender.confirms) != 0 || e.st.taken["watch-address|pat@example.org|2026-08-14"] != 0 {
		t.Fatal("something was stored, sent or counted on the request path")
	}
	e.sender.run(t)
	if len(e.sender.confirms) != 1 {
		t.Fatalf("%d confirmations", len(e.sender.confirms))
	}
	tok := strings.TrimPrefix(e.sender.confirms[0], "http://rw.test/confirm/")
	if p, err := e.svc.Pending(tok); err != nil || p.Status != StatusAwaiting || len(e.st.watches) != 0 {
		t.Fatalf("pending: %+v %v", p, err)
	}
	if _, err := e.svc.Confirm(ctx, tok+"x"); !errors.Is(err, ErrBadLink) {
		t.Errorf("forged link: %v", err)
	}
	if o, err := e.svc.Confirm(ctx, tok); err != nil || o.Status != StatusActive || len(e.st.watches) != 1 {
		t.Fatalf("confirm: %+v %v", o, err)
	}
	if _, err := e.svc.Confirm(ctx, tok); !errors.Is(err, ErrUsedLink) || len(e.st.watches) != 1 {
		t.Errorf("second confirm: %v, %d watches", err, len(e.st.watches))
	}
	e.sender.run(t)
	if len(e.sender.welcomes) != 1 || !strings.Contains(e.sender.welcomes[0].Scope, "Parks") {
		t.Fatalf("welcome %+v", e.sender.welcomes)
	}
	var id string
	for id = range e.st.watches {
	}
	manage, unsub, err := e.svc.ManageLinks(id)
	if err != nil {
		t.Fatal(err)
	}
	mt := strings.TrimPrefix(manage, "http://rw.test/manage/")
	if m, err := e.svc.Manage(ctx, mt); err != nil || m.Status != StatusActive {
		t.Errorf("manage: %+v %v", m, err)
	}
	if err := e.svc.Unsubscribe(ctx, strings.TrimPrefix(unsub, "http://rw.test/u/")); err != nil || len(e.st.watches) != 0 {
		t.Errorf("unsubscribe: %v", err)
	}
	if m, _ := e.svc.Manage(ctx, mt); m.Status != "ended" {
		t.Errorf("after unsubscribe: %+v", m)
	}
	if e.st.counts[CounterActive] != 0 {
		t.Errorf("active counter %d", e.st.counts[CounterActive])
	}
}

// TestServiceForm1OverCeilingSaysNothing: a Form 1 create over the
// address's mail ceiling (+tags folded) for its client is stored and
// answered as any other, and only its welcome mail is not sent; the
// ceiling counts per address and client, so a stranger's requests never
// use up what the address's own client may send.
func TestServiceForm1OverCeilingSaysNothing(t *testing.T) {
	e := newSvc(t, 1, func(c *ServiceConfig) { c.RepliesPerAddress = 2 })
	f := Filter{Lens: record.LensMoney, AnyOf: []string{"construction"}}
	var first Outcome
	for i, addr := range []string{"kim+a@example.org", "KIM+b@example.org", "kim@example.org", "kim+d@example.org"} {
		out, err := e.svc.Subscribe(context.Background(), Request{Email: addr, Filter: &f, Client: "stranger"})
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		if i == 0 {
			first = out
		}
		if out.Status != first.Status || out.Message != first.Message || out.Scope != first.Scope {
			t.Errorf("request %d: %+v, first %+v", i, out, first)
		}
	}
	if len(e.st.watches) != 4 {
		t.Errorf("%d watches stored, want 4", len(e.st.watches))
	}
	if n := e.welcomes(); n != 2 {
		t.Errorf("%d welcome mails, want 2 (the ceiling)", n)
	}
	if _, err := e.svc.Subscribe(context.Background(), Request{Email: "kim@example.org", Filter: &f, Client: "kim"}); err != nil || e.welcomes() != 3 {
		t.Errorf("the address's own client after a stranger's: %v, %d welcome mails", err, e.welcomes())
	}
	e.st.down = true
	if _, err := e.svc.Subscribe(context.Background(), Request{Email: "lee@example.org", Filter: &f}); record.ErrorCode(err) != record.EUNAVAILABLE {
		t.Errorf("store down: %v", err)
	}
}

// TestServiceFairShare: past FairShareAfter of the day's pool, only a
// client's first FairShareRequests requests draw on the rest.
func TestServiceFairShare(t *testing.T) {
	e := newSvc(t, 2, func(c *ServiceConfig) { c.RequestsPerDay = 8; c.RequestsPerClient = 6 })
	ctx := context.Background()
	// one client spends the shared part (6 of 8) …
	for i := 0; i < 6; i++ {
		if err := e.svc.Allow(ctx, "greedy"); err != nil {
			t.Fatalf("greedy %d: %v", i, err)
		}
	}
	// … a second greedy client gets its first two from the reserve …
	for i := 0; i < 2; i++ {
		if err := e.svc.Allow(ctx, "second"); err != nil {
			t.Fatalf("second %d: %v", i, err)
		}
	}
	if err := e.svc.Allow(ctx, "second"); record.ErrorCode(err) != record.ELIMIT {
		t.Fatalf("second's third: %v, want ELIMIT", err)
	}
	// … and no request without a client key draws on the reserve
	if err := e.svc.Allow(ctx, ""); record.ErrorCode(err) != record.ELIMIT {
		t.Errorf("keyless: %v, want ELIMIT", err)
	}
}

// TestServiceRefusesControlCharacters: a control character in any value
// is EINVALID naming the field; nothing is queued.
func TestServiceRefusesControlCharacters(t *testing.T) {
	e := newSvc(t, 2, nil)
	for field, req := range map[string]Request{
		"email":       {Email: "pat@example.org\r\nBcc: x@evil.example", Text: "Parks awards"},
		"text":        {Email: "pat@example.org", Text: "Parks\x00 awards"},
		"description": {Email: "pat@example.org", Text: "Parks awards", Description: "a\x07"},
		"in_reply_to": {Email: "pat@example.org", Text: "Parks awards", InReplyTo: "<a>\n<b>"},
	} {
		_, err := e.svc.Subscribe(context.Background(), req)
		var re *record.Error
		if !errors.As(err, &re) || re.Code != record.EINVALID || re.Param != field {
			t.Errorf("%s: %v", field, err)
		}
	}
	if len(e.sender.queued) != 0 {
		t.Errorf("%d jobs queued", len(e.sender.queued))
	}
}
