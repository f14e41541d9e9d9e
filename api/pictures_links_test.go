package api

import (
	"html"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// markLink is one linked mark of a picture: its link, its accessible name
// and the data attributes of the mark it wraps.
type markLink struct {
	href, name string
	data       map[string]string
}

var (
	markLinkRE = regexp.MustCompile(`<a href="([^"]*)"[^>]*? aria-label="([^"]*)"><g ([^>]*)>`)
	dataAttrRE = regexp.MustCompile(`data-([a-z]+)="([^"]*)"`)
)

// markLinks are the linked marks of the picture data-chart=id on page, in
// order; it fails when a mark of the picture is not a link (every: all
// must be) or when none is.
func markLinks(t *testing.T, page, id string, every bool) []markLink {
	t.Helper()
	start := strings.Index(page, `data-chart="`+id+`"`)
	if start < 0 {
		t.Fatalf("no picture %s on the page", id)
	}
	fig := page[start : start+strings.Index(page[start:], "</figure>")]
	var out []markLink
	for _, m := range markLinkRE.FindAllStringSubmatch(fig, -1) {
		d := map[string]string{}
		for _, a := range dataAttrRE.FindAllStringSubmatch(m[3], -1) {
			d[a[1]] = html.UnescapeString(a[2])
		}
		out = append(out, markLink{href: html.UnescapeString(m[1]), name: html.UnescapeString(m[2]), data: d})
	}
	if marks := len(figure(t, page, id)); (every && len(out) != marks) || len(out) == 0 {
		t.Fatalf("picture %s: %d of its %d marks are links", id, len(out), marks)
	}
	return out
}

// site is a link of the test site as a path of its test server.
func site(t *testing.T, href string) string {
	t.Helper()
	rest, ok := strings.CutPrefix(href, "http://rw.test")
	if !ok {
		t.Fatalf("a mark leads off the site: %s", href)
	}
	return rest
}

// Every mark of the site's pictures is a link, with an accessible name, to
// the records it counts: each link answers 200 and lists exactly the
// records the mark draws — the contract analysis's bars (rows per agency)
// and its fiscal-year columns (registered value and rows per year), the
// /stats chart's notice sections, a contract's registrations, a land
// project's stages and lots, a matter's steps; a Spanish page's marks keep
// the language.
func TestPictureMarksLeadToTheirRecords(t *testing.T) {
	e := newEntityEnv(t, Config{Form: 1})
	page := func(t *testing.T, path string) string {
		t.Helper()
		res, b := getPage(t, e, path)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d", path, res.StatusCode)
		}
		return string(b)
	}
	type listed struct {
		Total  int `json:"total"`
		Totals struct {
			Count      int      `json:"count"`
			Registered *float64 `json:"registered_value"`
		} `json:"totals"`
	}
	list := func(t *testing.T, href string) listed {
		t.Helper()
		var l listed
		getJSON(t, e, site(t, href), &l)
		return l
	}

	t.Run("analysis bars: rows per agency", func(t *testing.T) {
		marks := markLinks(t, page(t, "/contracts/analysis?group_by=agency&rank_by=count"), "analysis-groups", true)
		for _, m := range marks {
			l := list(t, m.href)
			if strconv.Itoa(l.Total) != m.data["value"] || !strings.HasPrefix(m.name, m.data["label"]+": ") {
				t.Errorf("bar %q (%s rows, named %q) leads to %s listing %d", m.data["label"], m.data["value"], m.name, m.href, l.Total)
			}
		}
	})

	t.Run("fiscal-year columns: registered value and rows per year", func(t *testing.T) {
		marks := markLinks(t, page(t, "/contracts/analysis?group_by=agency"), "analysis-fy", true)
		var fy struct {
			Groups []struct {
				Label string `json:"label"`
				Rows  int    `json:"rows"`
			} `json:"groups"`
		}
		getJSON(t, e, "/api/contracts/analysis?group_by=fiscal_year&rank_by=registered_value&limit=100", &fy)
		rows := map[string]int{}
		for _, g := range fy.Groups {
			rows[g.Label] = g.Rows
		}
		if len(marks) != len(fy.Groups) {
			t.Fatalf("%d columns, %d fiscal years", len(marks), len(fy.Groups))
		}
		for _, m := range marks {
			l := list(t, m.href)
			v, _ := strconv.ParseFloat(m.data["value"], 64)
			got := 0.0
			if l.Totals.Registered != nil {
				got = *l.Totals.Registered
			}
			if l.Total != rows[m.data["label"]] || math.Abs(got-v) > 0.005 {
				t.Errorf("column %s (value %s, %d rows) leads to %s listing %d rows worth %v", m.data["label"], m.data["value"], rows[m.data["label"]], m.href, l.Total, got)
			}
		}
	})

	t.Run("stats: notices per section", func(t *testing.T) {
		marks := markLinks(t, page(t, "/stats"), "stats-sets", false)
		n, meetings := 0, 0
		for _, m := range marks {
			u, err := url.Parse(site(t, m.href))
			if err != nil {
				t.Fatal(err)
			}
			var s struct {
				Total int `json:"total"`
			}
			switch {
			case u.Path == "/" && strings.HasPrefix(u.Fragment, "search?"):
				getJSON(t, e, "/api/"+u.Fragment+"&exact_count=true", &s)
				n++
			case u.Path == "/land-projects" || u.Path == "/meetings": // a source's meetings over the set's dates
				if u.Path == "/meetings" {
					meetings++
				}
				if res, _ := getPage(t, e, u.Path+"?"+u.RawQuery); res.StatusCode != 200 {
					t.Errorf("%s: %d", m.href, res.StatusCode)
				}
				getJSON(t, e, "/api"+u.Path+"?"+u.RawQuery, &s)
			default:
				t.Errorf("set %q leads to %s, not a list", m.data["label"], m.href)
				continue
			}
			if strconv.Itoa(s.Total) != m.data["value"] || !strings.HasPrefix(m.name, m.data["label"]+": ") {
				t.Errorf("set %q (%s records, named %q) leads to %s finding %d", m.data["label"], m.data["value"], m.name, m.href, s.Total)
			}
		}
		if n < 5 || len(marks) < n+1 {
			t.Errorf("%d sets lead to their notices, %d in all", n, len(marks))
		}
		if meetings == 0 {
			t.Errorf("no set of meetings leads to its source's calendar")
		}
	})

	t.Run("a contract's registrations, a project's stages and lots, a matter's steps", func(t *testing.T) {
		for _, m := range markLinks(t, page(t, "/contracts/CT100220268808241"), "contract-timeline", true) {
			if res, b := getPage(t, e, site(t, m.href)); res.StatusCode != 200 || !strings.Contains(string(b), m.data["label"]) {
				t.Errorf("registration %s leads to %s: %d", m.data["label"], m.href, res.StatusCode)
			}
		}
		p := page(t, "/land-projects/2024Q0292")
		for _, m := range markLinks(t, p, "decision-path", true) {
			if !strings.HasPrefix(m.href, "#") || !strings.Contains(p, `id="`+m.href[1:]+`"`) {
				t.Errorf("stage %s leads to %q, which is not on the page", m.data["stage"], m.href)
			}
		}
		for _, m := range markLinks(t, page(t, "/land-projects/2022M0258"), "project-map", true) {
			var lp struct {
				Projects []struct {
					ID string `json:"id"`
				} `json:"projects"`
			}
			u, _ := url.Parse(site(t, m.href))
			getJSON(t, e, "/api"+u.Path+"?"+u.RawQuery, &lp)
			found := false
			for _, x := range lp.Projects {
				found = found || x.ID == "2022M0258"
			}
			if !found || u.Query().Get("bbl") != m.data["label"] {
				t.Errorf("lot %s leads to %s, which does not list the project", m.data["label"], m.href)
			}
		}
		res, b := get(t, e, "/pictures/matter-timeline?pin=81626W0043001&lang=es")
		if res.StatusCode != 200 {
			t.Fatal(res.StatusCode)
		}
		steps := markLinkRE.FindAllStringSubmatch(string(b), -1)
		if len(steps) == 0 {
			t.Fatal("no matter step is a link")
		}
		for _, s := range steps {
			href := html.UnescapeString(s[1])
			u, _ := url.Parse(site(t, href))
			if u.Query().Get("lang") != "es" {
				t.Errorf("a Spanish step loses the language: %s", href)
			}
			if u.Fragment == "" {
				if res, _ := getPage(t, e, u.Path+"?"+u.RawQuery); res.StatusCode != 200 {
					t.Errorf("step leads to %s: %d", href, res.StatusCode)
				}
			}
		}
	})

	t.Run("Spanish marks keep the language", func(t *testing.T) {
		for _, m := range markLinks(t, page(t, "/contracts/CT100220268808241?lang=es"), "contract-timeline", true) {
			if u, _ := url.Parse(site(t, m.href)); u.Query().Get("lang") != "es" {
				t.Errorf("a Spanish mark loses the language: %s", m.href)
			}
		}
	})
}
