package api

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"strings"

	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
)

// shareRecordKind is a typed record kind a pin can name: the engine kind
// it is read from, the rule of its id, and its pages.
type shareRecordKind struct {
	kind, engine, rule string
	// view and json are the paths of its page and JSON twin, before the
	// escaped id.
	view, json string
}

// shareRecordKindList are the typed kinds a pin can name (beside
// notices, vendors, agencies and matters), in the order documented.
var shareRecordKindList = []shareRecordKind{
	{ShareKindContract, procure.ContractKind.Name, "a contract id is its contract id as /contracts/<id> reads it (for example CT185020151429177)", "/contracts/", "/api/contracts/"},
	{ShareKindLandProject, land.ProjectKind.Name, "a land project id is its ZAP project id (for example 2024Q0292)", "/land-projects/", "/api/land-projects/"},
	{ShareKindMeeting, meeting.Kind.Name, "a meeting id is its id as /meetings/<id> reads it", "/meetings/", "/api/meetings/"},
	{ShareKindPerson, people.KindPerson, "a person id is the roster row's id as /people/<id> reads it (without a release)", "/people/", "/api/people/"},
	{ShareKindOrganization, people.KindOrganization, "an organization id is the roster row's id as /organizations/<id> reads it (without a release)", "/organizations/", "/api/people/"},
	{ShareKindPayroll, procure.PayrollKind.Name, "a payroll row id is its id as /api/payroll/<id> reads it", "/api/payroll/", "/api/payroll/"},
}

func shareRecordKindOf(kind string) (shareRecordKind, bool) {
	for _, k := range shareRecordKindList {
		if k.kind == kind {
			return k, true
		}
	}
	return shareRecordKind{}, false
}

// recordState is a pinned typed record's state: found with its title and
// date and a hash of the whole record as held, or not found (or
// unavailable, which never means missing). A contract is the set of rows
// /contracts/<id> shows (every version and sub-vendor line), counted.
func (s *Server) recordState(ctx context.Context, it ShareItem, k shareRecordKind) ItemState {
	if it.Kind == ShareKindContract {
		c, err := s.procure().Contract(ctx, it.ID)
		if err != nil {
			return shareMissingState(err, "no contract row with this contract id is held here. No hits does not mean no record exists.")
		}
		n := c.RowsTotal
		st := ItemState{Status: record.Found, Records: &n, Title: c.Contract.Purpose, Name: strings.TrimSpace(c.Contract.VendorName), AgencyID: c.Contract.AgencyID}
		if !c.Contract.RegisteredOn.IsZero() {
			st.Published = shareDay(c.Contract.RegisteredOn)
		}
		st.ContentHash = hashJSON(c.Rows)
		return st
	}
	if it.Kind == ShareKindPerson || it.Kind == ShareKindOrganization {
		// the roster holds one record per row and release: a pin names the
		// row (its id as /people/<id> reads it), every release counted
		r, err := s.people().Get(ctx, it.ID)
		if err != nil {
			return shareMissingState(err, "no "+it.Kind+" row with this id is held here. No hits does not mean no record exists.")
		}
		if want := map[string]string{ShareKindPerson: people.TypePerson, ShareKindOrganization: people.TypeOrganization}[it.Kind]; r.Row.Type != want {
			return ItemState{Status: record.NotFound, Message: "the row with this id is a " + r.Row.Type + ", not a " + it.Kind + ": pin it as " + r.Row.Type}
		}
		n := r.ReleasesTotal
		st := ItemState{Status: record.Found, Name: r.Row.Name, Records: &n, AgencyID: r.Row.AgencyID}
		st.ContentHash = hashJSON(r)
		return st
	}
	er, err := s.entityReader()
	if err != nil {
		return shareMissingState(err, "")
	}
	r, err := er.GetRecord(ctx, k.engine, it.ID)
	if err != nil {
		return shareMissingState(err, "no "+strings.ReplaceAll(it.Kind, "_", " ")+" with this id is held here. No hits does not mean no record exists.")
	}
	st := ItemState{Status: record.Found, Title: r.Title, Published: shareDay(r.Date)}
	if v := r.Keys["agency_id"]; len(v) == 1 {
		st.AgencyID = v[0]
	}
	st.ContentHash = hashJSON(r)
	return st
}

// recordLinks are a pinned typed record's page and JSON twin.
func (s *Server) recordLinks(it ShareItem, k shareRecordKind) map[string]string {
	id := url.PathEscape(it.ID)
	if k.kind == ShareKindPerson || k.kind == ShareKindOrganization {
		id = strings.ReplaceAll(url.PathEscape(it.ID), "%2F", "/") // these routes read ids holding "/"
	}
	return map[string]string{"view": s.cfg.BaseURL + k.view + id, "json": s.cfg.BaseURL + k.json + id}
}

// hashJSON is "sha256:" and the SHA-256 of v's JSON (map keys sorted, so
// the same record hashes the same).
func hashJSON(v any) string {
	raw, _ := json.Marshal(v)
	sum := sha256.Sum256(raw)
	return "sha256:" + hex.EncodeToString(sum[:])
}
