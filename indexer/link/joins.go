package link

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/joins"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Links collects the link records (record.Link) that the link stage of a
// batch finds; the pipeline writes them as joins.Kind records after
// the batch's own records. The same pair of records found twice (from
// either end) is one link, the strongest.
type Links struct {
	mu   sync.Mutex
	byID map[string]record.Link
}

// Add keeps links, the strongest of each pair.
func (c *Links) Add(ls ...record.Link) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byID == nil {
		c.byID = map[string]record.Link{}
	}
	for _, l := range ls {
		if old, ok := c.byID[l.ID]; ok && rankMethod(old.Method, old.SameProcurement) <= rankMethod(l.Method, l.SameProcurement) {
			continue
		}
		c.byID[l.ID] = l
	}
}

// Take returns the links kept, sorted by id, and empties c.
func (c *Links) Take() []record.Link {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]record.Link, 0, len(c.byID))
	for _, l := range c.byID {
		out = append(out, l)
	}
	c.byID = nil
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

func rankMethod(method string, same bool) int {
	if method == record.LinkExactContractID {
		return -1
	}
	return rank(entity.Join{Method: method, SameProcurement: same})
}

// Record is the link as a link record: its method, confidence and
// evidence (the method's meaning and the value the two records share).
func (l Link) Record() record.Link {
	ev := l.Join.Note()
	if l.Key != "" {
		ev += " (" + l.Key + ")"
	}
	return record.NewLink(record.Ref{Kind: l.From.Kind, ID: l.From.ID}, record.Ref{Kind: l.To.Kind, ID: l.To.ID}, l.Key,
		l.Method, l.Confidence, l.SameProcurement, ev)
}

// Records are links as link records.
func Records(ls []Link) []record.Link {
	out := make([]record.Link, 0, len(ls))
	for _, l := range ls {
		out = append(out, l.Record())
	}
	return out
}

// RedactedPayee reports whether a payee name is a redaction ("N/A
// (PRIVACY/SECURITY)" in Checkbook NYC): such a payment has no vendor
// stem, so it is never joined or counted by name.
func RedactedPayee(name string) bool {
	n := strings.ToUpper(strings.TrimSpace(name))
	return strings.Contains(n, "PRIVACY") || strings.Contains(n, "REDACTED") || strings.HasPrefix(n, "N/A")
}

// JoinPayments links each registration to the payments that name its
// exact contract id (method exact_contract_id, confidence high, the same
// contract). Payroll payments name no contract. A payment is never joined
// by its payee's name.
func JoinPayments(contracts []record.Contract, payments []procure.Payment) []record.Link {
	byContract := map[string][]int{}
	for i, p := range payments {
		if p.ContractID != "" && !p.Payroll {
			byContract[p.ContractID] = append(byContract[p.ContractID], i)
		}
	}
	var out []record.Link
	for _, c := range contracts {
		if c.ContractID == "" {
			continue
		}
		for _, i := range byContract[c.ContractID] {
			p := payments[i]
			out = append(out, record.NewLink(record.Ref{Kind: record.RefContract, ID: c.ID}, record.Ref{Kind: record.RefPayment, ID: p.ID},
				c.ContractID, record.LinkExactContractID, entity.ConfidenceHigh, true,
				"the payment names contract id "+c.ContractID+", the registration's exact contract id"))
		}
	}
	return out
}

// JoinPaymentPINs links each payment that states a PIN itself (not a
// payroll row, not a placeholder PIN) to that PIN without renewal
// suffixes (a joins.RefPIN end), by entity's PIN rule: exact, or renewal
// when it states a renewal, confidence high. The link carries the PIN
// group (joins.KeyPINGroup), so a procurement matter finds the payment
// among the records of its PIN group, as it finds notices and
// registrations, and says how the payment's PIN relates to the one asked.
func JoinPaymentPINs(payments []procure.Payment) []record.Link {
	var out []record.Link
	for _, p := range payments {
		if p.Payroll || entity.JunkPIN(p.PIN) {
			continue
		}
		key, _ := entity.PINKeys(p.PIN)
		pin := entity.StripRenewal(key)
		j, ok := entity.JoinPINs(pin, p.PIN)
		if pin == "" || !ok {
			continue
		}
		out = append(out, record.NewLink(record.Ref{Kind: record.RefPayment, ID: p.ID}, record.Ref{Kind: joins.RefPIN, ID: pin},
			pin, j.Method, j.Confidence, j.SameProcurement, "the payment states PIN "+strings.TrimSpace(p.PIN)+" itself"))
	}
	return out
}

// chunks calls f with parts of vs of at most n values.
func chunks(vs []string, n int, f func([]string) error) error {
	for start := 0; start < len(vs); start += n {
		if err := f(vs[start:min(start+n, len(vs))]); err != nil {
			return err
		}
	}
	return nil
}

// maxNoticePages bounds the pages of notices read for one query of the
// joins (search.MaxLimit notices a page).
const maxNoticePages = 10

// heldNotices reads the notices held that carry one of the PINs (as
// written, normalized, without renewals) or their 10-character bases, or
// one of the request ids.
func heldNotices(ctx context.Context, r search.Reader, pinList, requests []string) ([]record.Notice, error) {
	if r == nil {
		return nil, nil
	}
	var pins, bases []string
	for _, p := range pinList {
		if entity.JunkPIN(p) {
			continue
		}
		key, base := entity.PINKeys(p)
		pins = append(pins, strings.TrimSpace(p), key, entity.StripRenewal(key))
		if base != "" {
			bases = append(bases, base)
		}
	}
	seen := map[string]bool{}
	var out []record.Notice
	run := func(q search.Query) error {
		q.Sort, q.Limit = search.SortOldest, search.MaxLimit
		for page := 0; page < maxNoticePages; page++ {
			res, err := r.Search(ctx, q)
			if err != nil {
				return err
			}
			for _, h := range res.Hits {
				if !seen[h.Notice.RequestID] {
					seen[h.Notice.RequestID] = true
					out = append(out, h.Notice)
				}
			}
			if res.NextCursor == "" {
				return nil
			}
			q.Cursor = res.NextCursor
		}
		return nil
	}
	const per = 50 // values per notice filter (search.Query.Normalize)
	err := chunks(procure.UniqueNonEmpty(pins), per, func(p []string) error { return run(search.Query{PINs: p}) })
	if err == nil {
		err = chunks(procure.UniqueNonEmpty(bases), per, func(p []string) error { return run(search.Query{PINPrefixes: p}) })
	}
	if err == nil {
		err = chunks(procure.UniqueNonEmpty(requests), search.MaxRequestIDs, func(p []string) error {
			return run(search.Query{RequestIDs: p})
		})
	}
	return out, err
}

// heldRecords reads the records of kind k held whose key has one of the
// values.
func heldRecords[T any](ctx context.Context, rs search.RecordReader, k search.Kind[T], key string, values []string) ([]T, error) {
	if rs == nil {
		return nil, nil
	}
	var out []T
	err := chunks(procure.UniqueNonEmpty(values), search.MaxKeyValues, func(vs []string) error {
		q := search.RecordQuery{Keys: map[string][]string{key: vs}, Sort: search.RecordSortID, Limit: search.MaxRecordLimit}
		for {
			p, err := search.Find(ctx, rs, k, q)
			if err != nil {
				return err
			}
			out = append(out, p.Items...)
			if p.NextCursor == "" || len(p.Items) == 0 {
				return nil
			}
			q.Cursor = p.NextCursor
		}
	})
	return out, err
}

// joinContracts finds and keeps (env.Links) the links of registrations:
// to the notices held (Join: by PIN, by the source's request id), to the
// payments held or given that name their contract ids (JoinPayments), and
// from those notices to those payments.
func joinContracts(ctx context.Context, env Env, contracts []record.Contract, payments []procure.Payment) error {
	if env.Links == nil || len(contracts) == 0 {
		return nil
	}
	var pins, requests []string
	for _, c := range contracts {
		pins = append(pins, c.PIN)
		requests = append(requests, c.RequestID)
	}
	notices, err := heldNotices(ctx, env.Notices, pins, requests)
	if err != nil {
		return fmt.Errorf("link: reading the notices of %d contracts: %w", len(contracts), err)
	}
	var ids []string
	for _, c := range contracts {
		ids = append(ids, c.ContractID)
	}
	held, err := heldRecords(ctx, env.Records, procure.PaymentKind, search.KeyContractID, ids)
	if err != nil {
		return fmt.Errorf("link: reading the payments of %d contracts: %w", len(contracts), err)
	}
	seen := map[string]bool{}
	var all []procure.Payment
	for _, p := range append(payments, held...) {
		if !seen[p.ID] {
			seen[p.ID] = true
			all = append(all, p)
		}
	}
	env.Links.Add(Records(Join(notices, contracts, all))...)
	env.Links.Add(JoinPayments(contracts, all)...)
	return joinHeldContracts(ctx, env, contracts)
}

// joinHeldContracts keeps the links between the contracts given and the
// registrations held of the same PIN groups (JoinContracts).
func joinHeldContracts(ctx context.Context, env Env, contracts []record.Contract) error {
	var keys, bases []string
	mine := map[Ref]bool{}
	for _, c := range contracts {
		mine[Ref{RefContract, c.ID}] = true
		if entity.JunkPIN(c.PIN) {
			continue
		}
		key, base := entity.PINKeys(c.PIN)
		if base != "" {
			bases = append(bases, base)
		} else {
			keys = append(keys, key, entity.StripRenewal(key))
		}
	}
	all := append([]record.Contract(nil), contracts...)
	for _, part := range []struct {
		key    string
		values []string
	}{{search.KeyPINBase, bases}, {search.KeyPIN, keys}} {
		got, err := heldRecords(ctx, env.Records, procure.ContractKind, part.key, part.values)
		if err != nil {
			return fmt.Errorf("link: reading the registrations of %d PIN groups: %w", len(part.values), err)
		}
		all = append(all, got...)
	}
	env.Links.Add(Records(touching(JoinContracts(all), mine))...)
	return nil
}

// ContractSet and PaymentSet are the link functions of the pipeline's
// record sets of contracts and payments: identity fields first (agency
// ids, vendor stems, base PINs), then the joins to what is held, kept as
// link records.
func ContractSet(ctx context.Context, env Env, cs []record.Contract) []error {
	env.Linker.Contracts(cs)
	if err := joinContracts(ctx, env, cs, nil); err != nil {
		return []error{err}
	}
	return nil
}

// PaymentSet links payments (ContractSet): the registrations held that
// their contract ids name, with those registrations' notices.
func PaymentSet(ctx context.Context, env Env, ps []procure.Payment) []error {
	env.Linker.Payments(ps)
	if env.Links == nil {
		return nil
	}
	env.Links.Add(JoinPaymentPINs(ps)...)
	var ids []string
	for _, p := range ps {
		if !p.Payroll {
			ids = append(ids, p.ContractID)
		}
	}
	cs, err := heldRecords(ctx, env.Records, procure.ContractKind, search.KeyContractID, ids)
	if err == nil {
		err = joinContracts(ctx, env, cs, ps)
	}
	if err != nil {
		return []error{fmt.Errorf("link: payments: %w", err)}
	}
	return nil
}

// NoticeSet finds and keeps the links of notices to the notices held of
// the same PIN groups (JoinNotices), to the registrations held (by PIN,
// base PIN or the source's request id) and to the payments of those
// registrations: a notice published after its contract was registered (a
// live City Record run) is joined when it is written.
func NoticeSet(ctx context.Context, env Env, ns []record.Notice) error {
	if env.Links == nil || len(ns) == 0 {
		return nil
	}
	var pins []string
	mine := map[Ref]bool{}
	for _, n := range ns {
		pins = append(pins, n.PIN)
		mine[Ref{RefNotice, n.RequestID}] = true
	}
	held, err := heldNotices(ctx, env.Notices, pins, nil)
	if err != nil {
		return err
	}
	env.Links.Add(Records(touching(JoinNotices(append(append([]record.Notice(nil), ns...), held...)), mine))...)
	if env.Records == nil {
		return nil
	}
	if t, err := env.Records.RecordTotals(ctx, search.RecordQuery{Kinds: []string{procure.ContractKind.Name}}, nil, 0); err != nil {
		return err
	} else if t.Count == 0 {
		return nil // no registration held yet: they link to the notices when they are loaded
	}
	var keys, bases, requests []string
	for _, n := range ns {
		requests = append(requests, n.RequestID)
		if entity.JunkPIN(n.PIN) {
			continue
		}
		key, base := entity.PINKeys(n.PIN)
		keys = append(keys, key, entity.StripRenewal(key))
		bases = append(bases, base)
	}
	var cs []record.Contract
	for _, part := range []struct {
		key    string
		values []string
	}{{search.KeyPIN, keys}, {search.KeyPINBase, bases}, {search.KeyRequestID, requests}} {
		got, err := heldRecords(ctx, env.Records, procure.ContractKind, part.key, part.values)
		if err != nil {
			return err
		}
		cs = append(cs, got...)
	}
	if len(cs) == 0 {
		return nil
	}
	var ids []string
	for _, c := range cs {
		ids = append(ids, c.ContractID)
	}
	ps, err := heldRecords(ctx, env.Records, procure.PaymentKind, search.KeyContractID, ids)
	if err != nil {
		return err
	}
	env.Links.Add(Records(Join(ns, cs, ps))...)
	env.Links.Add(JoinPayments(cs, ps)...)
	return nil
}

// meetingLinks keeps the hearing-notice links the meetings' link stage
// decided (method, confidence and the evidence of what matched).
func meetingLinks(env Env, ms []meeting.Meeting) {
	for _, m := range ms {
		n := m.Notice
		if n.State != meeting.NoticeLinked || n.RequestID == "" {
			continue
		}
		ev := n.Evidence
		if len(n.Matched) > 0 {
			ev += " (matched: " + strings.Join(n.Matched, ", ") + ")"
		}
		env.Links.Add(record.NewLink(record.Ref{Kind: record.RefNotice, ID: n.RequestID}, record.Ref{Kind: record.RefMeeting, ID: m.ID},
			n.RequestID, n.Method, n.Confidence, false, ev))
	}
}

// landLinkRecords keeps the notice links of a land project as link
// records, their evidence joined by land.EvidenceSep.
func landLinkRecords(env Env, project string, links []land.NoticeLink) {
	for _, n := range links {
		if n.RequestID == "" {
			continue
		}
		l := record.NewLink(record.Ref{Kind: record.RefNotice, ID: n.RequestID}, record.Ref{Kind: record.RefLandProject, ID: project},
			n.RequestID, n.Method, n.Confidence, false, strings.Join(n.Evidence, land.EvidenceSep))
		if len(n.EvidenceKeys) > 0 {
			ev := land.JoinEvidence(n.EvidenceKeys)
			l.EvidenceKey = &ev
		}
		env.Links.Add(l)
	}
}
