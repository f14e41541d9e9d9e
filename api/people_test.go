package api

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/record"
)

// The JSON twins of get_person_or_organization and browse_organizations on
// the bundled roster: an exact organization row (golden), a person row by
// its escaped route, ids that are not exact in the API's error shape, a
// token browse that keeps two persons of one name apart, and bad input as
// 400.
func TestPeopleJSON(t *testing.T) {
	e := newEntityEnv(t, Config{})
	res, body := get(t, e, "/api/people/NYC_GOID_000190")
	var one PersonOrOrgView
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &one) != nil || one.Row.Type != people.TypeOrganization || one.ReleasesTotal != 1 {
		t.Fatalf("GET organization: %d %s", res.StatusCode, body)
	}
	golden(t, "people_NYC_GOID_000190.json", body)
	if p := one.Positions; p == nil || p.State != people.Unknown || p.Display != "no payroll held" || p.Measure == "" {
		t.Errorf("FISA positions (no payroll in the sample): %+v", p)
	}
	res, body = get(t, e, "/api/people/NYC_GOID_000389")
	var police PersonOrOrgView
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &police) != nil || police.Positions == nil ||
		police.Positions.State != people.Published || len(police.Positions.Years) != 1 || police.Positions.Years[0].Rows != 22 {
		t.Fatalf("police positions: %d %s", res.StatusCode, body)
	}

	person := one.Row.Relation(people.RelPrincipalOfficer).TargetID
	res, body = get(t, e, people.Route(person))
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &one) != nil || one.Row.ID != person || one.Row.Name != "Neil Matthew" || one.Route != people.Route(person) {
		t.Fatalf("GET person %s: %d %s", people.Route(person), res.StatusCode, body)
	}
	for _, path := range []string{"/api/people/nyc_goid_000190", "/api/people/Neil%20Matthew", "/api/people/NYC_GOID_000190%252F"} {
		var eb errorBody
		if res, body := get(t, e, path); res.StatusCode != http.StatusNotFound || json.Unmarshal(body, &eb) != nil || eb.Error.Code != record.ENOTFOUND {
			t.Errorf("%s: %d %s", path, res.StatusCode, body)
		}
	}

	res, body = get(t, e, "/api/organizations?row_type=person&token=matthew")
	var page people.Page
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &page) != nil {
		t.Fatalf("browse: %d %s", res.StatusCode, body)
	}
	orgs := map[string]bool{}
	for _, r := range page.Rows {
		if r.Name == "Neil Matthew" {
			orgs[r.OrgID] = true
		}
	}
	if len(orgs) != 2 || page.Freshness.Release != "2026-06-12" || page.Filters.Token != "matthew" {
		t.Errorf("Neil Matthew rows by organization %v; freshness %+v", orgs, page.Freshness)
	}
	for _, path := range []string{"/api/organizations?row_type=agency", "/api/organizations?token=two%20words", "/api/organizations?limit=101",
		"/api/organizations?nope=1", "/api/organizations?release=June", "/api/people/", "/api/people/NYC_GOID_000190?x=1"} {
		if res, body := get(t, e, path); res.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: %d %s; want 400", path, res.StatusCode, body)
		}
	}
}

// Civil-service rows beside the organizations: a list that names an
// agency is found by it, with its date and source; bad input is 400.
func TestCivilServiceJSON(t *testing.T) {
	e := newEntityEnv(t, Config{})
	res, body := get(t, e, "/api/civil-service?agency=police-department&kind=list")
	var page people.CivilPage
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &page) != nil || page.Total == 0 || page.Note == "" {
		t.Fatalf("police lists: %d %s", res.StatusCode, body)
	}
	for _, c := range page.Records {
		if c.AgencyID != "police-department" || c.AgencyName != "POLICE DEPARTMENT" || c.Date == "" || c.SourceLabel == "" || c.Kind != "list" {
			t.Fatalf("record %+v", c)
		}
	}
	res, body = get(t, e, "/api/civil-service?exam_number=7006")
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &page) != nil || page.Total < 2 {
		t.Fatalf("exam 7006 (schedule and OASys): %d %s", res.StatusCode, body)
	}
	for _, path := range []string{"/api/civil-service?kind=candidate", "/api/civil-service?limit=0", "/api/civil-service?name=x"} {
		if res, body := get(t, e, path); res.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: %d %s; want 400", path, res.StatusCode, body)
		}
	}
}

// The Form 1 pages: an organization with its leader per release (dated,
// linked to the person row), its civil-service lists when it is an
// agency, and a person row linked back; unknown ids are 404 pages.
func TestPeoplePages(t *testing.T) {
	e := newEntityEnv(t, Config{})
	res, body := get(t, e, "/organizations/NYC_GOID_000002/")
	page := string(body)
	if res.StatusCode != http.StatusOK || !strings.Contains(page, "Administration for Children&#39;s Services") || !strings.Contains(page, "as of 2026-06-12") ||
		!strings.Contains(page, `href="/people/NYC_GOID_000002%2Fprincipal-officer%2F2026-06-12"`) || !strings.Contains(page, `href="/api/people/NYC_GOID_000002"`) ||
		!strings.Contains(page, `href="/agencies/administration-for-childrens-services/"`) {
		t.Fatalf("organization page: %d %s", res.StatusCode, body)
	}
	res, body = get(t, e, "/people/NYC_GOID_000002%2Fprincipal-officer%2F2026-06-12")
	page = string(body)
	if res.StatusCode != http.StatusOK || !strings.Contains(page, "Rebecca Jones Gaston") || !strings.Contains(page, `href="/organizations/NYC_GOID_000002/"`) ||
		!strings.Contains(page, "not proof of who holds the role now") || !strings.Contains(page, `href="/feed.xml?lens=people&amp;agency=administration-for-childrens-services"`) {
		t.Fatalf("person page: %d %s", res.StatusCode, body)
	}
	res, body = get(t, e, "/organizations/NYC_GOID_000389/")
	page = string(body)
	if res.StatusCode != http.StatusOK || !strings.Contains(page, "Civil-service lists naming this agency") {
		t.Errorf("police organization page: %d", res.StatusCode)
	}
	// its payroll positions by title, with the measure; ACS has none held
	if !strings.Contains(page, "Positions held (Citywide Payroll)") || !strings.Contains(page, "Fiscal year 2016") ||
		!strings.Contains(page, "22 positions (payroll rows)") || !strings.Contains(page, "Regular Gross Paid as the dataset prints it") ||
		!strings.Contains(page, `href="/api/payroll?agency=police-department&amp;fiscal_year=2016&amp;title=`) {
		t.Errorf("police positions on the page: %s", body)
	}
	if _, body := get(t, e, "/organizations/NYC_GOID_000002/"); !strings.Contains(string(body), "<strong>no payroll held</strong>") {
		t.Errorf("ACS page does not say no payroll held")
	}
	for _, path := range []string{"/organizations/NYC_GOID_999999/", "/people/Rebecca%20Jones%20Gaston", "/organizations/NYC_GOID_000002%2Fprincipal-officer%2F2026-06-12/"} {
		if res, body := get(t, e, path); res.StatusCode != http.StatusNotFound || !strings.Contains(string(body), "JSON twin") {
			t.Errorf("%s: %d %s", path, res.StatusCode, body)
		}
	}
}

// The people lens is a Form 1 lens (SPEC §2.13): a Form 1 feed follows it
// (TestFeedsMatchBackend validates it), a Form 2 deployment refuses it.
func TestPeopleLensFeedIsForm1(t *testing.T) {
	for form, ok := range map[int]bool{1: true, 2: false} {
		s := newServer(Config{Form: form}, Deps{Crosswalk: entity.DefaultCrosswalk()})
		_, err := s.parseFeed(url.Values{"lens": {"people"}, "agency": {"DEPT. OF HOMELESS SERVICES"}})
		if (err == nil) != ok {
			t.Errorf("form %d: lens=people: %v", form, err)
		}
	}
}
