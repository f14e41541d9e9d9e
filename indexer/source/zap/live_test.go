package zap

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/fetch"
)

// The live fetch against a local server replaying real rows: the Open
// Data projects (the bundled SODA rows) and project BBLs (the bundled seed
// rows, served as SODA JSON objects of strings) in pages, and the portal
// answers by project id; an unknown id is skipped with its reason. What it
// read goes through ReadLand like the bundled files.
func TestLandFetcherReplay(t *testing.T) {
	const dir = "../../../testdata/sample/land/"
	projects, err := os.ReadFile(dir + "hgx4-8ukb_projects_cityscroll_warehouse_rows_milestone_before_2026-06-15.json")
	if err != nil {
		t.Fatal(err)
	}
	var prow []json.RawMessage
	if err := json.Unmarshal(projects, &prow); err != nil {
		t.Fatal(err)
	}
	bf, err := os.Open(dir + "2iga-a6mk_project_bbls_cityscroll_product_seed.csv")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bf).ReadAll()
	bf.Close()
	if err != nil {
		t.Fatal(err)
	}
	var brow []json.RawMessage
	for _, r := range recs[1:] {
		m := map[string]string{}
		for i, h := range recs[0] {
			if r[i] != "" {
				m[h] = r[i]
			}
		}
		b, _ := json.Marshal(m)
		brow = append(brow, b)
	}
	pages := map[string]int{}
	page := func(rows []json.RawMessage) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			q := r.URL.Query()
			if q.Get("$order") != "project_id" {
				http.Error(w, "no order", 400)
				return
			}
			limit, _ := strconv.Atoi(q.Get("$limit"))
			offset, _ := strconv.Atoi(q.Get("$offset"))
			pages[r.URL.Path]++
			end := min(offset+limit, len(rows))
			if offset > len(rows) {
				offset = end
			}
			json.NewEncoder(w).Encode(rows[offset:end])
		}
	}
	mux := http.NewServeMux()
	mux.Handle("/resource/hgx4-8ukb.json", page(prow))
	mux.Handle("/resource/2iga-a6mk.json", page(brow))
	mux.HandleFunc("/projects/", func(w http.ResponseWriter, r *http.Request) {
		b, err := os.ReadFile(dir + "zap_portal_api_project_" + strings.TrimPrefix(r.URL.Path, "/projects/") + ".json")
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Write(b)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	f := &LandFetcher{Client: fetch.New(), ProjectsURL: srv.URL + "/resource/hgx4-8ukb.json", BBLsURL: srv.URL + "/resource/2iga-a6mk.json",
		PortalURL: srv.URL + "/projects/", PageSize: 50, Portal: []string{"2022M0258", "2099M9999"}}
	got, skipped, err := f.Fetch(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if pages["/resource/hgx4-8ukb.json"] != 4 || pages["/resource/2iga-a6mk.json"] != 2 || got.Rows != 165+96+1 {
		t.Errorf("pages %v, rows %d", pages, got.Rows)
	}
	if len(skipped) != 1 || !strings.Contains(skipped[0].Error(), "2099M9999") {
		t.Errorf("skipped %v", skipped)
	}
	l, errs := ReadLand(got.FS, got.Dir)
	if len(errs) != 0 || len(l.Projects) != 167 { // 165 rows, and 2 projects known by their lots only
		t.Fatalf("%d projects, errors %v", len(l.Projects), errs)
	}
	for _, p := range l.Projects {
		if p.ID == "2022M0258" && (len(p.Milestones) != 6 || len(p.Lots) != 11 || len(p.Sources) != 3) {
			t.Errorf("2022M0258 from the live answers: %d milestones, %d lots, sources %+v", len(p.Milestones), len(p.Lots), p.Sources)
		}
	}
}
