package api

import (
	"encoding/json"
	"html"
	"math"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// figure returns the marks of the picture data-chart=id on page: each
// mark's data attributes in order; it fails when the picture lacks its
// text alternative (role img, or group when its marks are links; title,
// description).
func figure(t *testing.T, page, id string) []map[string]string {
	t.Helper()
	start := strings.Index(page, `data-chart="`+id+`"`)
	if start < 0 {
		t.Fatalf("no picture %s on the page", id)
	}
	end := strings.Index(page[start:], "</figure>")
	fig := page[start : start+end]
	if !strings.Contains(fig, `role="img"`) && !strings.Contains(fig, `role="group"`) {
		t.Errorf("picture %s has no role", id)
	}
	for _, want := range []string{`aria-labelledby="` + id + `-t ` + id + `-d"`, `<title id="` + id + `-t">`, `<desc id="` + id + `-d">`, "<figcaption"} {
		if !strings.Contains(fig, want) {
			t.Errorf("picture %s lacks %s", id, want)
		}
	}
	var out []map[string]string
	for _, g := range regexp.MustCompile(`<g ([^>]*)>`).FindAllStringSubmatch(fig, -1) {
		m := map[string]string{}
		for _, a := range regexp.MustCompile(`data-([a-z]+)="([^"]*)"`).FindAllStringSubmatch(g[1], -1) {
			m[a[1]] = html.UnescapeString(a[2])
		}
		out = append(out, m)
	}
	return out
}

func getJSON(t *testing.T, e *env, path string, v any) {
	t.Helper()
	res, b := get(t, e, path)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("%s: %d %s", path, res.StatusCode, b)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

func near(a string, b float64) bool {
	f, err := strconv.ParseFloat(a, 64)
	return err == nil && math.Abs(f-b) < 0.005
}

// Every picture of the site is server-rendered SVG with its text
// alternative, and draws exactly the numbers of its JSON twin.
func TestPicturesMatchTheirJSONTwins(t *testing.T) {
	e := newEntityEnv(t, Config{})
	html := func(path string) string {
		res, b := getPage(t, e, path)
		if res.StatusCode != 200 {
			t.Fatalf("%s: %d", path, res.StatusCode)
		}
		return string(b)
	}
	type group struct {
		Label           string `json:"label"`
		Rows            int    `json:"rows"`
		ExcludedRows    int    `json:"excluded_rows"`
		RegisteredValue struct {
			Value *float64 `json:"value"`
		} `json:"registered_value"`
	}
	var an struct {
		Groups []group `json:"groups"`
	}

	t.Run("contract analysis bars", func(t *testing.T) {
		marks := figure(t, html("/contracts/analysis?group_by=agency"), "analysis-groups")
		getJSON(t, e, "/api/contracts/analysis?group_by=agency", &an)
		if len(marks) != len(an.Groups) || len(marks) == 0 {
			t.Fatalf("%d bars for %d groups", len(marks), len(an.Groups))
		}
		for i, g := range an.Groups {
			v := 0.0
			if g.RegisteredValue.Value != nil {
				v = *g.RegisteredValue.Value
			}
			if marks[i]["label"] != g.Label || !near(marks[i]["value"], v) || (marks[i]["marked"] == "1") != (g.ExcludedRows > 0) {
				t.Errorf("bar %d %v, group %+v", i, marks[i], g)
			}
		}
		byRows := figure(t, html("/contracts/analysis?group_by=vendor&rank_by=count"), "analysis-groups")
		getJSON(t, e, "/api/contracts/analysis?group_by=vendor&rank_by=count", &an)
		for i, g := range an.Groups {
			if byRows[i]["label"] != g.Label || !near(byRows[i]["value"], float64(g.Rows)) {
				t.Errorf("count bar %d %v, group %+v", i, byRows[i], g)
			}
		}
	})

	t.Run("fiscal-year trend", func(t *testing.T) {
		marks := figure(t, html("/contracts/analysis?group_by=agency"), "analysis-fy")
		getJSON(t, e, "/api/contracts/analysis?group_by=fiscal_year&limit=100", &an)
		want := map[string]float64{}
		for _, g := range an.Groups {
			if g.RegisteredValue.Value != nil {
				want[g.Label] = *g.RegisteredValue.Value
			} else {
				want[g.Label] = 0
			}
		}
		if len(marks) != len(want) || len(marks) < 2 {
			t.Fatalf("%d columns for %d fiscal years", len(marks), len(want))
		}
		prev := ""
		for _, m := range marks {
			if v, ok := want[m["label"]]; !ok || !near(m["value"], v) {
				t.Errorf("column %v, twin %v", m, want[m["label"]])
			}
			if m["label"] <= prev {
				t.Errorf("columns out of order: %s after %s", m["label"], prev)
			}
			prev = m["label"]
		}
	})

	t.Run("stats chart", func(t *testing.T) {
		marks := figure(t, html("/stats"), "stats-sets")
		var st struct {
			RecordSets []struct {
				Records int `json:"records"`
			} `json:"record_sets"`
		}
		getJSON(t, e, "/stats", &st)
		if len(marks) != len(st.RecordSets) || len(marks) == 0 {
			t.Fatalf("%d bars for %d record sets", len(marks), len(st.RecordSets))
		}
		for i, r := range st.RecordSets {
			if !near(marks[i]["value"], float64(r.Records)) {
				t.Errorf("set %d: bar %v, twin %d", i, marks[i], r.Records)
			}
		}
	})

	t.Run("land stage diagram", func(t *testing.T) {
		marks := figure(t, html("/land-projects/2024Q0292"), "decision-path")
		var dp struct {
			Normative []struct {
				ID       string   `json:"id"`
				State    string   `json:"state"`
				Evidence []string `json:"evidence"`
			} `json:"normative"`
		}
		getJSON(t, e, "/api/land-projects/2024Q0292/decision-path", &dp)
		if len(marks) != len(dp.Normative) || len(marks) == 0 {
			t.Fatalf("%d stages drawn for %d", len(marks), len(dp.Normative))
		}
		states := map[string]bool{}
		for i, s := range dp.Normative {
			states[s.State] = true
			if marks[i]["stage"] != s.ID || marks[i]["state"] != s.State || marks[i]["evidence"] != strconv.Itoa(len(s.Evidence)) {
				t.Errorf("stage %d: drawn %v, twin %+v", i, marks[i], s)
			}
		}
		if !states["absent"] || !states["happened"] {
			t.Errorf("the sample project should show absent and happened stages: %v", states)
		}
	})

	t.Run("meetings calendar", func(t *testing.T) {
		page := html("/meetings?from=2026-09-01&to=2026-09-30")
		var mp struct {
			Meetings []struct {
				When struct {
					Date string `json:"date"`
				} `json:"when"`
			} `json:"meetings"`
		}
		getJSON(t, e, "/api/meetings?from=2026-09-01&to=2026-09-30&limit=100", &mp)
		want := map[string]int{}
		for _, m := range mp.Meetings {
			want[m.When.Date]++
		}
		got := map[string]int{}
		for _, m := range regexp.MustCompile(`data-date="([0-9-]+)" data-count="([0-9]+)"`).FindAllStringSubmatch(page, -1) {
			n, _ := strconv.Atoi(m[2])
			if n > 0 {
				got[m[1]] = n
			}
		}
		if len(want) == 0 || len(got) != len(want) {
			t.Fatalf("calendar days %v, twin %v", got, want)
		}
		for d, n := range want {
			if got[d] != n {
				t.Errorf("%s: %d drawn, %d in the twin", d, got[d], n)
			}
		}
		if !strings.Contains(page, `class="ev eve"`) || !strings.Contains(page, `<td class="we" data-date=`) {
			t.Error("the calendar marks no evening meeting or weekend")
		}
	})

	t.Run("project map", func(t *testing.T) {
		page := html("/land-projects/2022M0258")
		marks := figure(t, page, "project-map")
		var pr struct {
			Project struct {
				CommunityDistricts []string `json:"community_districts"`
			} `json:"project"`
			LotPlaces []struct {
				BBL   string `json:"bbl"`
				Point *struct {
					Lat float64 `json:"lat"`
					Lon float64 `json:"lon"`
				} `json:"point"`
			} `json:"lot_places"`
		}
		getJSON(t, e, "/api/land-projects/2022M0258", &pr)
		// the twin's placed lots; the map draws each place once (the lots
		// of one outline share its middle)
		want, wantAt := map[string]bool{}, map[string]bool{}
		for _, l := range pr.LotPlaces {
			if l.Point != nil {
				at := strconv.FormatFloat(l.Point.Lat, 'f', -1, 64) + "," + strconv.FormatFloat(l.Point.Lon, 'f', -1, 64)
				want[l.BBL+"@"+at], wantAt[at] = true, true
			}
		}
		var got []string
		gotAt := map[string]bool{}
		for _, m := range marks {
			got = append(got, m["label"]+"@"+m["lat"]+","+m["lon"])
			gotAt[m["lat"]+","+m["lon"]] = true
			if !want[got[len(got)-1]] {
				t.Errorf("map point %s is not a lot place of the twin %v", got[len(got)-1], want)
			}
		}
		if len(want) == 0 || len(gotAt) != len(wantAt) {
			t.Errorf("map points %v, twin's lot places %v", got, want)
		}
		if len(pr.Project.CommunityDistricts) != 1 || pr.Project.CommunityDistricts[0] != "M11" || !strings.Contains(page, `data-district="Manhattan CB 11"`) {
			t.Errorf("the project's district %v is not shaded", pr.Project.CommunityDistricts)
		}
		if n := strings.Count(page, `class="boro"`); n != 5 {
			t.Errorf("%d borough outlines", n)
		}
	})

	t.Run("contract timeline", func(t *testing.T) {
		marks := figure(t, html("/contracts/CT100220268808241"), "contract-timeline")
		var cv struct {
			Rows []struct {
				RegisteredOn string  `json:"registered_on"`
				Amount       float64 `json:"amount"`
			} `json:"rows"`
		}
		getJSON(t, e, "/api/contracts/CT100220268808241", &cv)
		if len(marks) == 0 || len(marks) > len(cv.Rows) {
			t.Fatalf("%d columns for %d rows", len(marks), len(cv.Rows))
		}
		for _, m := range marks {
			found := false
			for _, r := range cv.Rows {
				if strings.HasPrefix(r.RegisteredOn, m["label"]) && near(m["value"], r.Amount) {
					found = true
				}
			}
			if !found {
				t.Errorf("column %v is no row of the twin %+v", m, cv.Rows)
			}
		}
	})
}
