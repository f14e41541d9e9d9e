package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
)

// byIDNotRecordRoutes are the GET routes with a path parameter that do not
// read a record by its id: static files, the digest redirect, shared
// investigations (their own absence: expired or never made) and the
// emailed links.
var byIDNotRecordRoutes = []string{"/static/*filepath", "/r/*link", "/inv/:id", "/inv/:id/changes", "/confirm/:token", "/manage/:token", "/u/:token", "/remove/:token"}

// byIDTools are the MCP tools that read one record by id, with the
// arguments naming one not held.
var byIDTools = map[string]string{
	"get_notice":                 `{"request_id":"%s"}`,
	"get_contract":               `{"id":"CT1NOSUCH000000"}`,
	"get_meeting":                `{"id":"legistar:999999999"}`,
	"get_person_or_organization": `{"id":"NYC_GOID_999999"}`,
	"get_land_project":           `{"id":"2099Q9999"}`,
	"get_land_decision_path":     `{"id":"2099Q9999"}`,
	"get_entity_dossier":         `{"kind":"vendor","name":"zzzqqq no such vendor"}`,
	"get_entity_relationships":   `{"kind":"vendor","name":"zzzqqq no such vendor"}`,
}

// Every by-id read (API route, site page, MCP tool) that holds no such
// record says which absence type applies, by the one rule: with City
// Record fresh, a notice id within what is held is none_found; failing
// upstream, upstream_failing; stale, stale; one dated before what is held
// is outside_coverage whatever the freshness (issue 46: the most useful
// true type); a kind this corpus never loaded (contracts, land
// projects, meetings, payroll, people) not_ingested. Every GET route with
// a path parameter is either a by-id read listed in byIDRoutes or named
// in byIDNotRecordRoutes.
func TestEveryByIDReadSaysWhyNothingIsHeld(t *testing.T) {
	for _, c := range []struct {
		name     string
		receipts []record.Receipt
		notice   string // the type of a notice not held, dated within what is held
		before   string // … dated before anything held
	}{
		{"fresh", []record.Receipt{receipt("crol", fixedNow.Add(-10*time.Minute), true)}, record.NoneFound, record.OutsideCoverage},
		{"failing", []record.Receipt{receipt("crol", fixedNow.Add(-30*time.Minute), true), receipt("crol", fixedNow.Add(-5*time.Minute), false)},
			record.UpstreamFailing, record.OutsideCoverage},
		{"stale", []record.Receipt{receipt("crol", fixedNow.Add(-30*time.Hour), true)}, record.AbsentStale, record.OutsideCoverage},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, _ := scheduledEnv(t, c.receipts...)
			// the kinds a route reads decide what it must say
			want := func(route byIDRoute) string {
				if slices.Contains(route.kinds, "notice") {
					return c.notice
				}
				return record.NotIngested
			}
			checked := 0
			for _, rt := range e.srv.router.Routes() {
				if rt.Method != http.MethodGet || !strings.ContainsAny(rt.Path, ":*") || slices.Contains(byIDNotRecordRoutes, rt.Path) || strings.HasPrefix(rt.Path, "/test/") {
					continue
				}
				route, ok := byIDRoutes[rt.Path]
				if !ok {
					t.Errorf("GET %s reads by a path parameter but is not in byIDRoutes (nor byIDNotRecordRoutes)", rt.Path)
					continue
				}
				id := "zzzqqq-no-such-id"
				switch {
				case rt.Path == "/api/notices/:id":
					id = "20260801999" // a request id dated within what is held
				case strings.Contains(rt.Path, "land-projects"):
					id = "2099Q9999" // a well-formed ZAP project id
				}
				path := rt.Path
				for _, seg := range strings.Split(rt.Path, "/") {
					if strings.HasPrefix(seg, ":") || strings.HasPrefix(seg, "*") {
						path = strings.Replace(path, seg, id, 1)
					}
				}
				checked++
				if strings.HasPrefix(rt.Path, "/api/") || strings.HasSuffix(rt.Path, ".ics") { // a calendar's 404 is the API's error
					res, body := get(t, e, path)
					var v struct {
						Error struct {
							Absence *record.EmptyAnswer `json:"absence"`
						} `json:"error"`
					}
					if err := json.Unmarshal(body, &v); res.StatusCode != http.StatusNotFound || err != nil || v.Error.Absence == nil {
						t.Errorf("GET %s: %d, no typed absence: %.300s", path, res.StatusCode, body)
						continue
					}
					if a := v.Error.Absence; a.Type != want(route) || a.Note == "" || len(a.Sources) == 0 && a.Type != record.NotIngested {
						t.Errorf("GET %s: absence %+v, want %s", path, a, want(route))
					}
					continue
				}
				res, body := getPage(t, e, path)
				if res.StatusCode != http.StatusNotFound || !strings.Contains(string(body), `data-absence="`+want(route)+`"`) {
					t.Errorf("page %s: %d, no data-absence=%q", path, res.StatusCode, want(route))
				}
			}
			if checked < len(byIDRoutes)-3 { // Form 1 mounts every listed route
				t.Errorf("only %d by-id routes checked of %d listed", checked, len(byIDRoutes))
			}
			// the notice's own date decides outside_coverage
			_, body := get(t, e, "/api/notices/19000101999")
			if !strings.Contains(string(body), `"absence":{"type":"`+c.before+`"`) {
				t.Errorf("a notice dated before anything held: %.400s", body)
			}
			for tool, args := range byIDTools {
				if strings.Contains(args, "%s") {
					args = fmt.Sprintf(args, "20260801999")
				}
				res, out := httpDo(t, "POST", e.ts.URL+"/mcp", "application/json",
					`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"`+tool+`","arguments":`+args+`}}`,
					"Accept", "application/json, text/event-stream")
				w := record.NotIngested
				if tool == "get_notice" || strings.HasPrefix(tool, "get_entity_") {
					w = c.notice
				}
				var rpc struct {
					Result struct {
						Content []struct {
							Text string `json:"text"`
						} `json:"content"`
					} `json:"result"`
				}
				var got struct {
					Status string              `json:"status"`
					Empty  *record.EmptyAnswer `json:"empty"`
				}
				if err := json.Unmarshal([]byte(out), &rpc); res.StatusCode != 200 || err != nil || len(rpc.Result.Content) == 0 {
					t.Errorf("MCP %s: %d %v %.300s", tool, res.StatusCode, err, out)
					continue
				}
				if err := json.Unmarshal([]byte(rpc.Result.Content[0].Text), &got); err != nil || got.Status != string(record.NotFound) ||
					got.Empty == nil || got.Empty.Type != w || got.Empty.Note == "" {
					t.Errorf("MCP %s: want not_found with empty.type %s: %v %.600s", tool, w, err, rpc.Result.Content[0].Text)
				}
			}
		})
	}
}
