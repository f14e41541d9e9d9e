package api

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/api/web"
	"github.com/recordwatch/recordwatch/indexer/sampletest"
	"github.com/recordwatch/recordwatch/indexer/source/checkbook"
	"github.com/recordwatch/recordwatch/indexer/source/contracts"
	"github.com/recordwatch/recordwatch/indexer/source/crol"
	"github.com/recordwatch/recordwatch/indexer/source/leaders"
	"github.com/recordwatch/recordwatch/indexer/source/meetings"
	"github.com/recordwatch/recordwatch/indexer/source/payroll"
	"github.com/recordwatch/recordwatch/indexer/source/zap"
	"github.com/recordwatch/recordwatch/internal/dossier"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/store"
	"github.com/recordwatch/recordwatch/internal/view"
)

// newEntityEnv is the bundled sample as `go run .` loads it (City Record
// notices, Checkbook NYC answers, registered-contract rows, lot locations)
// in a real embedded index, served over loopback.
func newEntityEnv(t *testing.T, cfg Config) *env {
	t.Helper()
	dir := t.TempDir()
	be, err := sampletest.CopyTo(filepath.Join(dir, "index"), sampletest.Full, fixedNow) // EnsureSample, loaded once
	if err != nil {
		t.Fatal(err)
	}
	cw := entity.DefaultCrosswalk()
	st, err := store.OpenBolt(filepath.Join(dir, "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = "http://rw.test"
	}
	if cfg.RatePerSecond == 0 {
		cfg.RatePerSecond, cfg.Burst = 1e6, 1e6
	}
	cfg.Engine = "embedded"
	srv := newServer(cfg, Deps{Search: be, Store: st, Crosswalk: cw, Now: func() time.Time { return fixedNow }})
	e := &env{srv: srv, ts: httptest.NewServer(srv), be: be, st: st}
	t.Cleanup(func() { e.ts.Close(); be.Close(); st.Close() })
	return e
}

func post(t *testing.T, e *env, path, contentType string, body []byte) (*http.Response, []byte) {
	t.Helper()
	res, err := http.Post(e.ts.URL+path, contentType, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, b
}

// sampleAgencyStrings reads every raw agency string of the bundled data
// straight from the files, independently of the index.
func sampleAgencyStrings(t *testing.T) map[string]bool {
	t.Helper()
	sample := os.DirFS("../testdata/sample")
	out := map[string]bool{}
	c, errs := crol.Scan(sample, "crol", nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, n := range c.Notices {
		if n.AgencyRaw != "" {
			out[n.AgencyRaw] = true
		}
	}
	cb, errs := checkbook.LoadDir(sample, "checkbook", nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	rows, errs := contracts.LoadDir(sample, "contracts")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, c := range append(cb.Contracts, rows...) {
		if c.AgencyLabel != "" {
			out[c.AgencyLabel] = true
		}
	}
	for _, p := range cb.Payments {
		if p.AgencyRaw != "" {
			out[p.AgencyRaw] = true
		}
	}
	// payroll, meetings and the roster drive agency joins too (issue 33)
	pr, errs := payroll.ReadDir(sample, "payroll")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, r := range pr.Rows {
		if r.AgencyPrinted != "" {
			out[r.AgencyPrinted] = true
		}
	}
	ms, _ := meetings.ReadDir(sample, "meetings") // the image-only calendar is rejected with its reason
	for _, m := range ms.Meetings {
		if m.Agency != nil && m.Agency.Raw != "" {
			out[m.Agency.Raw] = true
		}
	}
	ld, errs := leaders.ReadDir(sample, "leaders")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, r := range ld.Rows {
		if r.Type == people.TypeOrganization && r.Name != "" {
			out[r.Name] = true
		}
	}
	return out
}

func TestEntities(t *testing.T) {
	e := newEntityEnv(t, Config{})

	t.Run("Agencies", func(t *testing.T) {
		res, b := get(t, e, "/agencies")
		if res.StatusCode != 200 {
			t.Fatalf("status %d: %s", res.StatusCode, b)
		}
		if res.Header.Get("Access-Control-Allow-Origin") != "*" || res.Header.Get("Cache-Control") != "public, max-age=86400" {
			t.Errorf("headers %v", res.Header)
		}
		out := decode[AgenciesResponse](t, b)
		if !strings.Contains(out.Notice, "not an official agency registry") || !strings.Contains(res.Header.Get("X-Recordwatch-Notice"), "not an official agency registry") {
			t.Errorf("notice %q", out.Notice)
		}
		// every raw string in the bundled data, one row each
		want := sampleAgencyStrings(t)
		got := map[string]dossier.AgencyRow{}
		for _, r := range out.Rows {
			if _, dup := got[r.RawString]; dup {
				t.Errorf("%q listed twice", r.RawString)
			}
			got[r.RawString] = r
		}
		for raw := range want {
			if _, ok := got[raw]; !ok {
				t.Errorf("raw agency string %q of the bundled data is missing", raw)
			}
		}
		if len(got) != len(want) || out.Count != len(want) {
			t.Errorf("%d rows (count %d), want %d", len(got), out.Count, len(want))
		}
		id := func(raw string) string { return got[raw].CanonicalID }
		if id("Police") != "police-department" || id("Police Department") != id("Police") || id("POLICE DEPARTMENT") != id("Police") {
			t.Errorf("police ids %q %q %q", id("Police"), id("Police Department"), id("POLICE DEPARTMENT"))
		}
		das := map[string]bool{}
		for _, raw := range []string{"District Attorney - Bronx County", "District Attorney - Kings County", "District Attorney - New York County"} {
			das[id(raw)] = true
		}
		if len(das) != 3 {
			t.Errorf("DA offices share ids: %v", das)
		}
		for _, pair := range [][2]string{{"ADMIN FOR CHILDREN'S SVCS", "Administration for Children's Services"},
			{"HRA/DEPT OF SOCIAL SERVICES", "Human Resources Administration"}, {"Department of Design and Construction", "Design and Construction"},
			{"DEPARTMENT OF PARKS AND RECREATION", "Parks and Recreation"}, {"Health and Hospitals Corporation", "NYC Health + Hospitals"},
			{"Queens Borough Public Library", "Public Library - Queens"}} {
			if id(pair[0]) == "" || id(pair[0]) != id(pair[1]) {
				t.Errorf("%q (%s) and %q (%s) should share an id", pair[0], id(pair[0]), pair[1], id(pair[1]))
			}
		}
		police := got["Police"]
		if police.Method != entity.MethodShort || !contains(police.Variants, "POLICE DEPARTMENT") || !contains(police.Variants, "Police Department") {
			t.Errorf("police row %+v", police)
		}
		// every spelling of the bundled data is reviewed: mapped by a rule,
		// or kept as its own id with the reason (Checkbook's budget unit
		// "Miscellaneous" is no agency)
		for _, r := range out.Rows {
			if r.Method == entity.MethodOwn && !strings.HasPrefix(r.Note, "reviewed and kept as its own id: ") {
				t.Errorf("unreviewed spelling %q: %+v", r.RawString, r)
			}
		}
		if m := got["Miscellaneous"]; m.Method != entity.MethodOwn || !strings.Contains(m.Note, "budget unit") {
			t.Errorf("Miscellaneous %+v", m)
		}
		checkScope(t, out.Scope)
		golden(t, "agencies.json", b)

		// the CSV has the same rows
		res, cb := get(t, e, "/agencies?format=csv")
		if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/csv") ||
			res.Header.Get("Access-Control-Allow-Origin") != "*" || res.Header.Get("Cache-Control") != "public, max-age=86400" {
			t.Fatalf("csv: %d %v", res.StatusCode, res.Header)
		}
		recs, err := csv.NewReader(bytes.NewReader(cb)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(recs[0], ",") != "raw_string,canonical_id,canonical_name,variants,method,note,sources,records" || len(recs)-1 != len(out.Rows) {
			t.Fatalf("csv header %v, %d rows", recs[0], len(recs)-1)
		}
		for i, r := range out.Rows {
			c := recs[i+1]
			if c[0] != r.RawString || c[1] != r.CanonicalID || c[2] != r.CanonicalName || c[3] != strings.Join(r.Variants, " | ") ||
				c[4] != r.Method || c[6] != strings.Join(r.Sources, " | ") || c[7] != fmt.Sprint(r.Records) {
				t.Errorf("csv row %d %v differs from JSON %+v", i, c, r)
			}
		}
		golden(t, "agencies.csv", cb)

		res, _ = get(t, e, "/agencies?format=xml")
		if res.StatusCode != 400 || res.Header.Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("format=xml: %d", res.StatusCode)
		}
		req, _ := http.NewRequest(http.MethodOptions, e.ts.URL+"/agencies", nil)
		req.Header.Set("Origin", "https://example.org")
		pre, err := http.DefaultClient.Do(req)
		if err != nil || pre.StatusCode != 204 || pre.Header.Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("preflight %v %v", pre, err)
		}
	})

	t.Run("VendorProfileSuffixVariants", func(t *testing.T) {
		// Denville Line Painting: "DENVILLE LINE PAINTING INC" and
		// "Denville Line Painting, Inc" (2014 DOT awards) are one vendor
		for _, path := range []string{"/api/vendors/denville-line-painting", "/api/vendors/DENVILLE%20LINE%20PAINTING%20INC",
			"/api/vendors/Denville%20Line%20Painting,%20Incorporated"} {
			res, b := get(t, e, path)
			if res.StatusCode != 200 {
				t.Fatalf("%s: %d %s", path, res.StatusCode, b)
			}
			v := decode[VendorProfile](t, b)
			if v.Stem != "DENVILLE LINE PAINTING" || v.Awards.Total != 3 || v.Awards.ValidAmounts != 3 || val(v.Awards.Amount) != 26895000 {
				t.Errorf("%s: %+v", path, v.Awards)
			}
			names := map[string]bool{}
			for _, vv := range v.Variants {
				names[vv.Name] = true
			}
			if !names["DENVILLE LINE PAINTING INC"] || !names["Denville Line Painting, Inc"] {
				t.Errorf("variants %+v", v.Variants)
			}
			checkScope(t, v.Scope)
			if path == "/api/vendors/denville-line-painting" {
				golden(t, "vendor_denville-line-painting.json", b)
			}
		}
		// invalid amounts are listed but not totalled: the Checkbook contract
		// of CDE Air Conditioning has a current amount of 0
		_, b := get(t, e, "/api/vendors/cde-air-conditioning")
		v := decode[VendorProfile](t, b)
		if v.Payments.Contracts.Count != 1 || v.Payments.Contracts.WithoutValidAmount != 1 || v.Payments.Contracts.Amount.Value != nil || v.Payments.Contracts.Amount.Display != "no valid amounts held" ||
			len(v.Payments.Entries) != 1 || v.Payments.Entries[0].Amount.Valid {
			t.Errorf("cde: %+v", v.Payments)
		}
		// and the Parks concession awards with the -1 placeholder count as
		// notices but not in the agency's award total (with the 2013
		// export's Parks awards and intents without an amount: 14)
		_, b = get(t, e, "/api/agencies/parks-and-recreation")
		parks := decode[AgencyProfile](t, b)
		if parks.Awards.WithoutValidAmount != 14 || parks.Awards.Total != parks.Awards.ValidAmounts+14 {
			t.Errorf("parks awards %+v", parks.Awards)
		}
		// Securus: 2014 (Inc.) and 2021–2023 (LLC) awards meet on one stem,
		// totalled by fiscal year
		_, b = get(t, e, "/api/vendors/securus-technologies")
		v = decode[VendorProfile](t, b)
		fy := map[int]float64{}
		for _, y := range v.Awards.ByFiscalYear {
			fy[y.FiscalYear] = val(y.Amount)
		}
		if v.Awards.Total != 4 || fy[2015] != 1 || fy[2022] != 2250000 || fy[2023] != 8395600 || len(fy) != 3 {
			t.Errorf("securus by fiscal year %v (%+v)", fy, v.Awards.ByFiscalYear)
		}
		// a vendor only the payments dataset knows: its two pending rows
		// (received, not registered) are counted apart, never as
		// registered value
		res, b := get(t, e, "/api/vendors/skanska~trevcon-jv")
		v = decode[VendorProfile](t, b)
		un := v.Payments.ContractsNotRegistered
		if res.StatusCode != 200 || v.Payments.Contracts.Count != 0 || v.Payments.Contracts.Amount.Value != nil || un == nil || un.Count != 2 ||
			val(un.Amount) != 419717845.27 || v.Awards.Total != 0 {
			t.Errorf("skanska: %d %+v", res.StatusCode, v.Payments)
		}
		// unknown stem: 404 that says a search may still find mentions
		res, b = get(t, e, "/api/vendors/zzqq-no-such-vendor")
		er := decode[errorBody](t, b)
		if res.StatusCode != 404 || er.Error.Code != record.ENOTFOUND || !strings.Contains(er.Error.Message, "search may still find mentions") {
			t.Errorf("unknown vendor: %d %s", res.StatusCode, b)
		}
	})

	t.Run("VendorPage", func(t *testing.T) {
		res, b := get(t, e, "/vendors/denville-line-painting/")
		if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") ||
			!bytes.Contains(b, []byte(`href="http://rw.test/api/vendors/denville-line-painting"`)) || !bytes.Contains(b, []byte("$26,895,000.00")) {
			t.Errorf("page %d %s", res.StatusCode, b)
		}
		// text from the records is escaped
		if !bytes.Contains(b, []byte("Denville Line Painting, Inc")) || bytes.Count(b, []byte("<script")) != bytes.Count(b, []byte(`<script src="/static/`)) || !bytes.Contains(b, []byte(`<script src="/static/pins.js" defer>`)) {
			t.Error("page text")
		}
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		r, err := client.Get(e.ts.URL + "/vendors/DENVILLE%20LINE%20PAINTING%20INC/")
		if err != nil || r.StatusCode != 301 || r.Header.Get("Location") != "/vendors/denville-line-painting/" {
			t.Errorf("variant redirect %v %v", r, err)
		}
		res, b = get(t, e, "/vendors/zzqq-no-such-vendor/")
		if res.StatusCode != 404 || !bytes.Contains(b, []byte("search may still find mentions")) {
			t.Errorf("unknown vendor page %d", res.StatusCode)
		}
		res, b = get(t, e, "/agencies/police-department/")
		if res.StatusCode != 200 || !bytes.Contains(b, []byte("Police Department")) || !bytes.Contains(b, []byte(`href="http://rw.test/api/agencies/police-department"`)) {
			t.Errorf("agency page %d", res.StatusCode)
		}
	})

	t.Run("AgencyProfile", func(t *testing.T) {
		res, b := get(t, e, "/api/agencies/police-department")
		if res.StatusCode != 200 {
			t.Fatalf("%d %s", res.StatusCode, b)
		}
		a := decode[AgencyProfile](t, b)
		raws := map[string]bool{}
		for _, v := range a.Variants {
			raws[v.RawString] = true
		}
		if a.Name != "Police Department" || !raws["Police"] || !raws["Police Department"] || !raws["POLICE DEPARTMENT"] || a.Notices.Total != 61 {
			t.Errorf("police: %s %v %d", a.Name, raws, a.Notices.Total)
		}
		lenses := map[string]int{}
		for _, f := range a.Notices.ByLens {
			lenses[f.Value] = f.Count
		}
		if lenses["people"] != 31 || lenses["money"] == 0 {
			t.Errorf("by lens %v", lenses)
		}
		checkScope(t, a.Scope)
		golden(t, "agency_design-and-construction.json", func() []byte { _, b := get(t, e, "/api/agencies/design-and-construction"); return b }())
		// Form 2 names resolve too
		_, b = get(t, e, "/api/agencies/DEPARTMENT%20OF%20DESIGN%20AND%20CONSTRUCTION")
		d := decode[AgencyProfile](t, b)
		if d.ID != "design-and-construction" || d.Payments.Contracts.Count == 0 || d.Awards.Total == 0 {
			t.Errorf("ddc: %s %+v %+v", d.ID, d.Payments.Contracts, d.Awards.Total)
		}
		res, b = get(t, e, "/api/agencies/no-such-agency-here")
		if res.StatusCode != 404 || !strings.Contains(string(b), "/agencies") {
			t.Errorf("unknown agency %d %s", res.StatusCode, b)
		}
	})

	t.Run("MatterSolicitationAndAward", func(t *testing.T) {
		// DOHMH catering: the solicitation (May 2026) and the award (July
		// 2026) carry the same PIN
		res, b := get(t, e, "/api/matters/81626W0043001")
		if res.StatusCode != 200 {
			t.Fatalf("%d %s", res.StatusCode, b)
		}
		m := decode[matterAnswer](t, b)
		if len(m.Timeline) != 2 || m.Timeline[0].Step != "solicitation" || m.Timeline[1].Step != "award" ||
			m.Timeline[0].Date != "2026-05-15" || m.Timeline[1].Date != "2026-07-30" ||
			m.Timeline[0].Link.Method != entity.PINExact || m.Timeline[1].Link.Method != entity.PINExact || m.Kind != procure.KindProcurement {
			t.Errorf("timeline %s", b)
		}
		if val(m.Totals.Awarded) != 250000 {
			t.Errorf("awarded %+v", m.Totals)
		}
		checkScope(t, m.Scope)
		golden(t, "matter_81626W0043001.json", b)
	})

	t.Run("MatterRenewalsAndRegistrations", func(t *testing.T) {
		// DFTA older adult center: the award of 12522P0001001, its renewals
		// R002 and R004, and registrations of this and sibling contracts
		_, b := get(t, e, "/api/matters/12522P0001001R004")
		m := decode[matterAnswer](t, b)
		methods := map[string]string{}
		for _, s := range m.Timeline {
			id := s.Permalink
			if s.Entry != nil {
				id = s.Entry.ContractID
			}
			methods[id] = s.Step + "/" + s.Link.Method
		}
		want := map[string]string{
			"http://rw.test/#notice/20220706041": "award/renewal",
			"http://rw.test/#notice/20240705012": "award/renewal",
			"http://rw.test/#notice/20260624018": "award/exact",
			"CT112520278800354":                  "registration/exact",
			"CT112520278800230":                  "registration/prefix",
		}
		for k, v := range want {
			if methods[k] != v {
				t.Errorf("%s: %q, want %q (all %v)", k, methods[k], v, methods)
			}
		}
		for i := 1; i < len(m.Timeline); i++ {
			if m.Timeline[i].Date < m.Timeline[i-1].Date {
				t.Errorf("timeline out of order at %d", i)
			}
		}
		golden(t, "matter_12522P0001001R004.json", b)
	})

	t.Run("MatterJunkAndBlanket", func(t *testing.T) {
		for _, pin := range []string{"N%2FA", "NONE", "TBD", "0", "-"} {
			res, b := get(t, e, "/api/matters/"+pin)
			if res.StatusCode != 404 || !strings.Contains(string(b), "never form a procurement matter") {
				t.Errorf("%s: %d %s", pin, res.StatusCode, b)
			}
		}
		res, b := get(t, e, "/api/matters/99999Z9999")
		if res.StatusCode != 404 || !strings.Contains(string(b), "may still have it") {
			t.Errorf("unknown pin: %d %s", res.StatusCode, b)
		}
	})

	t.Run("NoticeGainsPayments", func(t *testing.T) {
		// the 2026 award of 12522P0001001R004 joins its registration
		_, b := get(t, e, "/api/notices/20260624018")
		v := decode[NoticeView](t, b)
		if v.Payments == nil || v.Payments.Totals.Contracts.Count == 0 {
			t.Fatalf("payments %s", b)
		}
		found := false
		for _, l := range v.Payments.Links {
			if l.Entry.ContractID == "CT112520278800354" && l.Method == entity.PINExact {
				found = true
			}
		}
		if !found {
			t.Errorf("linked %+v", v.Payments.Links)
		}
		// a notice without a joining PIN has no payments block
		_, b = get(t, e, "/api/notices/20130621104")
		if decode[NoticeView](t, b).Payments != nil {
			t.Error("payments on a notice without a PIN")
		}
	})

	t.Run("Batch", func(t *testing.T) {
		names := []string{"Denville Line Painting, Inc", "C.A.C. INDUSTRIES, INC.", "Caddell Dry Dock  and  Repair Co., Inc.",
			"Dell Marketing LP", "IBM Corp.", "KPMG, LLP", "Prospect Park Alliance", "Securus Technologies, Inc.",
			"Make it Zesty LLC", "Zzqq Nobody Holdings LLC"}
		body, _ := json.Marshal(BatchRequest{Names: names})
		res, b := post(t, e, "/batch", "application/json", body)
		if res.StatusCode != 200 {
			t.Fatalf("%d %s", res.StatusCode, b)
		}
		out := decode[BatchResponse](t, b)
		if len(out.Results) != 10 {
			t.Fatalf("%d results", len(out.Results))
		}
		by := map[string]BatchResult{}
		for _, r := range out.Results {
			by[r.Name] = r
		}
		if r := by["Denville Line Painting, Inc"]; r.Awards.Total != 3 || r.Entity != "http://rw.test/vendors/denville-line-painting/" {
			t.Errorf("denville %+v", r)
		}
		if r := by["Make it Zesty LLC"]; r.Awards.Total != 1 || r.Mentions.Total == 0 || r.Mentions.From != "2024-08-14" {
			t.Errorf("zesty %+v", r)
		}
		if r := by["Zzqq Nobody Holdings LLC"]; r.Awards.Total != 0 || r.Entity != "" {
			t.Errorf("nobody %+v", r)
		}
		checkScope(t, out.Scope)
		golden(t, "batch_10_names.json", b)
	})

	t.Run("BatchLimits", func(t *testing.T) {
		fresh := newServer(Config{BaseURL: "http://rw.test", RatePerSecond: 1e6, Burst: 1e6}, Deps{Search: e.be, Store: newStore(t),
			Crosswalk: entity.DefaultCrosswalk(), Now: func() time.Time { return fixedNow }})
		ts := httptest.NewServer(fresh)
		defer ts.Close()
		le := &env{ts: ts}
		eleven := make([]string, 11)
		for i := range eleven {
			eleven[i] = fmt.Sprintf("Vendor Number %d Inc.", i)
		}
		b11, _ := json.Marshal(BatchRequest{Names: eleven})
		cases := []struct {
			name   string
			body   []byte
			status int
			param  string
		}{
			{"11 names", b11, 400, "names"},
			{"not JSON", []byte("names=Acme"), 400, "body"},
			{"empty list", []byte(`{"names": []}`), 400, "names"},
			{"empty name", []byte(`{"names": ["Acme Construction", "  "]}`), 400, "names[1]"},
			{"no names field", []byte(`{"vendors": ["Acme"]}`), 400, "vendors"},
			{"oversized", []byte(`{"names": ["` + strings.Repeat("a", BatchMaxBody) + `"]}`), 413, ""},
		}
		for _, c := range cases {
			res, b := post(t, le, "/batch", "application/json", c.body)
			er := decode[errorBody](t, b)
			if res.StatusCode != c.status || er.Error.Message == "" || c.param != "" && er.Error.Param != c.param {
				t.Errorf("%s: %d %s", c.name, res.StatusCode, b)
			}
		}
		// 30 a day per client: the 31st is refused with Retry-After
		ok := []byte(`{"names": ["Denville Line Painting"]}`)
		used := len(cases) - 1 // the oversized body never reaches the ceiling
		for i := used; i < BatchPerDay; i++ {
			if res, b := post(t, le, "/batch", "application/json", ok); res.StatusCode != 200 {
				t.Fatalf("call %d: %d %s", i+1, res.StatusCode, b)
			}
		}
		res, b := post(t, le, "/batch", "application/json", ok)
		if res.StatusCode != 429 || res.Header.Get("Retry-After") == "" || decode[errorBody](t, b).Error.Code != record.ELIMIT {
			t.Errorf("31st call: %d %v %s", res.StatusCode, res.Header, b)
		}
	})

	t.Run("PropertyLocations", func(t *testing.T) {
		res, b := get(t, e, "/property-locations")
		if res.StatusCode != 200 || res.Header.Get("Cache-Control") != "public, max-age=1800" {
			t.Fatalf("%d %v", res.StatusCode, res.Header)
		}
		out := decode[PropertyLocations](t, b)
		if out.Count != 243 {
			t.Errorf("%d records, want the 243 Property Disposition notices held", out.Count)
		}
		var hpd *PropertyLocation
		for i := range out.Records {
			if out.Records[i].RequestID == "20141022109" {
				hpd = &out.Records[i]
			}
			for _, a := range out.Records[i].Addresses {
				for _, venue := range []string{"Reade Street", "Gold Street", "Broadway", "Police Plaza", "Centre Street"} {
					if strings.Contains(a.Text, venue) {
						t.Errorf("%s: venue or contact %q taken for the site", out.Records[i].RequestID, a.Text)
					}
				}
			}
		}
		if hpd == nil || len(hpd.BBLs) != 1 || hpd.BBLs[0] != "1010810001" || len(hpd.Addresses) != 3 ||
			len(hpd.Boroughs) != 1 || hpd.Boroughs[0] != "Manhattan" || len(hpd.Unlocated) != 1 {
			t.Errorf("hpd %+v", hpd)
		}
		if hpd != nil && (len(hpd.UnlocatedWhy) != 1 || hpd.UnlocatedWhy[0].BBL != "1010810001" ||
			!strings.Contains(hpd.UnlocatedWhy[0].Reason, "only the lots of ZAP projects") || len(hpd.LandProjects) != 0) {
			t.Errorf("hpd unlocated lots %+v, land projects %+v", hpd.UnlocatedWhy, hpd.LandProjects)
		}
		checkScope(t, out.Scope)
		golden(t, "property_locations.json", b)
	})
}

func newStore(t *testing.T) *store.Bolt {
	t.Helper()
	st, err := store.OpenBolt(filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func contains(list []string, s string) bool {
	i := sort.SearchStrings(list, s)
	return i < len(list) && list[i] == s
}

// Text from the records is escaped on the human pages.
func TestEntityPageEscapes(t *testing.T) {
	var buf bytes.Buffer
	p := entityPage{Title: `<b>"Acme"</b>`, JSON: "http://rw.test/api/vendors/acme", Base: "http://rw.test", ScopeLine: record.N("scope.searched", "<x>"),
		Vendor: &VendorProfile{VendorIdentity: dossier.VendorIdentity{Name: `<script>alert(1)</script> & Sons`, Stem: "ACME",
			Variants: []dossier.Variant{{Name: `<img src=x onerror=alert(1)>`, Source: "crol", Records: 1}}},
			Awards:   AwardsView{Notices: []view.LinkedHit{{NoticeHit: view.NoticeHit{Title: `"><script>x</script>`}, Links: view.NoticeLinks{Permalink: "javascript:alert(1)"}}}},
			Payments: &procure.PaymentsView{}, Absence: []string{"<i>note</i>"}}}
	if err := web.Render(&buf, web.Page{Kind: web.Entity, Title: p.Title, Home: p.Base + "/", JSON: p.JSON, Data: p}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, bad := range []string{"<script>alert", "<img src=x", `"><script>`, "<i>note", "javascript:alert", "<b>\"Acme"} {
		if strings.Contains(out, bad) {
			t.Errorf("page contains unescaped %q", bad)
		}
	}
	if !strings.Contains(out, "&lt;script&gt;alert(1)&lt;/script&gt; &amp; Sons") {
		t.Errorf("name not escaped as text:\n%s", out)
	}
}

// The sample has no PIN on more than 5 awards; the rule is checked on
// notices shaped like the real DCAS awards of PIN 8571400452.
func TestBlanketChain(t *testing.T) {
	award := func(pin string) record.Notice {
		return record.Notice{NoticeType: "Award", Section: record.SectionProcurement, PIN: pin}
	}
	var six []record.Notice
	for i := 0; i < 6; i++ {
		six = append(six, award("8571400452"))
	}
	if ok, n := procure.Blanket("8571400452", six); !ok || n != 6 {
		t.Errorf("six awards: %v %d", ok, n)
	}
	if ok, _ := procure.Blanket("8571400452", six[:5]); ok {
		t.Error("five awards are not a blanket chain")
	}
	withSolicitation := append([]record.Notice{{NoticeType: "Solicitation", PIN: "8571400452"}}, six...)
	if ok, _ := procure.Blanket("8571400452", withSolicitation); ok {
		t.Error("a PIN with a solicitation is one procurement")
	}
	// awards of other PINs sharing the base do not count
	others := append(six[:3], award("8571400452001"), award("8571400452002"), award("8571400452003"))
	if ok, _ := procure.Blanket("8571400452", others); ok {
		t.Error("prefix matches counted as carrying the PIN")
	}
}

// Form 2 agency names with a slash reach the profile.
func TestAgencyNameWithSlash(t *testing.T) {
	e := &env{ts: httptest.NewServer(newServer(Config{Form: 2, BaseURL: "http://rw.test"}, Deps{Search: shared.be, Store: shared.st,
		Crosswalk: entity.DefaultCrosswalk(), Now: func() time.Time { return fixedNow }}))}
	defer e.ts.Close()
	res, b := get(t, e, "/api/agencies/HRA%2FDEPT%20OF%20SOCIAL%20SERVICES")
	a := decode[AgencyProfile](t, b)
	if res.StatusCode != 200 || a.ID != "human-resources-administration" || a.Links["permalink"] != "http://rw.test/#agency/Human%20Resources%20Administration" {
		t.Errorf("%d %s %v", res.StatusCode, a.ID, a.Links)
	}
}

// Geometry comes from the real lot files: a MapPLUTO centroid for a lot,
// else the ZAP portal's geometry of the project's lots.
func TestLotGeometry(t *testing.T) {
	es, errs := zap.LoadDir(os.DirFS("../testdata/sample"), "zap")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	by := map[string][]land.LotLocation{}
	for _, e := range es {
		by[e.BBL] = append(by[e.BBL], e)
	}
	g, ok := lotGeometry("1000380001", by["1000380001"])
	if !ok || g.Source != "mappluto" || !strings.Contains(string(g.Geometry), `"Point"`) || g.Note != "the lot's centroid" {
		t.Errorf("centroid %+v", g)
	}
	g, ok = lotGeometry("4021790006", by["4021790006"])
	if !ok || g.Source != "zap" || !strings.Contains(string(g.Geometry), "MultiPolygon") || !strings.Contains(g.Note, "108-05 68th Road Rezoning (project 2024Q0292)") {
		t.Errorf("zap %+v", g)
	}
	// Timbale Terrace lots: both files locate them; the centroid wins
	for bbl, list := range by {
		if len(list) > 1 {
			if g, _ := lotGeometry(bbl, list); g.Source != "mappluto" {
				t.Errorf("%s: %s geometry chosen over the centroid", bbl, g.Source)
			}
		}
	}
	if _, ok := lotGeometry("1010810001", by["1010810001"]); ok {
		t.Error("an unlocated lot got geometry")
	}
}

// val is a money view's value; -1 when it holds none.
func val(m procure.Money) float64 {
	if m.Value == nil {
		return -1
	}
	return *m.Value
}
