package mcp

import (
	"context"
	"net/url"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/recordwatch/recordwatch/internal/dossier"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/view"
)

type entityIn struct {
	Kind string `json:"kind"`
	Name string `json:"name"`
}

func shapeEntity(s *jsonschema.Schema) {
	p := prop(s, "kind")
	p.Enum = []any{"vendor", "agency"}
	p.Description = "vendor (matched by name stem: suffix and case variants are one vendor) or agency (canonical id or any spelling)."
	p = prop(s, "name")
	p.MinLength = ptr(1)
	p.MaxLength = ptr(record.MaxNameLen)
	p.Description = "The vendor's name or stem, or the agency's id or name."
}

// DossierOut is a bounded dossier of one exact canonical entity: Vendor or
// Agency when found, neither otherwise.
type DossierOut struct {
	Kind       string         `json:"kind"`
	Query      string         `json:"query"`
	Status     string         `json:"status"`
	Message    string         `json:"message,omitempty"`
	Vendor     *VendorDossier `json:"vendor,omitempty"`
	Agency     *AgencyDossier `json:"agency,omitempty"`
	Provenance []string       `json:"provenance"`
	Absence    []string       `json:"absence_rules"`
	// Empty says why nothing is held on not_found (record.RecordAbsence).
	Empty *record.EmptyAnswer `json:"empty,omitempty"`
}

// GroupTotal is the awards of one vendor stem or agency with the route of
// its profile.
type GroupTotal struct {
	procure.AwardGroup
	Route string `json:"route"`
}

// AwardTotals sums award and intent notices: valid amounts only.
type AwardTotals struct {
	procure.AwardSummary
	TopVendors []GroupTotal `json:"top_vendors,omitempty"`
	Agencies   []GroupTotal `json:"agencies,omitempty"`
	Notices    []NoticeRef  `json:"notices,omitempty"`
}

// VendorDossier is a vendor's dossier.
type VendorDossier struct {
	dossier.VendorIdentity
	Awards   AwardTotals          `json:"awards"`
	Payments procure.PaymentsView `json:"payments"`
	// Relations: as get_entity_relationships gives them.
	Relations []Relation   `json:"relations"`
	First     string       `json:"first_date,omitempty"`
	Last      string       `json:"last_date,omitempty"`
	Route     string       `json:"route"`
	Scope     record.Scope `json:"scope"`
	Absence   []string     `json:"absence_notes"`
}

// AgencyNotices are the dossier's notice counts with the recent notices
// as references.
type AgencyNotices struct {
	dossier.AgencyNotices
	Recent []NoticeRef `json:"recent"`
}

// AgencyDossier is an agency's dossier.
type AgencyDossier struct {
	dossier.AgencyIdentity
	Notices  AgencyNotices        `json:"notices"`
	Awards   AwardTotals          `json:"awards"`
	Payments procure.PaymentsView `json:"payments"`
	// Relations: as get_entity_relationships gives them.
	Relations []Relation   `json:"relations"`
	Route     string       `json:"route"`
	Scope     record.Scope `json:"scope"`
	Absence   []string     `json:"absence_notes"`
	// Leaders are the agency's leader nodes (get_entity_relationships
	// returns the same); Disagreements every field the crosswalk and the
	// roster releases give different values for, each value attributed.
	Leaders       *people.Leadership    `json:"leaders,omitempty"`
	Disagreements []people.Disagreement `json:"disagreements"`
}

var dossierProvenance = map[string][]string{
	"vendor": {
		"Awards and intents: City Record award and intent-to-award notices whose vendor name has this stem (exact request ids listed).",
		"Amounts: only valid amounts are summed; placeholders and entry errors are counted separately and never totalled.",
		"Spellings: every vendor name seen with this stem, by source.",
		"Payments: Checkbook NYC contract registrations and payments whose vendor has this stem, or whose PIN joins an award (link method stated).",
	},
	"agency": {
		"Identity: the agency crosswalk (not an official registry); every source spelling and how it was linked (exact, key, reviewed short form, family).",
		"Notices: City Record notices whose agency resolves to this id, by lens, type and year.",
		"Awards: valid amounts only, with top vendors by stem.",
		"Payments: Checkbook NYC records whose agency resolves to this id.",
		"Leaders: NYC Agencies and Governance Organizations roster releases (t3jq-9nkf), tied by the crosswalk's roster record id; each node dated as of its release.",
		"Disagreements: where the crosswalk and a roster release (or two releases) give different values, every value is shown with its source; none is chosen.",
	},
}

func (d *Deps) awards(a procure.Awards, notices []record.Notice) AwardTotals {
	out := AwardTotals{AwardSummary: a.Summary()}
	for _, g := range a.VendorGroups() {
		out.TopVendors = append(out.TopVendors, GroupTotal{AwardGroup: g, Route: "/api/vendors/" + entity.StemSlug(entity.VendorStem(g.Stem))})
	}
	for _, g := range a.AgencyGroups() {
		out.Agencies = append(out.Agencies, GroupTotal{AwardGroup: g, Route: "/api/agencies/" + g.ID})
	}
	for _, n := range notices {
		out.Notices = append(out.Notices, d.ref(n))
	}
	return out
}

// readStatus turns a service error into an explicit status: not_found and
// unavailable are answers, other errors are tool errors.
func readStatus(err error) (status, message string, _ error) {
	if err == nil {
		return string(record.Found), "", nil
	}
	switch record.ErrorCode(err) {
	case record.ENOTFOUND:
		return string(record.NotFound), record.ErrorMessage(err) + ". No record here does not mean none exists; a full-text search (search_notices) may still find mentions.", nil
	case record.EUNAVAILABLE:
		return string(record.Unavailable), "The entity could not be read right now; this does not mean it is missing.", nil
	}
	return "", "", err
}

func (d *Deps) dossiers() (*dossier.Service, error) {
	if d.Dossiers == nil {
		return nil, record.Errorf(record.EUNAVAILABLE, "entity dossiers are not available on this deployment")
	}
	return d.Dossiers, nil
}

func getEntityDossier(d *Deps) Tool {
	t := newTool(d, "get_entity_dossier", "Get an entity dossier", ClassRead,
		"A bounded dossier of one exact canonical vendor (by name stem) or agency (by canonical id): spellings seen "+
			"in the sources, award and intent notices with valid-amount totals by fiscal year, agencies or top vendors, "+
			"Checkbook NYC registrations and payments, first and last dates, scope and provenance of each kind of fact; for an "+
			"agency also its leader nodes (as of each roster release) and disagreements: every field two sources give "+
			"different values for, with each value attributed to its source and date (none is chosen). "+
			"not_found and unavailable are explicit statuses, never errors.",
		[]int{1}, shapeEntity,
		func(ctx context.Context, d *Deps, in entityIn) (DossierOut, error) {
			out := DossierOut{Kind: in.Kind, Query: in.Name, Provenance: dossierProvenance[in.Kind], Absence: record.AbsenceRules}
			svc, err := d.dossiers()
			if err != nil {
				return out, err
			}
			if err := dossier.CheckKind(in.Kind, in.Name); err != nil {
				return out, err
			}
			var v *dossier.Vendor
			var a *dossier.Agency
			if in.Kind == dossier.KindVendor {
				v, err = svc.Vendor(ctx, in.Name)
			} else {
				a, err = svc.Agency(ctx, in.Name)
			}
			if out.Status, out.Message, err = readStatus(err); err != nil || out.Status != string(record.Found) {
				if out.Status == string(record.NotFound) {
					out.Empty = d.absent(ctx, in.Name, procure.JoinedKinds...)
				}
				return out, err
			}
			switch {
			case v != nil:
				out.Vendor = &VendorDossier{VendorIdentity: v.VendorIdentity, Awards: d.awards(v.Awards, v.Notices),
					Payments: v.Payments.View(), First: v.First, Last: v.Last, Route: "/api/vendors/" + v.Slug, Scope: v.Scope, Absence: v.Absence}
				out.Vendor.Payments.Ledger = &v.Ledger
				rels, err := svc.VendorRelations(ctx, v)
				if err != nil {
					return out, err
				}
				out.Vendor.Relations = d.relations(rels)
			case a != nil:
				ad := &AgencyDossier{AgencyIdentity: a.AgencyIdentity,
					Notices: AgencyNotices{AgencyNotices: a.Notices, Recent: []NoticeRef{}},
					Awards:  d.awards(a.Awards, nil), Payments: a.Payments.View(), Route: "/api/agencies/" + a.ID, Scope: a.Scope, Absence: a.Absence}
				ad.Payments.Ledger = &a.Ledger
				rels, err := svc.AgencyRelations(ctx, a)
				if err != nil {
					return out, err
				}
				ad.Relations = d.relations(rels)
				for _, n := range a.Notices.Recent {
					ad.Notices.Recent = append(ad.Notices.Recent, d.ref(n))
				}
				if err := d.agencyPeople(ctx, svc, ad); err != nil {
					return out, err
				}
				out.Agency = ad
			}
			return out, nil
		})
	t.Limits = []string{"bounded: at most 50 notices and the top 50 groups per dossier"}
	t.Examples = []Example{{"A vendor by any spelling", map[string]any{"kind": "vendor", "name": "Denville Line Painting, Inc."}},
		{"An agency by short form", map[string]any{"kind": "agency", "name": "DEPT OF PARKS & RECREATION"}}}
	return t
}

// agencyPeople adds an agency dossier's leaders and attributed
// disagreements; a roster that cannot be read leaves leaders unknown and
// says so, never empty.
func (d *Deps) agencyPeople(ctx context.Context, svc *dossier.Service, ad *AgencyDossier) error {
	ad.Disagreements = []people.Disagreement{}
	ps := svc.People
	l, err := ps.Leaders(ctx, ad.ID)
	if err != nil {
		if record.ErrorCode(err) != record.EUNAVAILABLE {
			return err
		}
		l = people.Leadership{AgencyID: ad.ID, State: people.Unknown, Nodes: []people.Leader{},
			Note: "The leader roster could not be read right now; the agency's leaders are unknown, not empty."}
		ad.Leaders = &l
		return nil
	}
	l = l.WithRoutes()
	ad.Leaders = &l
	ds, err := ps.Disagreements(ctx, ad.ID)
	if err != nil {
		return err
	}
	ad.Disagreements = ds
	return nil
}

// Relation is one public link of an entity.
type Relation struct {
	Type       string `json:"type"`
	TargetKind string `json:"target_kind"`
	TargetID   string `json:"target_id"`
	TargetName string `json:"target_name"`
	Count      int    `json:"count"`
	Amount     string `json:"valid_amount_total,omitempty"`
	Route      string `json:"route,omitempty"`
	Provenance string `json:"provenance"`
	// Method is how the link was read (award_notice, award_notice_pin,
	// registration, payment_payee, payment_contract_id), Confidence how
	// sure it is, SourceRows a few ids of the records behind it and Rows
	// the row list of every one (registrations and payments).
	Method     string   `json:"method"`
	Confidence string   `json:"confidence"`
	SourceRows []string `json:"source_rows"`
	Rows       string   `json:"rows,omitempty"`
}

// relations are a dossier's relations as the tools show them.
func (d *Deps) relations(rs []dossier.Relation) []Relation {
	out := []Relation{}
	for _, r := range rs {
		x := Relation{Type: r.Type, TargetKind: r.TargetKind, TargetID: r.TargetID, TargetName: r.TargetName, Count: r.Count,
			Route: route(r.TargetKind, r.TargetID), Provenance: r.Provenance, Method: r.Method, Confidence: r.Confidence, SourceRows: r.SourceRows}
		if x.SourceRows == nil {
			x.SourceRows = []string{}
		}
		if r.Amount != nil {
			x.Amount = view.Money(*r.Amount)
		}
		if len(r.RowFilter) > 0 {
			q := url.Values{}
			for k, v := range r.RowFilter {
				q.Set(k, v)
			}
			x.Rows = d.BaseURL + "/api/rows?" + q.Encode()
		}
		out = append(out, x)
	}
	return out
}

// RelationsOut lists an entity's public links.
type RelationsOut struct {
	Kind      string             `json:"kind"`
	Query     string             `json:"query"`
	Status    string             `json:"status"`
	Message   string             `json:"message,omitempty"`
	ID        string             `json:"id,omitempty"`
	Name      string             `json:"name,omitempty"`
	Relations []Relation         `json:"relations"`
	Leaders   *people.Leadership `json:"leaders,omitempty"`
	Absence   []string           `json:"absence_rules"`
	// Empty says why nothing is held on not_found (record.RecordAbsence).
	Empty *record.EmptyAnswer `json:"empty,omitempty"`
}

// route is the JSON address of a relation's target.
func route(kind, id string) string {
	switch kind {
	case dossier.KindAgency:
		return "/api/agencies/" + id
	case dossier.KindVendor:
		return "/api/vendors/" + id
	case "contract":
		return "/api/contracts/" + url.PathEscape(id)
	}
	return "/api/matters/" + id
}

func getEntityRelationships(d *Deps) Tool {
	t := newTool(d, "get_entity_relationships", "Get an entity's public links", ClassRead,
		"The public links of one exact vendor or agency, each with its provenance, method, confidence and source rows: "+
			"a vendor's agencies (award and intent notices naming both: awarded_by; registered contract rows: contracted_with; "+
			"payments to it as payee: paid_by), its procurement matters (PINs on its awards) and the contracts its payments "+
			"name (paid_under); an agency's vendors (awarded_to, contracted_with, paid_to) and its leaders. leaders has a state (published, empty: the roster prints no name, unknown: no roster row is held for "+
			"the agency) and one node per roster release held: the record id as given, the name and title as printed, "+
			"the source date (\"as of\" that date: a dated roster does not prove who holds the role now), a confidence, "+
			"the limits of the source, and a person link (its id for get_person_or_organization) only when the release "+
			"names the person. Infers nothing beyond the records.",
		[]int{1}, shapeEntity,
		func(ctx context.Context, d *Deps, in entityIn) (RelationsOut, error) {
			out := RelationsOut{Kind: in.Kind, Query: in.Name, Relations: []Relation{}, Absence: record.AbsenceRules}
			svc, err := d.dossiers()
			if err != nil {
				return out, err
			}
			if err := dossier.CheckKind(in.Kind, in.Name); err != nil {
				return out, err
			}
			rel, err := svc.Relationships(ctx, in.Kind, in.Name)
			if out.Status, out.Message, err = readStatus(err); err != nil || rel == nil {
				if out.Status == string(record.NotFound) {
					out.Empty = d.absent(ctx, in.Name, procure.JoinedKinds...)
				}
				return out, err
			}
			out.ID, out.Name = rel.ID, rel.Name
			out.Relations = d.relations(rel.Relations)
			if rel.Leaders != nil {
				l := rel.Leaders.WithRoutes()
				out.Leaders = &l
			}
			return out, nil
		})
	t.Limits = []string{"bounded: the dossier's top 50 groups and 50 newest awards"}
	t.Examples = []Example{{"A vendor's agencies and matters", map[string]any{"kind": "vendor", "name": "SECURUS TECHNOLOGIES"}},
		{"An agency's leaders as of each roster release", map[string]any{"kind": "agency", "name": "ACS"}}}
	return t
}
