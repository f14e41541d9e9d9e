package mcp

import (
	"context"
	"strconv"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/record"
)

type getPersonIn struct {
	ID string `json:"id"`
}

// PersonOrOrgOut is one exact typed row: found, not_found or unavailable,
// explicitly. Releases lists every roster release holding the id, newest
// first, each with its date.
type PersonOrOrgOut struct {
	Status        record.Availability `json:"status"`
	ID            string              `json:"id"`
	Message       string              `json:"message,omitempty"`
	Row           *people.Row         `json:"row,omitempty"`
	Releases      []people.Row        `json:"releases,omitempty"`
	ReleasesTotal int                 `json:"releases_total,omitempty"`
	Route         string              `json:"route,omitempty"`
	Follow        *people.Follow      `json:"follow,omitempty"`
	// Positions summarize an organization's payroll positions by fiscal
	// year and title (bounded); absent on person rows.
	Positions *people.Positions `json:"positions,omitempty"`
	Limits    []string          `json:"source_limits"`
	Absence   []string          `json:"absence_rules"`
	// Empty says why nothing is held on not_found (record.RecordAbsence).
	Empty *record.EmptyAnswer `json:"empty,omitempty"`
	// Sources are, on a found answer, the sources it is built from, each
	// with its coverage and freshness (state fresh, stale, failing or
	// never_loaded; since when; observed_at; newest source date;
	// schedule), as every search scope's sources state them.
	Sources []record.SourceCoverage `json:"sources,omitempty"`
}

// maxRowID bounds a person or organization id argument.
const maxRowID = 300

// people is the people service: Deps.People, else the dossiers'.
func (d *Deps) people() (*people.Service, error) { return d.People, nil }

func getPersonOrOrganization(d *Deps) Tool {
	t := newTool(d, "get_person_or_organization", "Get one person or organization row", ClassRead,
		"Read one exact typed row (type person or organization) by its id, exactly as given: an organization's roster "+
			"record id (NYC_GOID_000002), or a person id as a leader node or browse_organizations returned it "+
			"(NYC_GOID_000002/principal-officer/2026-06-12: the record, role and release that print the name). Names are "+
			"never ids: the same name printed for two organizations is two person rows. Returns status found, not_found or "+
			"unavailable explicitly. A found row carries its roster release (date and version: what it says is as of that "+
			"date, not current), each relation with its state (published, empty or unknown), the source fields exactly as "+
			"read, every release holding the same id, and follow: the people-lens feed (Changes in Personnel notices) of "+
			"the agency the row is or whose record names the person (watch with lens people and that agency). An organization "+
			"row also carries positions: its Citywide Payroll rows as positions held per fiscal year and title (row counts, "+
			"regular gross paid with valid and excluded counts, the measure stated; \"no payroll held\" when none), never "+
			"persons: browse the rows themselves through /api/payroll.",
		[]int{1},
		func(s *jsonschema.Schema) {
			bounded(s, "id", maxRowID, "Exact row id: a roster record id or a person id, as given (case and encoded text matter).")
			prop(s, "id").MinLength = ptr(1)
		},
		func(ctx context.Context, d *Deps, in getPersonIn) (PersonOrOrgOut, error) {
			out := PersonOrOrgOut{ID: in.ID, Limits: people.SourceLimits, Absence: record.AbsenceRules}
			svc, err := d.people()
			if err == nil {
				var r people.RowRead
				r, err = svc.Get(ctx, in.ID)
				if err == nil {
					out.Status, out.Row, out.Releases, out.ReleasesTotal, out.Route = record.Found, &r.Row, r.Releases, r.ReleasesTotal, people.Route(r.Row.ID)
					out.Follow, out.Sources = people.FollowOf(r.Row), r.Sources
					if r.Row.Type == people.TypeOrganization {
						pos, perr := svc.Positions(ctx, r.Row.AgencyID)
						if perr != nil {
							return out, perr
						}
						out.Positions = &pos
					}
					return out, nil
				}
			}
			switch record.ErrorCode(err) {
			case record.ENOTFOUND:
				out.Status = record.NotFound
				out.Message = "No person or organization row with this exact id is held; that does not mean the person or organization does not exist. browse_organizations with a token finds rows by name words."
				out.Empty = d.absent(ctx, in.ID, people.KindPerson, people.KindOrganization)
				return out, nil
			case record.EUNAVAILABLE:
				out.Status = record.Unavailable
				out.Message = "The row could not be read right now; this does not mean it is missing."
				return out, nil
			}
			return out, err
		})
	t.Limits = []string{"releases: at most 20 releases of one id (releases_total counts all)",
		"positions: at most " + strconv.Itoa(people.MaxPositionYears) + " fiscal years and " + strconv.Itoa(people.MaxPositionTitles) +
			" titles per year (titles_held and rows_not_listed count the rest)"}
	t.Examples = []Example{{"An agency's roster row", map[string]any{"id": "NYC_GOID_000002"}},
		{"The person a release prints as its principal officer", map[string]any{"id": "NYC_GOID_000002/principal-officer/2026-06-12"}}}
	return t
}
