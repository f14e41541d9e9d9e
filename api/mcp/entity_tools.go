package mcp

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/recordwatch/recordwatch/internal/record"
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
	p.MaxLength = ptr(maxNameLen)
	p.Description = "The vendor's name or stem, or the agency's id or name."
}

// DossierOut is a bounded dossier of one exact canonical entity.
type DossierOut struct {
	Kind       string         `json:"kind"`
	Query      string         `json:"query"`
	Status     string         `json:"status"`
	Message    string         `json:"message,omitempty"`
	Dossier    map[string]any `json:"dossier,omitempty"`
	Provenance []string       `json:"provenance"`
	Absence    []string       `json:"absence_rules"`
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
	},
}

func (d *Deps) dossier(ctx context.Context, in entityIn) (DossierOut, map[string]any, error) {
	out := DossierOut{Kind: in.Kind, Query: in.Name, Provenance: dossierProvenance[in.Kind], Absence: record.AbsenceRules}
	if d.Dossier == nil {
		return out, nil, record.Errorf(record.EUNAVAILABLE, "entity dossiers are not available on this deployment")
	}
	if in.Kind != "vendor" && in.Kind != "agency" {
		return out, nil, record.Invalid("kind", "kind must be vendor or agency")
	}
	if strings.TrimSpace(in.Name) == "" {
		return out, nil, record.Invalid("name", "name is required")
	}
	v, err := d.Dossier(ctx, in.Kind, in.Name)
	switch record.ErrorCode(err) {
	case "":
	case record.ENOTFOUND:
		out.Status = string(record.NotFound)
		out.Message = record.ErrorMessage(err) + " No record here does not mean none exists; a full-text search (search_notices) may still find mentions."
		return out, nil, nil
	case record.EUNAVAILABLE:
		out.Status = string(record.Unavailable)
		out.Message = "The entity could not be read right now; this does not mean it is missing."
		return out, nil, nil
	default:
		if err != nil {
			return out, nil, err
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return out, nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return out, nil, err
	}
	out.Status = string(record.Found)
	return out, m, nil
}

func getEntityDossier(d *Deps) Tool {
	t := newTool(d, "get_entity_dossier", "Get an entity dossier", ClassRead,
		"A bounded dossier of one exact canonical vendor (by name stem) or agency (by canonical id): spellings seen "+
			"in the sources, award and intent notices with valid-amount totals by fiscal year, agencies or top vendors, "+
			"Checkbook NYC registrations and payments, first and last dates, scope and provenance of each kind of fact. "+
			"not_found and unavailable are explicit statuses, never errors.",
		[]int{1}, shapeEntity,
		func(ctx context.Context, d *Deps, in entityIn) (DossierOut, error) {
			out, m, err := d.dossier(ctx, in)
			if err != nil {
				return out, err
			}
			out.Dossier = m
			return out, nil
		})
	t.Limits = []string{"bounded: at most 50 notices and the top 50 groups per dossier"}
	t.Examples = []Example{{"A vendor by any spelling", map[string]any{"kind": "vendor", "name": "Denville Line Painting, Inc."}},
		{"An agency by short form", map[string]any{"kind": "agency", "name": "DEPT OF PARKS & RECREATION"}}}
	return t
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
}

// LeaderState says what is known of an agency's leaders.
type LeaderState struct {
	State string `json:"state"`
	Note  string `json:"note"`
}

// RelationsOut lists an entity's public links.
type RelationsOut struct {
	Kind      string       `json:"kind"`
	Query     string       `json:"query"`
	Status    string       `json:"status"`
	Message   string       `json:"message,omitempty"`
	ID        string       `json:"id,omitempty"`
	Name      string       `json:"name,omitempty"`
	Relations []Relation   `json:"relations"`
	Leaders   *LeaderState `json:"leaders,omitempty"`
	Absence   []string     `json:"absence_rules"`
}

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

func num(m map[string]any, k string) int {
	f, _ := m[k].(float64)
	return int(f)
}

func list(m map[string]any, path ...string) []map[string]any {
	var cur any = m
	for _, p := range path {
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = mm[p]
	}
	arr, _ := cur.([]any)
	var out []map[string]any
	for _, a := range arr {
		if mm, ok := a.(map[string]any); ok {
			out = append(out, mm)
		}
	}
	return out
}

func amountDisplay(m map[string]any) string {
	a, _ := m["amount"].(map[string]any)
	return str(a, "display")
}

func getEntityRelationships(d *Deps) Tool {
	t := newTool(d, "get_entity_relationships", "Get an entity's public links", ClassRead,
		"The public links of one exact vendor or agency, each with its provenance: a vendor's agencies (award and "+
			"intent notices naming both) and procurement matters (PINs on its awards); an agency's top vendors. "+
			"Agency leaders are reported with an explicit state: a dated roster would not prove who holds a role now, "+
			"and no leader roster is held yet, so their state is unknown. Infers nothing beyond the records.",
		[]int{1}, shapeEntity,
		func(ctx context.Context, d *Deps, in entityIn) (RelationsOut, error) {
			dos, m, err := d.dossier(ctx, in)
			out := RelationsOut{Kind: in.Kind, Query: in.Name, Status: dos.Status, Message: dos.Message, Relations: []Relation{}, Absence: record.AbsenceRules}
			if err != nil || m == nil {
				return out, err
			}
			switch in.Kind {
			case "vendor":
				out.ID, out.Name = str(m, "stem"), str(m, "name")
				for _, a := range list(m, "awards", "agencies") {
					out.Relations = append(out.Relations, Relation{Type: "awarded_by", TargetKind: "agency", TargetID: str(a, "id"),
						TargetName: str(a, "name"), Count: num(a, "count"), Amount: amountDisplay(a), Route: "/api/agencies/" + str(a, "id"),
						Provenance: "award and intent notices naming this vendor (by stem) and this agency"})
				}
				seen := map[string]bool{}
				for _, n := range list(m, "awards", "notices") {
					pin := str(n, "pin")
					if pin == "" || seen[pin] {
						continue
					}
					seen[pin] = true
					out.Relations = append(out.Relations, Relation{Type: "party_to_matter", TargetKind: "matter", TargetID: pin, TargetName: str(n, "title"),
						Count: 1, Route: "/api/matters/" + pin, Provenance: "the PIN printed on award notice " + str(n, "request_id")})
				}
			case "agency":
				out.ID, out.Name = str(m, "id"), str(m, "name")
				for _, v := range list(m, "awards", "top_vendors") {
					out.Relations = append(out.Relations, Relation{Type: "awarded_to", TargetKind: "vendor", TargetID: str(v, "stem"),
						TargetName: str(v, "stem"), Count: num(v, "count"), Amount: amountDisplay(v),
						Route: "/api/vendors/" + str(v, "stem"), Provenance: "award and intent notices of this agency naming the vendor (by stem)"})
				}
				out.Leaders = &LeaderState{State: "unknown", Note: "No agency leader roster is held yet; the relation is unknown, not empty."}
			}
			return out, nil
		})
	t.Limits = []string{"bounded: the dossier's top 50 groups and 50 newest awards"}
	t.Examples = []Example{{"A vendor's agencies and matters", map[string]any{"kind": "vendor", "name": "SECURUS TECHNOLOGIES"}}}
	return t
}
