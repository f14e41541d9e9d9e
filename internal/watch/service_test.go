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
	mu        sync.Mutex
	taken     map[string]int
	watches   map[string]Watch
	once      map[string]bool
	counts    map[string]int
	mail      map[string]Promise
	addresses map[string]AddressState
	down      bool
}

func newMemStore() *memStore {
	return &memStore{taken: map[string]int{}, watches: map[string]Watch{}, once: map[string]bool{}, counts: map[string]int{},
		mail: map[string]Promise{}, addresses: map[string]AddressState{}}
}

func (s *memStore) QueueMail(_ context.Context, p Promise) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.down {
		return errors.New("down")
	}
	s.mail[p.ID] = p
	return nil
}

func (s *memStore) PendingMail(context.Context) ([]Promise, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.down {
		return nil, errors.New("down")
	}
	var out []Promise
	for _, p := range s.mail {
		out = append(out, p)
	}
	return out, nil
}

func (s *memStore) PutMail(_ context.Context, p Promise) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.mail[p.ID]
	if ok {
		s.mail[p.ID] = p
	}
	return ok, nil
}

func (s *memStore) MailDone(_ context.Context, address string, ids []string, at time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range ids {
		delete(s.mail, id)
	}
	if !at.IsZero() {
		a := s.addresses[address]
		a.Key, a.UnaskedAt = address, at
		s.addresses[address] = a
	}
	return nil
}

func (s *memStore) DropMail(_ context.Context, address string) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for id, p := range s.mail {
		if p.Address == address {
			delete(s.mail, id)
			n++
		}
	}
	return n, nil
}

func (s *memStore) Address(_ context.Context, key string) (AddressState, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addresses[key], nil
}

func (s *memStore) PutAddress(_ context.Context, a AddressState) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.addresses[a.Key] = a
	return nil
}

func (s *memStore) TouchWatch(_ context.Context, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if w, ok := s.watches[id]; ok {
		w.Untouched = false
		s.watches[id] = w
	}
	return nil
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

func (s *memStore) CreateWatch(_ context.Context, w Watch, once string, _ time.Time, mail *Promise) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.down {
		return errors.New("down")
	}
	if mail != nil {
		s.mail[mail.ID] = *mail
	}
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

// memSender counts nudges; run plays the outbox worker without its
// budget (package mailer tests the budget): each promise becomes a
// confirmation link or a welcome, and leaves the store.
type memSender struct {
	mu       sync.Mutex
	nudges   int
	confirms []string // link per confirmation sent
	to       []string
	welcomes []Watch
}

func (s *memSender) Nudge() {
	s.mu.Lock()
	s.nudges++
	s.mu.Unlock()
}

type svcEnv struct {
	svc    *Service
	st     *memStore
	sender *memSender
}

func (e *svcEnv) run(t *testing.T) {
	t.Helper()
	ps, _ := e.st.PendingMail(context.Background())
	for _, p := range ps {
		switch p.Kind {
		case MailConfirmation:
			link, _, err := e.svc.ConfirmationLink(p)
			if err != nil {
				t.Fatal(err)
			}
			e.sender.confirms, e.sender.to = append(e.sender.confirms, link), append(e.sender.to, p.Email)
		case MailWelcome:
			if w, err := e.st.GetWatch(context.Background(), p.WatchID); err == nil {
				e.sender.welcomes = append(e.sender.welcomes, w)
			}
		}
		_ = e.st.MailDone(context.Background(), p.Address, []string{p.ID}, time.Time{})
	}
}

// welcomes delivers the promised mail and counts the welcome mails sent.
func (e *svcEnv) welcomes(t *testing.T) int {
	e.run(t)
	return len(e.sender.welcomes)
}

// emptyIndex answers every filter as the empty index these tests open
// does: nothing matches, so a new watch's baseline is empty (the one
// answer is notices.Service's, which imports this package).
type emptyIndex struct{}

func (emptyIndex) Baseline(context.Context, Filter, int, view.Links) ([]string, []string, error) {
	return nil, nil, nil
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
		RequestsPerClient: 20, RequestsPerDay: 1000, FairShareAfter: 0.75, FairShareRequests: 2}
	if tweak != nil {
		tweak(&cfg)
	}
	e := &svcEnv{st: newMemStore(), sender: &memSender{}}
	e.svc, err = NewService(cfg, ServiceDeps{Store: e.st, Readers: Readers{Search: be, People: people.New(be, entity.DefaultCrosswalk()), Meetings: &meeting.Service{Records: be, Notices: be}}, Baseline: emptyIndex{},
		Parse: ParseOptions{Crosswalk: entity.DefaultCrosswalk()}, Signer: signer, Sender: e.sender, Now: func() time.Time { return svcNow }})
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
	if len(e.st.watches) != 0 || len(e.sender.confirms) != 0 || len(e.st.mail) != 1 || e.sender.nudges != 1 {
		t.Fatal("a watch was stored or mail sent on the request path, or the confirmation was not stored")
	}
	e.run(t)
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
	e.run(t)
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

// TestServiceBoundsUntouchedWatches: an address holds at most
// MaxUntouched watches its owner never acted on (+tags folded), whoever
// asks; past it every request for it is refused with the same answer;
// its owner can still add one with a manage link of one of its mails,
// and using a manage link touches the watch it names.
func TestServiceBoundsUntouchedWatches(t *testing.T) {
	e := newSvc(t, 1, func(c *ServiceConfig) { c.MaxUntouched = 3 })
	ctx := context.Background()
	f := Filter{Lens: record.LensMoney, AnyOf: []string{"construction"}}
	var first Outcome
	for i, addr := range []string{"kim+a@example.org", "KIM+b@example.org", "kim@example.org"} {
		out, err := e.svc.Subscribe(ctx, Request{Email: addr, Filter: &f, Client: "stranger" + addr})
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
	_, err := e.svc.Subscribe(ctx, Request{Email: "kim+d@example.org", Filter: &f, Client: "another"})
	if !errors.Is(err, ErrAddressFull) {
		t.Fatalf("the fourth untouched request: %v, want ErrAddressFull", err)
	}
	_, other := e.svc.Subscribe(ctx, Request{Email: "lee@example.org", Filter: &f})
	if other != nil {
		t.Fatalf("another address: %v", other)
	}
	if len(e.st.watches) != 4 || len(e.st.mail) != 4 {
		t.Errorf("%d watches and %d mails stored, want 4 and 4", len(e.st.watches), len(e.st.mail))
	}
	// the owner, from a link in one of its mails
	var kim string
	for id, w := range e.st.watches {
		if AddressKey(w.Email) == "kim@example.org" {
			kim = id
		}
	}
	manage, _, _ := e.svc.ManageLinks(kim)
	tok := strings.TrimPrefix(manage, "http://rw.test/manage/")
	out, err := e.svc.Subscribe(ctx, Request{Email: "kim@example.org", Filter: &f, Manage: tok})
	if err != nil || out.Status != StatusActive {
		t.Fatalf("the owner's request from a manage link: %+v %v", out, err)
	}
	asked := 0
	for _, p := range e.st.mail {
		if p.Asked {
			asked++
		}
	}
	if asked != 1 {
		t.Errorf("%d asked mails, want the owner's 1", asked)
	}
	if _, err := e.svc.Subscribe(ctx, Request{Email: "lee@example.org", Filter: &f, Manage: tok}); record.ErrorCode(err) != record.EINVALID {
		t.Errorf("kim's manage link for lee: %v, want EINVALID", err)
	}
	if _, err := e.svc.Subscribe(ctx, Request{Email: "kim@example.org", Filter: &f, Manage: tok + "x"}); record.ErrorCode(err) != record.EINVALID {
		t.Errorf("a forged manage link: %v, want EINVALID", err)
	}
	// a manage link used touches its watch: room for one more
	if _, err := e.svc.Manage(ctx, tok); err != nil {
		t.Fatal(err)
	}
	if e.st.watches[kim].Untouched {
		t.Error("the manage page did not touch the watch")
	}
	if _, err := e.svc.Subscribe(ctx, Request{Email: "kim+e@example.org", Filter: &f}); err != nil {
		t.Errorf("after a touch: %v", err)
	}
	// "this wasn't me": everything of the address goes, and only its
	remove, err := e.svc.RemoveAllLink("KIM+z@example.org")
	if err != nil {
		t.Fatal(err)
	}
	rt := strings.TrimPrefix(remove, "http://rw.test/remove/")
	if r, err := e.svc.Removable(ctx, rt); err != nil || r.Watches != 5 || r.Mails != 5 {
		t.Fatalf("removable %+v %v", r, err)
	}
	if r, err := e.svc.RemoveAll(ctx, rt); err != nil || r.Watches != 5 || r.Mails != 5 || len(e.st.watches) != 1 || len(e.st.mail) != 1 {
		t.Fatalf("remove all %+v %v: %d watches, %d mails left", r, err, len(e.st.watches), len(e.st.mail))
	}
	if r, err := e.svc.RemoveAll(ctx, rt); err != nil || r.Watches != 0 {
		t.Errorf("again: %+v %v", r, err)
	}
	if _, err := e.svc.RemoveAll(ctx, rt+"x"); !errors.Is(err, ErrBadLink) {
		t.Errorf("forged: %v", err)
	}
	e.st.down = true
	if _, err := e.svc.Subscribe(ctx, Request{Email: "lee@example.org", Filter: &f}); record.ErrorCode(err) != record.EUNAVAILABLE {
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
	if len(e.st.mail) != 0 {
		t.Errorf("%d mails stored", len(e.st.mail))
	}
}

// A watch's scope note: the one kept with it; for a watch stored before
// notes were kept, its filter's note when that says exactly the stored
// scope; none when it would say anything else, or for a follow.
func TestWatchScopeNote(t *testing.T) {
	f := Filter{Lens: "money", AgencyIDs: []string{"parks-and-recreation"}}
	kept := DescribeNote(f, map[string]string{"parks-and-recreation": "Parks and Recreation"})
	for _, c := range []struct {
		name string
		w    Watch
		want record.Note
	}{
		{"kept", Watch{Filter: f, Scope: kept.String(), ScopeKey: kept}, kept},
		{"stored before, agencies by id", Watch{Filter: f, Scope: DescribeNote(f, nil).String()}, DescribeNote(f, nil)},
		{"stored before, agencies by name", Watch{Filter: f, Scope: kept.String()}, record.Note{}},
		{"a kept note that says another scope", Watch{Filter: f, Scope: "something else", ScopeKey: kept}, record.Note{}},
		{"a follow", Watch{Filter: Filter{Lens: "money"}, Follow: &Follow{Kind: "notice", ID: "1"}, Scope: DescribeNote(Filter{Lens: "money"}, nil).String()}, record.Note{}},
	} {
		if got := c.w.ScopeNote(); got.String() != c.want.String() || got.Key != c.want.Key {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}
