package mcp_test

import (
	"context"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recordwatch/recordwatch/api/mcp"
	"github.com/recordwatch/recordwatch/indexer/sampletest"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/federated"
)

// sampleSession is a Form 1 tool session over the whole bundled sample,
// as `go run .` loads it (notices, contracts, payroll, land, meetings,
// roster, civil service).
func sampleSession(t *testing.T) *sdk.ClientSession {
	t.Helper()
	ctx := context.Background()
	be := sampletest.Copy(t, sampletest.Full, fixedNow) // EnsureSample, loaded once per test binary
	cw := entity.DefaultCrosswalk()
	d := depsOver(be, cw, 1)
	ct, st := sdk.NewInMemoryTransports()
	if _, err := mcp.NewServer(d, 1).Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	s, err := sdk.NewClient(&sdk.Implementation{Name: "federated-test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// search_federated answers "NYPD" on the bundled sample with typed
// objects of at least five kinds (the agency, its notices, contracts,
// payroll rows, roster organization and the leader it prints), each with
// its exact route, and
// coverage for every collection; an unknown collection is refused by the
// schema's enum.
func TestSearchFederatedFiveKinds(t *testing.T) {
	s := sampleSession(t)
	// 50 results are over 64 KiB: the answer is read with its continuations
	ps := parts[federated.Page](t, s, "search_federated", map[string]any{"q": "NYPD", "limit": 50})
	out := ps[0]
	for _, p := range ps[1:] {
		out.Results = append(out.Results, p.Results...)
	}
	kinds := map[string]int{}
	for _, r := range out.Results {
		kinds[r.Kind]++
		if r.Route == "" || r.Title == "" || r.Match.Rule == "" {
			t.Errorf("result without route, title or rule: %+v", r)
		}
	}
	for _, k := range []string{federated.KindAgency, federated.KindNotice, federated.KindContract, federated.KindPayrollRow, federated.KindOrganization, federated.KindPerson} {
		if kinds[k] == 0 {
			t.Errorf("no %s among %v", k, kinds)
		}
	}
	if len(kinds) < 5 {
		t.Fatalf("NYPD: %d kinds %v", len(kinds), kinds)
	}
	first := out.Results[0]
	if first.Kind != federated.KindAgency || first.ID != "police-department" || first.Route != "/api/agencies/police-department" ||
		first.Permalink != "http://rw.test/agencies/police-department/" || first.Match.Tier != federated.TierExact {
		t.Errorf("first result %+v", first)
	}
	if len(out.Coverage) != len(federated.Collections) {
		t.Fatalf("collection coverage %+v", out.Coverage)
	}
	for _, lc := range out.Coverage {
		if lc.State != federated.StateSearched {
			t.Errorf("collection %s: state %s (%s)", lc.Collection, lc.State, lc.Note)
		}
		if lc.Collection != federated.CollectionAgencies && len(lc.Sources) == 0 {
			t.Errorf("collection %s states no source observation", lc.Collection)
		}
	}
	for _, name := range []string{"collections", "scope"} {
		res := call(t, s, "search_federated", map[string]any{"q": "NYPD", name: []string{"payroll", "weather"}})
		if !res.IsError || !strings.Contains(text(res), "weather") || !strings.Contains(text(res), name) ||
			!strings.Contains(text(res), strings.Join(federated.Collections, " ")) {
			t.Errorf("unknown collection in %s: %v %s", name, res.IsError, text(res))
		}
	}
}
