package dossier

import (
	"context"
	"strings"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Relation types.
const (
	AwardedBy     = "awarded_by"      // vendor → agency
	PartyToMatter = "party_to_matter" // vendor → procurement matter
	AwardedTo     = "awarded_to"      // agency → vendor
	// From registered contract rows and payments:
	ContractedWith = "contracted_with" // vendor → agency, agency → vendor: registered contract rows
	PaidBy         = "paid_by"         // vendor (payee) → paying agency: payments
	PaidTo         = "paid_to"         // agency → vendor (payee): payments
	PaidUnder      = "paid_under"      // vendor (payee) → contract: payments naming the contract id
)

// How each relation is read (Relation.Method), and how sure it is.
const (
	MethodAwardNotice     = "award_notice"        // an award or intent notice naming the vendor (by name stem) and its agency (crosswalk)
	MethodAwardPIN        = "award_notice_pin"    // the PIN printed on an award notice of the vendor
	MethodRegistration    = "registration"        // a registered contract row: its vendor by name stem, its agency by the crosswalk
	MethodPayee           = "payment_payee"       // a payment: its payee by name stem, the paying agency by the crosswalk
	MethodPaymentContract = "payment_contract_id" // a payment to the payee (by name stem) naming the contract id in its own field
)

// RelationMethods says what each method means.
var RelationMethods = map[string]string{
	MethodAwardNotice:     "award and intent notices naming this vendor (by name stem) and this agency",
	MethodAwardPIN:        "the PIN printed on an award notice of this vendor",
	MethodRegistration:    "registered contract rows of this vendor (by name stem) at this agency (the crosswalk's id of the row's agency)",
	MethodPayee:           "payments to this payee (by name stem) by this agency (the crosswalk's id of the paying agency); payees redacted for privacy are never matched",
	MethodPaymentContract: "payments to this payee (by name stem) whose own contract id field names this contract",
}

// MaxRelations bounds the relations of one type; MaxSourceRows the source
// row ids an edge lists (Count counts all).
const (
	MaxRelations  = 20
	MaxSourceRows = 3
)

// Relation is one public link of an entity, with its provenance: the
// method that read it, how sure it is, the rows behind it (a few ids;
// RowFilter lists every one through the row list) and their count.
type Relation struct {
	Type       string `json:"type"`
	TargetKind string `json:"target_kind"` // agency, vendor, matter, contract
	TargetID   string `json:"target_id"`   // canonical id, stem, PIN or contract id
	TargetName string `json:"target_name"`
	Count      int    `json:"count"`
	// Amount sums the valid amounts of the records behind the link (for
	// registrations, registered value of registered rows only); nil when
	// the link is not a sum (a matter).
	Amount     *float64 `json:"valid_amount_total"`
	Provenance string   `json:"provenance"`
	Method     string   `json:"method"`
	Confidence string   `json:"confidence"`
	// SourceRows are ids of the records behind the link (request ids of
	// notices, row ids of registrations and payments), at most
	// MaxSourceRows; RowFilter is the row list's filter that lists them
	// all (kind, vendor_stem, agency_id, contract_id), nil for notices.
	SourceRows []string          `json:"source_rows"`
	RowFilter  map[string]string `json:"row_filter,omitempty"`
}

// Relations are an entity's public links.
type Relations struct {
	Kind      string
	ID, Name  string
	Relations []Relation
	Leaders   *people.Leadership // agencies only
}

// Relationships reads the public links of one vendor (its agencies and the
// matters printed on its awards) or agency (its top vendors, and the state
// of its leader roster: the leader nodes of every roster release held).
//
// Errors: EINVALID for another kind or an empty name, and those of Vendor
// and Agency (EINVALID, ENOTFOUND, EUNAVAILABLE).
func (s *Service) Relationships(ctx context.Context, kind, name string) (*Relations, error) {
	if err := CheckKind(kind, name); err != nil {
		return nil, err
	}
	out := &Relations{Kind: kind, Relations: []Relation{}}
	switch kind {
	case KindVendor:
		v, err := s.Vendor(ctx, name)
		if err != nil {
			return nil, err
		}
		out.ID, out.Name = v.Stem, v.Name
		rels, err := s.VendorRelations(ctx, v)
		if err != nil {
			return nil, err
		}
		out.Relations = rels
	case KindAgency:
		a, err := s.Agency(ctx, name)
		if err != nil {
			return nil, err
		}
		out.ID, out.Name = a.ID, a.Name
		rels, err := s.AgencyRelations(ctx, a)
		if err != nil {
			return nil, err
		}
		out.Relations = rels
		l, err := s.People.Leaders(ctx, a.ID)
		if err != nil {
			if record.ErrorCode(err) != record.EUNAVAILABLE {
				return nil, err
			}
			l = people.Leadership{AgencyID: a.ID, State: people.Unknown, Nodes: []people.Leader{}}
			l.Say(people.LeadersUnavailable)
		}
		out.Leaders = &l
	}
	return out, nil
}

// CheckKind validates a dossier request. Errors: EINVALID.
func CheckKind(kind, name string) error {
	if kind != KindVendor && kind != KindAgency {
		return record.InvalidNote("kind", "param.dossier_kind")
	}
	if strings.TrimSpace(name) == "" {
		return record.InvalidNote("name", "param.required", "name")
	}
	return nil
}

// VendorRelations are a vendor's links from every record held: agencies
// by award notices, registered contract rows and payments; matters by
// the PINs of its awards; contracts by the payments naming them. Errors:
// EUNAVAILABLE.
func (s *Service) VendorRelations(ctx context.Context, v *Vendor) ([]Relation, error) {
	out := []Relation{}
	for _, a := range v.Awards.Agencies {
		amt := a.Amount
		out = append(out, Relation{Type: AwardedBy, TargetKind: KindAgency, TargetID: a.ID, TargetName: a.Name, Count: a.Count, Amount: &amt,
			Provenance: RelationMethods[MethodAwardNotice], Method: MethodAwardNotice, Confidence: entity.ConfidenceMedium,
			SourceRows: s.awardRows(v.Notices, a.ID)})
	}
	seen := map[string]bool{}
	for _, n := range v.Notices {
		if n.PIN == "" || seen[n.PIN] {
			continue
		}
		seen[n.PIN] = true
		out = append(out, Relation{Type: PartyToMatter, TargetKind: "matter", TargetID: n.PIN, TargetName: n.Title,
			Count: 1, Provenance: "the PIN printed on award notice " + n.RequestID, Method: MethodAwardPIN, Confidence: entity.ConfidenceHigh,
			SourceRows: []string{n.RequestID}})
	}
	keys := map[string][]string{search.KeyVendorStem: {v.Stem}}
	edges, err := s.rowEdges(ctx, procure.RowContract, keys, search.KeyAgencyID)
	if err != nil {
		return nil, err
	}
	for _, e := range edges {
		out = append(out, s.agencyEdge(ContractedWith, MethodRegistration, e, map[string]string{"kind": procure.RowContract, "vendor_stem": v.Stem, "agency_id": e.value}))
	}
	if edges, err = s.rowEdges(ctx, procure.RowPayment, keys, search.KeyAgencyID); err != nil {
		return nil, err
	}
	for _, e := range edges {
		out = append(out, s.agencyEdge(PaidBy, MethodPayee, e, map[string]string{"kind": procure.RowPayment, "vendor_stem": v.Stem, "agency_id": e.value}))
	}
	if edges, err = s.rowEdges(ctx, procure.RowPayment, keys, search.KeyContractID); err != nil {
		return nil, err
	}
	for _, e := range edges {
		amt := e.amount
		out = append(out, Relation{Type: PaidUnder, TargetKind: "contract", TargetID: e.value, TargetName: e.value, Count: e.count, Amount: amt,
			Provenance: RelationMethods[MethodPaymentContract], Method: MethodPaymentContract, Confidence: entity.ConfidenceMedium,
			SourceRows: e.rows, RowFilter: map[string]string{"kind": procure.RowPayment, "vendor_stem": v.Stem, "contract_id": e.value}})
	}
	return out, nil
}

// AgencyRelations are an agency's links to vendors from every record
// held: award notices, registered contract rows and payments. Errors:
// EUNAVAILABLE.
func (s *Service) AgencyRelations(ctx context.Context, a *Agency) ([]Relation, error) {
	out := []Relation{}
	for _, v := range a.Awards.TopVendors {
		amt := v.Amount
		out = append(out, Relation{Type: AwardedTo, TargetKind: KindVendor, TargetID: v.Value, TargetName: v.Value,
			Count: v.Count, Amount: &amt, Provenance: "award and intent notices of this agency naming the vendor (by stem)",
			Method: MethodAwardNotice, Confidence: entity.ConfidenceMedium})
	}
	keys := map[string][]string{search.KeyAgencyID: {a.ID}}
	for _, k := range []struct{ kind, typ, method string }{
		{procure.RowContract, ContractedWith, MethodRegistration}, {procure.RowPayment, PaidTo, MethodPayee}} {
		edges, err := s.rowEdges(ctx, k.kind, keys, search.KeyVendorStem)
		if err != nil {
			return nil, err
		}
		for _, e := range edges {
			out = append(out, Relation{Type: k.typ, TargetKind: KindVendor, TargetID: e.value, TargetName: e.name, Count: e.count, Amount: e.amount,
				Provenance: RelationMethods[k.method], Method: k.method, Confidence: entity.ConfidenceMedium, SourceRows: e.rows,
				RowFilter: map[string]string{"kind": k.kind, "vendor_stem": e.value, "agency_id": a.ID}})
		}
	}
	return out, nil
}

// agencyEdge is a relation of a vendor to an agency from an edge.
func (s *Service) agencyEdge(typ, method string, e edge, filter map[string]string) Relation {
	name := e.value
	if ag, ok := s.Procure.Crosswalk.Agency(e.value); ok {
		name = ag.Name
	}
	return Relation{Type: typ, TargetKind: KindAgency, TargetID: e.value, TargetName: name, Count: e.count, Amount: e.amount,
		Provenance: RelationMethods[method], Method: method, Confidence: entity.ConfidenceMedium, SourceRows: e.rows, RowFilter: filter}
}

// awardRows are the request ids of the listed award notices of an agency.
func (s *Service) awardRows(ns []record.Notice, agency string) []string {
	var out []string
	for _, n := range ns {
		if n.AgencyID == agency && len(out) < MaxSourceRows {
			out = append(out, n.RequestID)
		}
	}
	return out
}

// edge is one group of rows behind a relation: the value of the grouping
// key, its count, its valid-amount sum (registered rows only for
// registrations; nil when none is valid) and a few row ids.
type edge struct {
	value, name string
	count       int
	amount      *float64
	rows        []string
}

// rowEdges groups the rows of one kind (procure.RowContract or
// RowPayment) that keys match by the key by, at most MaxRelations groups
// (the largest first), each with MaxSourceRows row ids.
func (s *Service) rowEdges(ctx context.Context, kind string, keys map[string][]string, by string) ([]edge, error) {
	rs, err := s.Procure.RecordReader()
	if err != nil {
		return nil, err
	}
	rk := procure.KindPayment
	if kind == procure.RowContract {
		rk = procure.ContractKind.Name
	}
	q := search.RecordQuery{Kinds: []string{rk}, Keys: keys}
	t, err := rs.RecordTotals(ctx, q, []string{by}, MaxRelations)
	if err != nil {
		return nil, err
	}
	sums := map[string]search.Bucket{}
	if kind == procure.RowContract { // registered value: registered rows only
		rq := q
		rq.Keys = map[string][]string{procure.KeyRegistration: {procure.RegistrationDated}}
		for k, v := range keys {
			rq.Keys[k] = v
		}
		rt, err := rs.RecordTotals(ctx, rq, []string{by}, 0)
		if err != nil {
			return nil, err
		}
		for _, b := range rt.Groups[by] {
			sums[b.Value] = b
		}
	}
	var out []edge
	for _, b := range t.Groups[by] {
		e := edge{value: b.Value, name: b.Value, count: b.Count}
		sum := b
		if kind == procure.RowContract {
			sum = sums[b.Value]
		}
		if sum.ValidAmounts > 0 {
			v := search.RoundCents(sum.Amount)
			e.amount = &v
		}
		eq := q
		eq.Keys = map[string][]string{by: {b.Value}}
		for k, v := range keys {
			eq.Keys[k] = v
		}
		eq.Sort, eq.Limit = search.RecordSortDateDesc, MaxSourceRows
		p, err := rs.FindRecords(ctx, eq)
		if err != nil {
			return nil, err
		}
		for _, r := range p.Records {
			e.rows = append(e.rows, r.ID)
		}
		if by == search.KeyVendorStem && len(p.Records) > 0 {
			if row, err := procure.PaymentKind.Decode(p.Records[0]); err == nil && kind == procure.RowPayment {
				e.name = strings.TrimSpace(row.VendorName)
			} else if c, err := procure.ContractKind.Decode(p.Records[0]); err == nil && kind == procure.RowContract {
				e.name = strings.TrimSpace(c.VendorName)
			}
		}
		out = append(out, e)
	}
	return out, nil
}
