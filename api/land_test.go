package api

import (
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/indexer/source/zap"

	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/record"
)

// The JSON twins of the land tools and the project page on the bundled
// sample: a project and its decision path pinned by golden files, an
// unknown id as 404, a malformed one as 400, combined filters, and the
// page drawing observed and normative apart.
func TestLandProjectsJSONAndPage(t *testing.T) {
	e := newEntityEnv(t, Config{})
	for _, path := range []string{"/api/land-projects/2022M0258", "/api/land-projects/2022M0258/decision-path"} {
		res, body := get(t, e, path)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d %s", path, res.StatusCode, body)
		}
		var v any
		if err := json.Unmarshal(body, &v); err != nil {
			t.Fatal(err)
		}
		pretty, _ := json.MarshalIndent(v, "", "  ")
		name := strings.ReplaceAll(strings.TrimPrefix(path, "/api/"), "/", "_") + ".json"
		golden(t, name, append(pretty, '\n'))
	}
	res, body := get(t, e, "/api/land-projects/2099M9999")
	var eb errorBody
	if res.StatusCode != http.StatusNotFound || json.Unmarshal(body, &eb) != nil || eb.Error.Code != record.ENOTFOUND {
		t.Errorf("unknown project: %d %s", res.StatusCode, body)
	}
	for _, path := range []string{"/api/land-projects/Timbale/decision-path", "/api/land-projects?stage=lottery", "/api/land-projects?borough=Atlantis",
		"/api/land-projects?nope=1", "/api/land-projects?limit=101", "/api/land-projects?bbl=123"} {
		if res, body := get(t, e, path); res.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: %d %s", path, res.StatusCode, body)
		}
	}
	res, body = get(t, e, "/api/land-projects?status=completed&procedure=ulurp&borough=bronx")
	var page land.Page
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &page) != nil || page.Total != 1 || page.Projects[0].ID != "P2018X0210" ||
		page.Filters.Borough != "bronx" || page.Scope.Matched != 1 {
		t.Errorf("combined filters: %d %s", res.StatusCode, body)
	}
	res, body = get(t, e, "/land-projects/2024Q0292")
	html := string(body)
	if res.StatusCode != http.StatusOK || !strings.Contains(html, "Observed: what the sources recorded") || !strings.Contains(html, "Normative: the procedure") ||
		!strings.Contains(html, `class="st-not_started"`) || !strings.Contains(html, `href="http://rw.test/api/land-projects/2024Q0292"`) ||
		!strings.Contains(html, "108-05 68th Road Rezoning") {
		t.Errorf("page: %d\n%s", res.StatusCode, html)
	}
	// the appeals board's stages show, and no developer words do (a test's
	// name, a repository path, a field name)
	for _, w := range []string{"Affordable Housing Appeals Board review", "§197-g(d)"} {
		if !strings.Contains(html, w) {
			t.Errorf("the ULURP page lacks %q", w)
		}
	}
	for _, w := range []string{"TestProcedures", "internal/land", "testdata", "charter_text"} {
		if strings.Contains(html, w) {
			t.Errorf("the ULURP page shows %q", w)
		}
	}
	if res, _ := get(t, e, "/land-projects/2099M9999"); res.StatusCode != http.StatusNotFound {
		t.Errorf("unknown project page: %d", res.StatusCode)
	}
	res, body = get(t, e, "/land-projects?status=completed&borough=Manhattan")
	if html := string(body); res.StatusCode != http.StatusOK || !strings.Contains(html, `href="/land-projects/2022M0258"`) || strings.Contains(html, "P2018X0210") ||
		!strings.Contains(html, `href="http://rw.test/api/land-projects?borough=Manhattan&amp;status=completed"`) {
		t.Errorf("land lens page: %d\n%s", res.StatusCode, html)
	}
	if res, _ := get(t, e, "/land-projects?stage=lottery"); res.StatusCode != http.StatusBadRequest {
		t.Errorf("bad filter on the page: %d", res.StatusCode)
	}
}

// A project is found by several words of its name, in any order and
// letter case, through the JSON twin and the page (whose form keeps them);
// words of two different projects find none, nine words are a 400.
func TestLandProjectsByName(t *testing.T) {
	e := newEntityEnv(t, Config{})
	for _, w := range []string{"Timbale+Terrace", "terrace%20TIMBALE", "Timbale%20T%C3%A9rrace"} {
		res, body := get(t, e, "/api/land-projects?word="+w)
		var page land.Page
		if res.StatusCode != http.StatusOK || json.Unmarshal(body, &page) != nil || page.Total != 1 || page.Projects[0].ID != "2022M0258" {
			t.Errorf("%s: %d %s", w, res.StatusCode, body)
		}
	}
	res, body := get(t, e, "/api/land-projects?word=Timbale+Rule")
	var page land.Page
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &page) != nil || page.Total != 0 || page.Filters.Word != "timbale rule" {
		t.Errorf("words of two projects: %d %s", res.StatusCode, body)
	}
	if res, body := get(t, e, "/api/land-projects?word=a+b+c+d+e+f+g+h+i"); res.StatusCode != http.StatusBadRequest {
		t.Errorf("nine words: %d %s", res.StatusCode, body)
	}
	res, body = get(t, e, "/land-projects?word=terrace+timbale")
	if html := string(body); res.StatusCode != http.StatusOK || !strings.Contains(html, `href="/land-projects/2022M0258"`) ||
		!strings.Contains(html, `name="word" size="24" maxlength="200" value="terrace timbale"`) {
		t.Errorf("land lens page by name: %d\n%s", res.StatusCode, html)
	}
}

// Every BBL the bundled centroid file holds resolves to its centroid; a
// lot it cannot hold says why.
func TestEveryCentroidBBLResolves(t *testing.T) {
	es, errs := zap.LoadDir(os.DirFS("../testdata/sample"), "zap")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	by := map[string][]land.LotLocation{}
	centroids := 0
	for _, e := range es {
		by[e.BBL] = append(by[e.BBL], e)
		if e.Source == "mappluto" {
			centroids++
		}
	}
	for bbl, list := range by {
		g, ok := lotGeometry(bbl, list)
		if !ok || len(g.Geometry) == 0 {
			t.Errorf("%s: no geometry", bbl)
		}
	}
	if centroids != 776 {
		t.Errorf("%d centroids", centroids)
	}
	if r := land.NoCentroidReason("4021790099", true); !strings.Contains(r, "Queens") {
		t.Errorf("Queens lot: %q", r)
	}
}
