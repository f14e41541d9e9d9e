package procure

import (
	"context"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/joins"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// BlanketAwards: a PIN carried by more award notices than this, with no
// solicitation and no intent to award, is a blanket chain, not one
// procurement.
const BlanketAwards = 5

// MaxPIN is the longest PIN a matter is asked by, in bytes.
const MaxPIN = 64

// Matter kinds.
const (
	KindProcurement = "procurement"
	KindBlanket     = "blanket_chain"
)

// Link says how a record was tied to the PIN asked for, how sure the join
// is, and whether the record's amount is summed with the matter's.
type Link struct {
	Method          string `json:"method"`
	Note            string `json:"note"`
	Confidence      string `json:"confidence"`
	SameProcurement bool   `json:"same_procurement"`
}

// PINLink links two PINs with method and confidence; ok is false when they
// are not linked.
func PINLink(asked, pin string) (Link, bool) {
	j, ok := entity.JoinPINs(asked, pin)
	if !ok {
		return Link{}, false
	}
	return linkOf(j, ""), true
}

// contractLink links a payment through its registration's link.
func contractLink(contractID string, reg Link) Link {
	j := entity.JoinByContract(entity.Join{Method: reg.Method, Confidence: reg.Confidence, SameProcurement: reg.SameProcurement})
	return linkOf(j, " ("+contractID+", registration linked by "+reg.Method+")")
}

// linkOf is a join as a matter shows it, its note said in words.
func linkOf(j entity.Join, detail string) Link {
	return Link{Method: j.Method, Note: j.Note() + detail, Confidence: j.Confidence, SameProcurement: j.SameProcurement}
}

// Step is one record on a matter's timeline.
type Step struct {
	Step      string // solicitation, intent, award, hearing, registration, payment …
	Date      time.Time
	DateLabel string // published, registered, paid …
	Record    string // notice, contract, payment
	PIN       string
	Link      Link
	Notice    *record.Notice // a notice step
	Row       *Row           // a contract or payment step
	rank      int
	id        string
}

// Matter is a procurement matter: every record held that one PIN joins,
// oldest first, each with how it was linked.
type Matter struct {
	Status   record.Availability // found, or not_found when nothing joins
	PIN      string              // as asked
	BasePIN  string              // without renewal suffixes
	Prefix   string              // the 10-character base ("" for a non-standard PIN)
	Kind     string              // KindProcurement or KindBlanket
	KindNote string
	KindKey  record.Note // KindNote as a note (key and arguments)
	Steps    []Step
	Counts   map[string]int // notices, contracts, payments
	Totals   MatterTotals
	// Ledger is registered vs paid by fiscal year over the records of the
	// same procurement (not those joined by base PIN alone), with the
	// coverage of the payments held.
	Ledger  Ledger
	Scope   record.Scope
	Absence []string
	// AbsenceKeys are the absence notes as notes (key and arguments).
	AbsenceKeys record.Notes
	// LinksComplete is false when the PIN group held more link records
	// than one answer reads (maxMatterPages pages of joins.MaxRead): the
	// steps joined through the group are then the first ones only, and
	// LinksNote says so.
	LinksComplete bool
	LinksNote     string
	// LinksNoteKey is LinksNote as a note (joins.Bound).
	LinksNoteKey *record.Note
}

// Records is how many records the matter holds: the one count of a matter,
// read by its page and by a shared investigation that pins it.
func (m *Matter) Records() int { return len(m.Steps) }

// MatterTotals sums the valid amounts of a matter's same-procurement
// records; Apart sums, separately, those joined by base PIN alone.
type MatterTotals struct {
	Awarded, Registered, Paid Sum
	Apart                     Apart
}

// Apart are the records joined by the 10-character base PIN alone: shown
// with their method, summed apart, never added to the matter's totals.
type Apart struct {
	Method                    string
	Records                   int
	Awarded, Registered, Paid Sum
}

// TotalsKey says what a matter's totals add; TotalsNote is its English.
var (
	TotalsKey  = record.N("procure.matter.totals")
	TotalsNote = TotalsKey.String()
)

// stepOf names a notice's step and its order within a day.
func stepOf(n record.Notice) (string, int) {
	t := strings.ToLower(n.NoticeType)
	switch {
	case strings.EqualFold(n.Section, record.SectionContractHearings):
		return "hearing", 3
	case t == "solicitation":
		return "solicitation", 1
	case t == "vendor list":
		return "vendor list", 1
	case strings.HasPrefix(t, "intent"):
		return "intent", 2
	case t == "award":
		return "award", 4
	case t == "":
		return record.Slug(n.Section), 5
	}
	return record.Slug(n.NoticeType), 5
}

// Matter reads the matter of a PIN as printed: the notices and
// registrations that carry it (as written, normalized or without renewal
// suffixes) and those the link stage joined to its PIN group at index time
// (link records by PIN, joins.KeyPINGroup: its renewals, its 10-character base;
// each step says how it relates to the PIN asked, entity's PIN rule); the
// payments the link stage joined to those registrations (link records of
// method exact_contract_id; on the timeline, link method contract, as sure
// as the registration's link to the PIN); and the payments that state the
// PIN themselves (link records to the PIN they state, joins.RefPIN, in the
// PIN group; on the timeline linked by PIN like a notice). Every payment
// is a step with its link method; a matter with none reads "no payments
// held". When nothing joins, the Matter has Status not_found, no steps
// and its scope, and the error is nil.
//
// Errors: ENOTFOUND when the PIN is a placeholder (blank, N/A, TBD, 0 …);
// EINVALID when it is longer than MaxPIN; EUNAVAILABLE when the records or the
// index cannot be read.
func (s *Service) Matter(ctx context.Context, pin string) (*Matter, error) {
	asked := strings.TrimSpace(pin)
	if entity.JunkPIN(asked) {
		return nil, &record.Error{Code: record.ENOTFOUND, Param: "pin",
			Message: strconv.Quote(asked) + " is a placeholder, not a PIN: blank, N/A, NONE, TBD, 0 and the like never form a procurement matter"}
	}
	if len(asked) > MaxPIN {
		return nil, record.Invalid("pin", "a PIN is at most %d characters", MaxPIN)
	}
	if _, err := s.RecordReader(); err != nil {
		return nil, err
	}
	norm := entity.NormalizePIN(asked)
	base := entity.StripRenewal(norm)
	prefix := entity.PINBase(base)
	exact := UniqueNonEmpty([]string{asked, norm, base})

	// the notices and registrations that carry the PIN (as written,
	// normalized, without renewals), and those the link stage joined to
	// its PIN group (link records by PIN: the same PIN, a renewal, the
	// same 10-character base)
	notices, err := s.noticePages(ctx, search.Query{PINs: exact})
	if err != nil {
		return nil, err
	}
	regs, err := s.Rows(ctx, RowQuery{PINs: exact, Kinds: []string{RowContract}, Limit: search.MaxRecordLimit})
	if err != nil {
		return nil, err
	}
	contracts := append([]Row(nil), regs.Rows...)
	joinedNotices, joinedContracts, joinedPayments, complete, err := s.groupMembers(ctx, joins.PINGroup(asked))
	if err != nil {
		return nil, err
	}
	more, err := s.noticesByID(ctx, joinedNotices)
	if err != nil {
		return nil, err
	}
	notices = append(notices, more...)
	joined, err := s.rowsByID(ctx, RowContract, joinedContracts)
	if err != nil {
		return nil, err
	}
	contracts = append(contracts, joined...)
	// payments: those the link stage joined to these registrations (link
	// records, contract-payment, method exact_contract_id)
	var contractRefs []record.Ref
	for _, e := range contracts {
		contractRefs = append(contractRefs, record.Ref{Kind: record.RefContract, ID: e.ID})
	}
	payLinks, payComplete, err := s.paymentLinks(ctx, contractRefs)
	if err != nil {
		return nil, err
	}
	payments, err := s.rowsByID(ctx, RowPayment, payLinks)
	if err != nil {
		return nil, err
	}
	// payments that state the PIN themselves: the link stage linked them
	// to their PIN (joins.RefPIN) in the PIN group
	direct, err := s.rowsByID(ctx, RowPayment, joinedPayments)
	if err != nil {
		return nil, err
	}

	m := &Matter{Status: record.Found, PIN: asked, BasePIN: base, Prefix: prefix, Kind: KindProcurement, Steps: []Step{},
		Counts: map[string]int{},
		Totals: MatterTotals{Awarded: Sum{Absent: NoAwardsKey}, Registered: Sum{Absent: NoContractsKey}, Paid: Sum{Absent: NoPaymentsKey},
			Apart: Apart{Method: entity.PINPrefix, Awarded: Sum{Absent: NoAwardsKey}, Registered: Sum{Absent: NoContractsKey}, Paid: Sum{Absent: NoPaymentsKey}}},
		LinksComplete: complete && payComplete}
	var cut record.Note
	switch {
	case !complete:
		cut = joins.Bound(joins.BoundMatterLinks, maxMatterPages*joins.MaxRead)
	case !payComplete:
		cut = joins.Bound(joins.BoundMatterPayments, joins.MaxRead)
	}
	if !cut.IsZero() {
		m.LinksNote, m.LinksNoteKey = cut.String(), &cut
	}
	// sums picks the totals a link adds to
	sums := func(l Link) (awarded, registered, paid *Sum) {
		if l.SameProcurement {
			return &m.Totals.Awarded, &m.Totals.Registered, &m.Totals.Paid
		}
		m.Totals.Apart.Records++
		return &m.Totals.Apart.Awarded, &m.Totals.Apart.Registered, &m.Totals.Apart.Paid
	}
	seen := map[string]bool{}
	var matched []record.Notice
	for _, n := range notices {
		if seen["n:"+n.RequestID] {
			continue
		}
		link, ok := PINLink(asked, n.PIN)
		if !ok {
			continue
		}
		seen["n:"+n.RequestID] = true
		n := n
		step, rank := stepOf(n)
		matched = append(matched, n)
		m.Steps = append(m.Steps, Step{Step: step, Date: n.StartDate, DateLabel: "published", Record: "notice", PIN: n.PIN,
			Link: link, Notice: &n, rank: rank, id: n.RequestID})
		awarded, _, _ := sums(link)
		if step == "award" || step == "intent" {
			awarded.add(n.AmountValid, n.Amount)
		}
		m.Counts["notices"]++
	}
	linked := map[string]Link{} // contract row id → how its registration was linked
	for _, e := range contracts {
		if seen["e:"+e.ID] {
			continue
		}
		link, ok := PINLink(asked, e.PIN)
		if !ok {
			continue
		}
		seen["e:"+e.ID] = true
		e := e
		step := "registration"
		if e.DateLabel != "registered" {
			step = "contract (" + strings.TrimSpace(e.Status+" "+e.DateLabel) + ")"
		}
		if e.RequestID != "" {
			link.Note += "; the source also joins it to notice " + e.RequestID
		}
		m.Steps = append(m.Steps, Step{Step: step, Date: e.Date, DateLabel: e.DateLabel, Record: "contract", PIN: e.PIN,
			Link: link, Row: &e, rank: 6, id: e.ID})
		_, registered, _ := sums(link)
		if e.DateLabel == "registered" {
			registered.add(e.AmountValid, e.Amount)
		}
		linked[e.ID] = link
		m.Counts["contracts"]++
	}
	for _, e := range payments {
		reg, ok := strongest(linked, payLinks[e.ID])
		if seen["e:"+e.ID] || !ok {
			continue
		}
		seen["e:"+e.ID] = true
		e := e
		link := contractLink(e.ContractID, reg)
		m.Steps = append(m.Steps, Step{Step: "payment", Date: e.Date, DateLabel: e.DateLabel, Record: "payment",
			Link: link, Row: &e, rank: 7, id: e.ID})
		_, _, paid := sums(link)
		paid.add(e.AmountValid, e.Amount)
		m.Counts["payments"]++
	}
	for _, e := range direct {
		if seen["e:"+e.ID] {
			continue
		}
		link, ok := PINLink(asked, e.PIN)
		if !ok {
			continue
		}
		seen["e:"+e.ID] = true
		e := e
		link.Note += " (the payment states the PIN itself"
		if e.ContractID != "" {
			link.Note += "; the contract it names, " + e.ContractID + ", is not held under this PIN"
		}
		link.Note += ")"
		m.Steps = append(m.Steps, Step{Step: "payment", Date: e.Date, DateLabel: e.DateLabel, Record: "payment", PIN: e.PIN,
			Link: link, Row: &e, rank: 7, id: e.ID})
		_, _, paid := sums(link)
		paid.add(e.AmountValid, e.Amount)
		m.Counts["payments"]++
	}
	sort.SliceStable(m.Steps, func(i, j int) bool {
		a, b := m.Steps[i], m.Steps[j]
		if a.Date.IsZero() != b.Date.IsZero() {
			return !a.Date.IsZero()
		}
		if !a.Date.Equal(b.Date) {
			return a.Date.Before(b.Date)
		}
		if a.rank != b.rank {
			return a.rank < b.rank
		}
		return a.id < b.id
	})
	var same []Row
	for _, st := range m.Steps {
		if st.Row != nil && st.Link.SameProcurement {
			same = append(same, *st.Row)
		}
	}
	cov, err := s.PaymentsCoverage(ctx)
	if err != nil {
		return nil, err
	}
	m.Ledger = rowsLedger(same, record.Notes{JoinedByContractIDKey, joinedByPINItself}, cov)
	m.Scope, err = s.Scope(ctx, "procurement_matter", map[string]string{"pin": asked, "base_pin": base, "pin_prefix": prefix}, m.Records())
	if err != nil {
		return nil, err
	}
	if m.Records() == 0 {
		m.Status = record.NotFound
		return m, nil
	}
	if blanket, n := blanketChain(asked, matched); blanket {
		m.Kind = KindBlanket
		m.KindKey = record.N("procure.matter.blanket", n)
	} else {
		m.KindKey = record.N("procure.matter.one")
	}
	m.KindNote = m.KindKey.String()
	m.AbsenceKeys = record.Notes{record.N("procure.matter.timeline")}
	if m.Counts["contracts"] == 0 {
		m.AbsenceKeys = append(m.AbsenceKeys, record.N("procure.matter.no_registration"))
	}
	if m.Counts["payments"] == 0 {
		m.AbsenceKeys = append(m.AbsenceKeys, record.N("procure.matter.no_payments"))
	}
	if m.Totals.Apart.Records > 0 {
		m.AbsenceKeys = append(m.AbsenceKeys, record.N("procure.matter.apart", m.Totals.Apart.Records, prefix))
	}
	for _, n := range m.AbsenceKeys {
		m.Absence = append(m.Absence, n.String())
	}
	return m, nil
}

// blanketChain reports whether more than BlanketAwards notices carry
// exactly the PIN asked for and every one of them is an award notice; n is
// how many carry it. A solicitation or an intent to award on the PIN makes
// it one procurement: an intent announces one award to come, which a
// standing list of awards (a pre-qualified list, an umbrella contract)
// does not have.
func blanketChain(asked string, notices []record.Notice) (bool, int) {
	n := 0
	for _, x := range notices {
		if m, ok := entity.PINLink(asked, x.PIN); !ok || m != entity.PINExact {
			continue
		}
		n++
		if step, _ := stepOf(x); step != "award" {
			return false, n
		}
	}
	return n > BlanketAwards, n
}

// Blanket reports whether notices carrying a PIN form a blanket chain, and
// how many carry it exactly.
func Blanket(asked string, notices []record.Notice) (bool, int) { return blanketChain(asked, notices) }

// maxMatterPages bounds the pages of notices (search.MaxLimit each) and of
// link records (joins.MaxRead each) read for one matter.
const maxMatterPages = 5

// groupMembers reads the link records the link stage made by PIN within a
// PIN group (joins.KeyPINGroup): notice ↔ notice, notice ↔ contract,
// contract ↔ contract and payment → the PIN it states. It returns the
// notices (request id), contract rows and payments (row id) at their ends,
// as keys of maps for rowsByID.
// complete is false when the group holds more links than it reads.
func (s *Service) groupMembers(ctx context.Context, group string) (notices, contracts, payments map[string][]string, complete bool, err error) {
	notices, contracts, payments = map[string][]string{}, map[string][]string{}, map[string][]string{}
	if group == "" {
		return notices, contracts, payments, true, nil
	}
	rs, err := s.RecordReader()
	if err != nil {
		return nil, nil, nil, false, err
	}
	q := search.RecordQuery{Keys: map[string][]string{joins.KeyPINGroup: {group}}, Sort: search.RecordSortID, Limit: joins.MaxRead}
	for pages := 0; pages < maxMatterPages; pages++ {
		p, err := search.Find(ctx, rs, joins.Kind, q)
		if err != nil {
			return nil, nil, nil, false, err
		}
		for _, l := range p.Items {
			for _, r := range []record.Ref{l.From, l.To} {
				switch r.Kind {
				case record.RefNotice:
					notices[r.ID] = append(notices[r.ID], l.ID)
				case record.RefContract:
					contracts[r.ID] = append(contracts[r.ID], l.ID)
				case record.RefPayment:
					payments[r.ID] = append(payments[r.ID], l.ID)
				}
			}
		}
		if p.NextCursor == "" || len(p.Items) == 0 {
			return notices, contracts, payments, true, nil
		}
		q.Cursor = p.NextCursor
	}
	return notices, contracts, payments, false, nil // more pages held than one answer reads
}

// noticesByID reads the notices whose request ids are the keys of ids.
func (s *Service) noticesByID(ctx context.Context, ids map[string][]string) ([]record.Notice, error) {
	var want []string
	for id := range ids {
		want = append(want, id)
	}
	sort.Strings(want)
	var out []record.Notice
	for start := 0; start < len(want); start += search.MaxLimit {
		got, err := s.noticePages(ctx, search.Query{RequestIDs: want[start:min(start+search.MaxLimit, len(want))]})
		if err != nil {
			return nil, err
		}
		out = append(out, got...)
	}
	return out, nil
}

// noticePages reads the notices q finds, oldest first, at most
// maxMatterPages pages of search.MaxLimit.
func (s *Service) noticePages(ctx context.Context, q search.Query) ([]record.Notice, error) {
	q.Sort, q.Limit = search.SortOldest, search.MaxLimit
	var out []record.Notice
	for pages := 0; pages < maxMatterPages; pages++ {
		res, err := s.Search.Search(ctx, q)
		if err != nil {
			return nil, err
		}
		for _, h := range res.Hits {
			out = append(out, h.Notice)
		}
		if res.NextCursor == "" {
			break
		}
		q.Cursor = res.NextCursor
	}
	return out, nil
}

// paymentLinks reads the contract-payment link records of registrations:
// payment id → the contract row ids it is joined to.
// complete is false when more links are held than one read takes.
func (s *Service) paymentLinks(ctx context.Context, contracts []record.Ref) (map[string][]string, bool, error) {
	out := map[string][]string{}
	if len(contracts) == 0 {
		return out, true, nil
	}
	links, complete, err := s.Links(ctx, contracts, record.RefContract+"-"+record.RefPayment)
	if err != nil {
		return nil, false, err
	}
	for _, l := range links {
		out[l.To.ID] = append(out[l.To.ID], l.From.ID)
	}
	return out, complete, nil
}

// rowsByID reads the rows of one row kind whose ids are the keys of ids.
func (s *Service) rowsByID(ctx context.Context, kind string, ids map[string][]string) ([]Row, error) {
	var want []string
	for id := range ids {
		want = append(want, id)
	}
	sort.Strings(want)
	var out []Row
	for start := 0; start < len(want); start += search.MaxKeyValues {
		res, err := s.Rows(ctx, RowQuery{IDs: want[start:min(start+search.MaxKeyValues, len(want))], Kinds: []string{kind}, Limit: search.MaxRecordLimit})
		if err != nil {
			return nil, err
		}
		out = append(out, res.Rows...)
	}
	return out, nil
}

// strongest is the strongest of the links of the registrations a payment
// is joined to (a same-procurement link before one by base PIN alone).
func strongest(linked map[string]Link, contractRows []string) (Link, bool) {
	var best Link
	found := false
	for _, id := range contractRows {
		l, ok := linked[id]
		if ok && (!found || (!best.SameProcurement && l.SameProcurement)) {
			best, found = l, true
		}
	}
	return best, found
}
