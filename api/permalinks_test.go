package api

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"testing"

	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Every held record of every kind that has a permalink opens through it:
// the route is built from the record's id as the surfaces build it
// (path-escaped) and answers 200 with the record, for the whole bundled
// sample (notices, contracts, land projects, meetings, people and
// organizations, payroll rows).
func TestEveryHeldRecordsPermalinkOpens(t *testing.T) {
	e := newEntityEnv(t, Config{})
	ctx := context.Background()
	routes := map[string]func(id string) string{
		procure.ContractKind.Name: func(id string) string { return "/api/contracts/" + url.PathEscape(id) },
		land.ProjectKind.Name:     func(id string) string { return "/api/land-projects/" + url.PathEscape(id) },
		meeting.Kind.Name:         func(id string) string { return "/api/meetings/" + url.PathEscape(id) },
		people.KindPerson:         people.Route,
		people.KindOrganization:   people.Route,
		procure.PayrollKind.Name:  func(id string) string { return "/api/payroll/" + url.PathEscape(id) },
	}
	opened := map[string]int{}
	for kind, route := range routes {
		cursor := ""
		for {
			p, err := e.be.FindRecords(ctx, search.RecordQuery{Kinds: []string{kind}, Limit: 500, Cursor: cursor, Sort: search.RecordSortID})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range p.Records {
				// the id a surface links by is the value's own (a roster
				// row's id; its record id adds the release)
				var v struct {
					ID string `json:"id"`
				}
				if err := json.Unmarshal(r.Body, &v); err != nil || v.ID == "" {
					v.ID = r.ID
				}
				res, body := get(t, e, route(v.ID))
				if res.StatusCode != http.StatusOK {
					t.Errorf("%s %q: %s: %d %.200s", kind, v.ID, route(v.ID), res.StatusCode, body)
				}
				opened[kind]++
			}
			if cursor = p.NextCursor; cursor == "" {
				break
			}
		}
	}
	// notices: every id a search pages through
	cursor := ""
	for {
		q := url.Values{"limit": {"100"}, "sort": {"oldest"}}
		if cursor != "" {
			q.Set("cursor", cursor)
		}
		_, body := get(t, e, "/api/search?"+q.Encode())
		page := decode[struct {
			Hits []struct {
				RequestID string `json:"request_id"`
			} `json:"hits"`
			NextCursor string `json:"next_cursor"`
		}](t, body)
		for _, h := range page.Hits {
			if res, b := get(t, e, "/api/notices/"+url.PathEscape(h.RequestID)); res.StatusCode != http.StatusOK {
				t.Errorf("notice %q: %d %.200s", h.RequestID, res.StatusCode, b)
			}
			opened["notice"]++
		}
		if cursor = page.NextCursor; cursor == "" || len(page.Hits) == 0 {
			break
		}
	}
	for _, kind := range []string{"notice", procure.ContractKind.Name, land.ProjectKind.Name, meeting.Kind.Name, people.KindOrganization, procure.PayrollKind.Name} {
		if opened[kind] == 0 {
			t.Errorf("no %s record opened: the sample holds none, or the kind's name changed", kind)
		}
	}
	t.Logf("opened %v", opened)
}
