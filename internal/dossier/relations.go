package dossier

import (
	"context"
	"strings"

	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/record"
)

// Relation types.
const (
	AwardedBy     = "awarded_by"      // vendor → agency
	PartyToMatter = "party_to_matter" // vendor → procurement matter
	AwardedTo     = "awarded_to"      // agency → vendor
)

// Relation is one public link of an entity, with its provenance.
type Relation struct {
	Type       string
	TargetKind string // agency, vendor, matter
	TargetID   string // canonical id, stem or PIN
	TargetName string
	Count      int
	// Amount sums the valid amounts of the notices behind the link; nil
	// when the link is not a sum (a matter).
	Amount     *float64
	Provenance string
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
		for _, a := range v.Awards.Agencies {
			amt := a.Amount
			out.Relations = append(out.Relations, Relation{Type: AwardedBy, TargetKind: KindAgency, TargetID: a.ID, TargetName: a.Name,
				Count: a.Count, Amount: &amt, Provenance: "award and intent notices naming this vendor (by stem) and this agency"})
		}
		seen := map[string]bool{}
		for _, n := range v.Notices {
			if n.PIN == "" || seen[n.PIN] {
				continue
			}
			seen[n.PIN] = true
			out.Relations = append(out.Relations, Relation{Type: PartyToMatter, TargetKind: "matter", TargetID: n.PIN, TargetName: n.Title,
				Count: 1, Provenance: "the PIN printed on award notice " + n.RequestID})
		}
	case KindAgency:
		a, err := s.Agency(ctx, name)
		if err != nil {
			return nil, err
		}
		out.ID, out.Name = a.ID, a.Name
		for _, v := range a.Awards.TopVendors {
			amt := v.Amount
			out.Relations = append(out.Relations, Relation{Type: AwardedTo, TargetKind: KindVendor, TargetID: v.Value, TargetName: v.Value,
				Count: v.Count, Amount: &amt, Provenance: "award and intent notices of this agency naming the vendor (by stem)"})
		}
		l, err := s.People.Leaders(ctx, a.ID)
		if err != nil {
			if record.ErrorCode(err) != record.EUNAVAILABLE {
				return nil, err
			}
			l = people.Leadership{AgencyID: a.ID, State: people.Unknown, Nodes: []people.Leader{},
				Note: "The leader roster could not be read right now; the agency's leaders are unknown, not empty."}
		}
		out.Leaders = &l
	}
	return out, nil
}

// CheckKind validates a dossier request. Errors: EINVALID.
func CheckKind(kind, name string) error {
	if kind != KindVendor && kind != KindAgency {
		return record.Invalid("kind", "kind must be vendor or agency")
	}
	if strings.TrimSpace(name) == "" {
		return record.Invalid("name", "name is required")
	}
	return nil
}
