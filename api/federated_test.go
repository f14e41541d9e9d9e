package api

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/federated"
	"github.com/recordwatch/recordwatch/internal/record"
)

// GET /api/search/federated is the JSON twin of search_federated: on the
// bundled sample, "DOT" finds the agency, its notices, contracts,
// meetings and roster organization, each with its exact route;
// collections limits the collections (scope, its former name, still does);
// bad input is a 400 naming the parameter; a cursor
// pages through the ranked set without repeats.
func TestFederatedSearchJSON(t *testing.T) {
	e := newEntityEnv(t, Config{})
	res, body := get(t, e, "/api/search/federated?q=DOT&limit=50")
	var page federated.Page
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &page) != nil {
		t.Fatalf("GET federated: %d %s", res.StatusCode, body)
	}
	kinds := map[string]bool{}
	for _, r := range page.Results {
		kinds[r.Kind] = true
	}
	for _, k := range []string{federated.KindAgency, federated.KindNotice, federated.KindContract, federated.KindMeeting, federated.KindOrganization} {
		if !kinds[k] {
			t.Errorf("DOT: no %s among %v", k, kinds)
		}
	}
	// every route answers: the JSON twin and the page of each kind's
	// first result, over queries that reach every kind
	seen := map[string]bool{}
	for _, q := range []string{"DOT", "NYPD", "Skanska", "Bronx CB 10", "Rebecca Jones Gaston", "2022M0258"} {
		_, body := get(t, e, "/api/search/federated?"+url.Values{"q": {q}, "limit": {"50"}}.Encode())
		var p federated.Page
		if err := json.Unmarshal(body, &p); err != nil {
			t.Fatal(err)
		}
		for _, r := range p.Results {
			if seen[r.Kind] {
				continue
			}
			seen[r.Kind] = true
			res, b := get(t, e, r.Route)
			if res.StatusCode != http.StatusOK {
				t.Errorf("%s %s: route %s answers %d %s", r.Kind, r.ID, r.Route, res.StatusCode, b)
			}
			if r.Permalink == "" {
				if r.Kind != federated.KindPayrollRow {
					t.Errorf("%s %s has no permalink", r.Kind, r.ID)
				}
				continue
			}
			res, b = get(t, e, strings.TrimPrefix(r.Permalink, "http://rw.test"))
			if res.StatusCode != http.StatusOK {
				t.Errorf("%s %s: permalink %s answers %d %.300s", r.Kind, r.ID, r.Permalink, res.StatusCode, b)
			}
		}
	}
	if len(seen) != 11 {
		t.Errorf("kinds reached: %v", seen)
	}
	if page.Scope.Searched.Kind != "federated" || page.Scope.RecordsInCorpus == 0 || len(page.Coverage) != len(federated.Collections) {
		t.Errorf("scope %+v collections %d", page.Scope.Searched, len(page.Coverage))
	}

	// the former name of collections reads the same list
	res, body = get(t, e, "/api/search/federated?q=DOT&scope=contracts&limit=5")
	var former federated.Page
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &former) != nil || len(former.Results) == 0 {
		t.Fatalf("scope=: %d %s", res.StatusCode, body)
	}
	for _, r := range former.Results {
		if r.Collection != federated.CollectionContracts {
			t.Errorf("scope=contracts: result of another collection %+v", r)
		}
	}

	// collections: contracts and meetings only
	res, body = get(t, e, "/api/search/federated?q=DOT&collections=contracts,meetings&limit=5")
	var scoped federated.Page
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &scoped) != nil {
		t.Fatalf("scoped: %d %s", res.StatusCode, body)
	}
	for _, r := range scoped.Results {
		if r.Collection != federated.CollectionContracts && r.Collection != federated.CollectionMeetings {
			t.Errorf("result of another collection %+v", r)
		}
	}
	var pretty bytes.Buffer
	json.Indent(&pretty, body, "", "  ")
	golden(t, "federated_dot_contracts_meetings.json", pretty.Bytes())

	// paging: the next page continues the ranks, no object twice
	var all []string
	cursor := ""
	for i := 0; i < 10; i++ {
		v := url.Values{"q": {"NYPD"}, "limit": {"20"}}
		if cursor != "" {
			v.Set("cursor", cursor)
		}
		res, body := get(t, e, "/api/search/federated?"+v.Encode())
		var p federated.Page
		if res.StatusCode != http.StatusOK || json.Unmarshal(body, &p) != nil {
			t.Fatalf("page %d: %d %s", i, res.StatusCode, body)
		}
		for j, r := range p.Results {
			if r.Rank != len(all)+1 {
				t.Fatalf("page %d result %d has rank %d, want %d", i, j, r.Rank, len(all)+1)
			}
			all = append(all, r.Kind+" "+r.ID)
		}
		if cursor = p.NextCursor; cursor == "" {
			if len(all) != p.Ranked {
				t.Errorf("paged %d objects, ranked %d", len(all), p.Ranked)
			}
			break
		}
	}
	if len(all) <= 20 {
		t.Errorf("NYPD paged only %d objects", len(all))
	}
	dup := map[string]bool{}
	for _, k := range all {
		if dup[k] {
			t.Errorf("%s twice", k)
		}
		dup[k] = true
	}

	for _, tc := range []struct{ path, param, want string }{
		{"/api/search/federated?q=DOT&collections=weather", "collections", strings.Join(federated.Collections, ", ")},
		{"/api/search/federated?q=DOT&collections=money", "collections", strings.Join(federated.Collections, ", ")},
		{"/api/search/federated?collections=agencies", "q", "keyword"},
		{"/api/search/federated?q=DOT&limit=500", "limit", ""},
		{"/api/search/federated?q=DOT&engine=raw", "engine", ""},
		{"/api/search/federated?q=DOT&cursor=" + url.QueryEscape(page.NextCursor+"x"), "cursor", ""},
	} {
		res, body := get(t, e, tc.path)
		var eb errorBody
		if res.StatusCode != http.StatusBadRequest || json.Unmarshal(body, &eb) != nil || eb.Error.Code != record.EINVALID ||
			!strings.Contains(string(body), tc.param) || !strings.Contains(string(body), tc.want) {
			t.Errorf("%s: %d %s", tc.path, res.StatusCode, body)
		}
	}
}
