package api

import (
	"context"
	"encoding/json"
	"net/url"
	"slices"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/indexer/sampletest"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// feedOf is the one source the default job named job feeds.
func feedOf(t *testing.T, job string) string {
	t.Helper()
	for _, j := range indexer.DefaultJobs() {
		if j.Name == job && len(j.Feeds) > 0 {
			return j.Feeds[0]
		}
	}
	t.Fatalf("no default job %q", job)
	return ""
}

// Every single-record read carries its sources' freshness (issue 46, item
// 2): over the full bundled sample at a fixed clock, with the live fetch
// of the land, Checkbook contracts, payroll and roster jobs failing, and
// of Legistar within the meetings job, a land project, its decision path,
// a contract, a meeting, a person, an organization and a payroll row each
// name the sources their answer is built from, every one with its state
// (record.Freshen, as every search scope states it), the failing source
// among them failing since the failed run with its error; the MCP twin
// answers the same sources and the record's page banner names the
// answer's failing source.
func TestSingleRecordReadsCarryTheirSourcesFreshness(t *testing.T) {
	failedAt := fixedNow.Add(-20 * time.Minute)
	failed := func(job string) record.Receipt { return receipt(job, failedAt, false) }
	meetingsRun := receipt("meetings", failedAt, true)
	meetingsRun.Parts = []record.ReceiptPart{
		{Source: "legistar", Outcome: record.ReceiptFailed, Error: "upstream answered 500"},
		{Source: "cityrecord-hearings", Outcome: record.ReceiptOK, RowsRead: 3},
	}
	e, _ := scheduledEnvOver(t, sampletest.Full, failed("land"), failed("checkbook-contracts"), failed("payroll"), failed("leaders"), meetingsRun)
	ctx := context.Background()
	first := func(kind string, keys map[string][]string) string {
		t.Helper()
		p, err := e.be.FindRecords(ctx, search.RecordQuery{Kinds: []string{kind}, Keys: keys, Sort: search.RecordSortID, Limit: 1})
		if err != nil || len(p.Records) == 0 {
			t.Fatalf("the sample holds no %s: %v", kind, err)
		}
		return p.Records[0].ID
	}
	contractID := first(procure.ContractKind.Name, nil)
	payrollID := first(procure.PayrollKind.Name, nil)
	rowOf := func(typ string) string {
		t.Helper()
		p, err := search.Find(ctx, e.be, people.Kind, search.RecordQuery{Keys: map[string][]string{people.KeyRowType: {typ}}, Sort: search.RecordSortID, Limit: 1})
		if err != nil || len(p.Items) == 0 {
			t.Fatalf("the sample holds no %s row: %v", typ, err)
		}
		return p.Items[0].ID
	}
	personID, orgID := rowOf(people.TypePerson), rowOf(people.TypeOrganization)
	ms, err := search.Find(ctx, e.be, meeting.Kind, search.RecordQuery{Sort: search.RecordSortID, Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	ms.Items = slices.DeleteFunc(ms.Items, func(m meeting.Meeting) bool { return m.Source != "legistar" })
	if len(ms.Items) == 0 {
		t.Fatal("the sample holds no Legistar meeting")
	}
	meetingID := ms.Items[0].ID

	mc := sdk.NewClient(&sdk.Implementation{Name: "record-freshness", Version: "1"}, nil)
	sess, err := mc.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: e.ts.URL + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()

	type answer struct {
		Sources []record.SourceCoverage `json:"sources"`
		Path    *struct {
			Sources []record.SourceCoverage `json:"sources"`
		} `json:"decision_path"`
	}
	for _, c := range []struct {
		name, api, page, tool, ownType, failing string
		args                                    map[string]any
	}{
		{"land project", "/api/land-projects/2024Q0292", "/land-projects/2024Q0292", "get_land_project", "land_project", feedOf(t, "land"), map[string]any{"id": "2024Q0292"}},
		{"decision path", "/api/land-projects/2024Q0292/decision-path", "", "get_land_decision_path", "land_project", feedOf(t, "land"), map[string]any{"id": "2024Q0292"}},
		{"contract", "/api/contracts/" + url.PathEscape(contractID), "/contracts/" + url.PathEscape(contractID), "get_contract", "contract", feedOf(t, "checkbook-contracts"), map[string]any{"id": contractID}},
		{"meeting", "/api/meetings/" + url.PathEscape(meetingID), "/meetings/" + url.PathEscape(meetingID), "get_meeting", "meeting", "legistar", map[string]any{"id": meetingID}},
		{"person", "/api/people/" + personID, "/people/" + personID, "get_person_or_organization", "person", feedOf(t, "leaders"), map[string]any{"id": personID}},
		{"organization", "/api/people/" + orgID, "/organizations/" + orgID + "/", "get_person_or_organization", "organization", feedOf(t, "payroll"), map[string]any{"id": orgID}},
		{"payroll row", "/api/payroll/" + url.PathEscape(payrollID), "", "", "payroll", feedOf(t, "payroll"), nil},
	} {
		res, body := get(t, e, c.api)
		if res.StatusCode != 200 {
			t.Errorf("%s: %s: %d %s", c.name, c.api, res.StatusCode, body)
			continue
		}
		got := decode[answer](t, body).Sources
		if len(got) == 0 {
			t.Errorf("%s: %s names no sources: %.300s", c.name, c.api, body)
			continue
		}
		own, failing := false, false
		for _, s := range got {
			if s.Source == "" || s.RecordType == "" || s.Records == 0 || s.Schedule == "" ||
				!slices.Contains([]string{record.Fresh, record.Stale, record.Failing, record.NeverLoaded}, s.State) {
				t.Errorf("%s: a source without its coverage and state: %+v", c.name, s)
			}
			own = own || s.RecordType == c.ownType
			if s.Source == c.failing {
				failing = true
				if s.State != record.Failing || !s.StateSince.Equal(failedAt) || s.LastError != "upstream answered 500" {
					t.Errorf("%s: %s is not failing since %s: %+v", c.name, c.failing, failedAt, s)
				}
			}
		}
		if !own || !failing {
			t.Errorf("%s: the sources name no %s record (%v) or not %s (%v): %+v", c.name, c.ownType, own, c.failing, failing, got)
		}
		if c.tool != "" {
			out, err := sess.CallTool(ctx, &sdk.CallToolParams{Name: c.tool, Arguments: c.args})
			if err != nil || out.IsError {
				t.Fatalf("%s: %s: %v %+v", c.name, c.tool, err, out)
			}
			b, _ := json.Marshal(out.StructuredContent)
			a := decode[answer](t, b)
			mcpSources := a.Sources
			if a.Path != nil {
				mcpSources = a.Path.Sources
			}
			if !sameSources(got, mcpSources) {
				t.Errorf("%s: %s answers other sources than %s:\n%+v\n%+v", c.name, c.tool, c.api, mcpSources, got)
			}
		}
		if c.page != "" {
			res, page := getPage(t, e, c.page)
			banner := bannerSources(string(page))
			if res.StatusCode != 200 || !slices.Contains(banner, c.failing) && len(banner) <= bannerShown {
				t.Errorf("%s: the page %s (%d) names %v in its banner, not the failing %s", c.name, c.page, res.StatusCode, banner, c.failing)
			}
			for _, s := range banner {
				if s != "and" && !slices.ContainsFunc(got, func(g record.SourceCoverage) bool { return g.Source == s && g.State != record.Fresh }) {
					t.Errorf("%s: the page's banner names %s, not a source of its answer that is not fresh", c.name, s)
				}
			}
		}
	}
}

// sameSources reports whether two answers name the same sources with the
// same states.
func sameSources(a, b []record.SourceCoverage) bool {
	return slices.EqualFunc(a, b, func(x, y record.SourceCoverage) bool {
		return x.Source == y.Source && x.RecordType == y.RecordType && x.State == y.State && x.StateSince.Equal(y.StateSince)
	})
}
