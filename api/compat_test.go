package api

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/api/mcp"
	"github.com/recordwatch/recordwatch/indexer/sampletest"
	goldenfile "github.com/recordwatch/recordwatch/internal/golden"
	"github.com/recordwatch/recordwatch/internal/record"
)

// The compatibility test (SPEC §9: existing reads keep working; issue 46
// item 4). testdata/compat/<date>/ of the module holds dated snapshots of
// every JSON answer shape: api.json (a representative request per route of
// the route table, on the bundled sample, in both forms), mcp.json (every
// tool's output schema) and feeds.json (JSON Feed and Atom, per lens).
// Each maps an answer to its sorted "path: type" lines (path: dot-separated
// names, [] for array items; a deprecated field ends " deprecated"). Every
// field of every snapshot must still be served with a type among its old
// ones: a removed or renamed field is kept beside its new name and marked
// deprecated (api.Deprecated for the API, deprecated: true in the MCP
// schema), and each deprecated field is named in docs/api.md's change log.
// New fields are free. `go test ./api -run Compat -update` writes a new
// snapshot dated today when the shapes grew; it never rewrites an old one.

// compatDir holds the dated snapshots.
var compatDir = filepath.Join("..", "testdata", "compat")

// compatSurfaces are the files of one snapshot.
var compatSurfaces = []string{"api", "mcp", "feeds"}

// shapes maps an answer ("GET /api/search (form 1)") to its shape: path →
// the JSON types seen there ("string", "null|array", …; "element" and
// "attribute" for Atom).
type shapes map[string]map[string]string

// compatSampleIDs fill path parameters per route; routeSamples the rest.
var compatSampleIDs = map[string]string{
	"/api/notices/:id":                     "20140930007",
	"/api/agencies/*id":                    "design-and-construction",
	"/api/vendors/*stem":                   "denville-line-painting",
	"/api/matters/*pin":                    "12522P0001001R004",
	"/api/contracts/:id":                   "CT100220268808241",
	"/api/land-projects/:id":               "2022M0258",
	"/api/land-projects/:id/decision-path": "2022M0258",
	"/api/meetings/:id":                    "legistar:22525",
	"/api/people/*id":                      "NYC_GOID_000190",
}

// compatLookups find a route's sample id in another answer: the id of the
// first item of the array named.
var compatLookups = map[string][2]string{
	"/api/payroll/:id": {"/api/payroll?name=ABENSUR", "rows"},
}

// compatQueries are the representative queries of routes that need one.
var compatQueries = map[string][]string{
	"GET /api/search":             {"q=parks", "q=construction&lens=money", "lens=meetings", "lens=people&agency=Parks+and+Recreation", "q=zzqqxx"},
	"GET /api/passages":           {"q=parks"},
	"GET /api/search/federated":   {"q=NYPD", "q=DOT&collections=contracts,meetings"},
	"GET /api/watches/preview":    {"lens=money&q=construction", "lens=meetings", "follow=pin:84614B0025", "text=construction+awards+from+Parks"},
	"GET /api/contracts":          {"vendor=denville"},
	"GET /api/contracts/analysis": {"group_by=agency"},
	"GET /api/payroll":            {"name=smith"},
	"GET /api/rows":               {"vendor_stem=CDW+GOVERNMENT&limit=5", "contract_id=DO185720181820782&kind=payment&limit=5"},
	"GET /api/organizations":      {"row_type=organization", "row_type=person&token=matthew"},
	"GET /api/meetings":           {""},
	"GET /api/land-projects":      {""},
}

// compatBodies are the representative bodies of the JSON POST routes.
var compatBodies = map[string][]string{
	"POST /api/watches/preview": {`{"lens":"money","q":"construction"}`, `{"text":"construction awards from Parks"}`},
	"POST /api/watches":         {`{"email":"reader@example.org","lens":"money","q":"construction"}`, `{"email":"reader@example.org","text":"construction awards from Parks"}`},
	"POST /batch":               {`{"names":["Denville Line Painting"]}`},
}

// compatFeeds are the feed requests whose shapes are kept.
var compatFeeds = []string{"lens=money", "lens=land", "lens=property", "lens=rules", "lens=meetings", "lens=people",
	"lens=entity&kind=vendor&name=Securus+Technologies+LLC"}

var (
	compatOnce    sync.Once
	compatCurrent map[string]shapes
	compatErr     error
)

// currentShapes computes every surface's shapes once per test binary.
func currentShapes(t *testing.T) map[string]shapes {
	t.Helper()
	compatOnce.Do(func() {
		compatCurrent = map[string]shapes{"api": {}, "mcp": {}, "feeds": {}}
		for _, form := range []int{1, 2} {
			if err := apiShapes(t, form, compatCurrent["api"], compatCurrent["feeds"]); err != nil {
				compatErr = err
				return
			}
		}
		compatErr = mcpShapes(compatCurrent["mcp"])
	})
	if compatErr != nil {
		t.Fatal(compatErr)
	}
	return compatCurrent
}

// apiShapes asks every JSON route of the form's route table its
// representative requests on the bundled sample (Full) and records the
// answers' shapes, and the feeds'.
func apiShapes(t *testing.T, form int, api, feeds shapes) error {
	e := newWatchEnvOver(t, form, sampletest.Full, nil)
	cfg := Config{Form: form, BaseURL: e.ts.URL}
	var missing []string
	for _, rt := range newServer(cfg, shared.srv.deps).Router().Routes() {
		key := rt.Method + " " + rt.Path
		jsonRoute := strings.HasPrefix(rt.Path, "/api/") || compatBodies[key] != nil ||
			slices.Contains([]string{"/healthz", "/readyz", "/mcp/catalog.json", "/inv/schema.json"}, rt.Path)
		if !jsonRoute || rt.Method == http.MethodHead {
			continue
		}
		path := rt.Path
		if l, ok := compatLookups[rt.Path]; ok {
			_, _, body, err := compatDo(e.ts.URL, http.MethodGet, l[0], "")
			var answer map[string]json.RawMessage
			var list []struct {
				ID string `json:"id"`
			}
			if err != nil || json.Unmarshal(body, &answer) != nil || json.Unmarshal(answer[l[1]], &list) != nil || len(list) == 0 {
				return fmt.Errorf("%s: no sample id from %s: %v %.200s", rt.Path, l[0], err, body)
			}
			path = fillRoute(rt.Path, list[0].ID)
		} else if id, ok := compatSampleIDs[rt.Path]; ok {
			path = fillRoute(rt.Path, id)
		} else {
			path = fillRoute(rt.Path, "")
		}
		name := fmt.Sprintf("%s (form %d)", key, form)
		var reqs [][2]string // path, body
		switch rt.Method {
		case http.MethodGet:
			qs := compatQueries[key]
			if qs == nil {
				qs = []string{""}
			}
			for _, q := range qs {
				p := path
				if q != "" {
					p += "?" + q
				}
				reqs = append(reqs, [2]string{p, ""})
			}
		case http.MethodPost:
			for _, b := range compatBodies[key] {
				reqs = append(reqs, [2]string{path, b})
			}
		}
		var failed []string
		for _, r := range reqs {
			status, ctype, body, err := compatDo(e.ts.URL, rt.Method, r[0], r[1])
			if err != nil {
				return err
			}
			if status/100 != 2 || !strings.Contains(ctype, "json") {
				failed = append(failed, fmt.Sprintf("%s %s: %d %s %.200s", rt.Method, r[0], status, ctype, body))
				continue
			}
			if err := addJSONShape(api, name, body); err != nil {
				return fmt.Errorf("%s: %v", name, err)
			}
		}
		if len(reqs) == 0 || api[name] == nil {
			missing = append(missing, name+": no representative request answered JSON (add one to compatQueries/compatBodies): "+strings.Join(failed, "; "))
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("routes without a representative JSON answer:\n%s", strings.Join(missing, "\n"))
	}
	for _, q := range compatFeeds {
		for _, f := range []string{"/feed.json", "/feed.xml"} {
			status, ctype, body, err := compatDo(e.ts.URL, http.MethodGet, f+"?"+q, "")
			if err != nil {
				return err
			}
			name := fmt.Sprintf("GET %s?%s (form %d)", f, q, form)
			if status != http.StatusOK {
				if form == 2 && status == http.StatusBadRequest {
					continue // a Form 1 lens
				}
				return fmt.Errorf("%s: %d %s %s", name, status, ctype, body)
			}
			if f == "/feed.json" {
				err = addJSONShape(feeds, name, body)
			} else {
				err = addXMLShape(feeds, name, body)
			}
			if err != nil {
				return fmt.Errorf("%s: %v", name, err)
			}
		}
	}
	return nil
}

// fillRoute replaces a route's parameters with id (or routeSamples').
func fillRoute(route, id string) string {
	var parts []string
	for _, seg := range strings.Split(route, "/") {
		if strings.HasPrefix(seg, ":") || strings.HasPrefix(seg, "*") {
			if id != "" {
				seg = url.PathEscape(id)
			} else {
				seg = routeSamples[seg]
			}
		}
		parts = append(parts, seg)
	}
	return strings.Join(parts, "/")
}

func compatDo(base, method, path, body string) (int, string, []byte, error) {
	req, err := http.NewRequest(method, base+path, strings.NewReader(body))
	if err != nil {
		return 0, "", nil, err
	}
	req.Header.Set("Accept", "application/json")
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, res.Header.Get("Content-Type"), b, err
}

// addJSONShape adds the shape of a JSON document to answer name.
func addJSONShape(s shapes, name string, body []byte) error {
	var v any
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return err
	}
	if s[name] == nil {
		s[name] = map[string]string{}
	}
	walkJSON(v, "", s[name])
	return nil
}

func walkJSON(v any, path string, out map[string]string) {
	typ := "null"
	switch x := v.(type) {
	case map[string]any:
		typ = "object"
		for k, c := range x {
			walkJSON(c, join(path, k), out)
		}
	case []any:
		typ = "array"
		for _, c := range x {
			walkJSON(c, path+"[]", out)
		}
	case string:
		typ = "string"
	case json.Number:
		typ = "number"
	case bool:
		typ = "boolean"
	}
	if path != "" {
		out[path] = unionTypes(out[path], typ)
	}
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// unionTypes merges two "a|b" type lists, sorted.
func unionTypes(a, b string) string {
	set := map[string]bool{}
	for _, t := range strings.Split(a+"|"+b, "|") {
		if t != "" {
			set[t] = true
		}
	}
	var ts []string
	for t := range set {
		ts = append(ts, t)
	}
	sort.Strings(ts)
	return strings.Join(ts, "|")
}

// addXMLShape adds an Atom document's elements and attributes (by local
// name) to answer name.
func addXMLShape(s shapes, name string, body []byte) error {
	if s[name] == nil {
		s[name] = map[string]string{}
	}
	d := xml.NewDecoder(bytes.NewReader(body))
	var stack []string
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		switch el := tok.(type) {
		case xml.StartElement:
			stack = append(stack, el.Name.Local)
			p := strings.Join(stack, ".")
			s[name][p] = "element"
			for _, a := range el.Attr {
				if a.Name.Space == "xmlns" || a.Name.Local == "xmlns" {
					continue
				}
				s[name][p+".@"+a.Name.Local] = "attribute"
			}
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		}
	}
}

// mcpShapes records every tool's output schema: properties, array items
// ([]) and map values ({}), with their declared types and deprecation.
func mcpShapes(s shapes) error {
	d := mcpDepsOf(withServices(shared.srv.cfg, shared.srv.deps), "http://rw.test")
	for _, tool := range mcp.All(d) {
		b, err := json.Marshal(tool.Def.OutputSchema)
		if err != nil {
			return err
		}
		var schema map[string]any
		if err := json.Unmarshal(b, &schema); err != nil {
			return err
		}
		var forms []string
		for _, f := range tool.Forms {
			forms = append(forms, fmt.Sprint(f))
		}
		name := fmt.Sprintf("%s (forms %s)", tool.Def.Name, strings.Join(forms, ","))
		s[name] = map[string]string{}
		walkSchema(schema, "", s[name])
	}
	return nil
}

func walkSchema(sc map[string]any, path string, out map[string]string) {
	if path != "" {
		typ := "any"
		switch t := sc["type"].(type) {
		case string:
			typ = t
		case []any:
			typ = ""
			for _, x := range t {
				typ = unionTypes(typ, fmt.Sprint(x))
			}
		}
		if dep, _ := sc["deprecated"].(bool); dep {
			typ += " deprecated"
		}
		out[path] = typ
	}
	if props, ok := sc["properties"].(map[string]any); ok {
		for k, p := range props {
			if m, ok := p.(map[string]any); ok {
				walkSchema(m, join(path, k), out)
			}
		}
	}
	if items, ok := sc["items"].(map[string]any); ok {
		walkSchema(items, path+"[]", out)
	}
	if ap, ok := sc["additionalProperties"].(map[string]any); ok {
		walkSchema(ap, path+"{}", out)
	}
}

// lines is a shape as its sorted "path: type" lines; a field of
// api.Deprecated ends " deprecated".
func (s shapes) lines(surface string) map[string][]string {
	dep := map[string]bool{}
	for _, d := range Deprecated {
		for _, form := range []int{1, 2} {
			dep[fmt.Sprintf("%s (form %d)\x00%s", d.Route, form, d.Path)] = true
		}
	}
	out := map[string][]string{}
	for name, paths := range s {
		ls := []string{}
		for p, typ := range paths {
			if surface == "api" && dep[name+"\x00"+p] {
				typ += " deprecated"
			}
			ls = append(ls, p+": "+typ)
		}
		sort.Strings(ls)
		out[name] = ls
	}
	return out
}

// parseLines reads "path: type[ deprecated]" lines back.
func parseLines(ls []string) map[string]string {
	m := map[string]string{}
	for _, l := range ls {
		i := strings.LastIndex(l, ": ")
		m[l[:i]] = l[i+2:]
	}
	return m
}

// compareShapes lists what of the snapshot old the current shapes cur
// break: an answer or a field gone, or a field whose types are no longer
// among its old ones. New answers and fields are free.
func compareShapes(surface string, old, cur map[string][]string) []string {
	var problems []string
	for name, ls := range old {
		now, ok := cur[name]
		if !ok {
			problems = append(problems, fmt.Sprintf("%s: %s: the answer is gone", surface, name))
			continue
		}
		have := parseLines(now)
		for p, typ := range parseLines(ls) {
			got, ok := have[p]
			if !ok {
				problems = append(problems, fmt.Sprintf("%s: %s: field %s (%s) removed or renamed: keep it beside the new name, marked deprecated", surface, name, p, typ))
				continue
			}
			if !typesWithin(bareType(got), bareType(typ)) {
				problems = append(problems, fmt.Sprintf("%s: %s: field %s changed type %s → %s", surface, name, p, bareType(typ), bareType(got)))
			}
		}
	}
	sort.Strings(problems)
	return problems
}

func bareType(t string) string { return strings.TrimSuffix(t, " deprecated") }

// typesWithin reports whether every type of now was among old's (an
// integer is a number).
func typesWithin(now, old string) bool {
	was := strings.Split(old, "|")
	for _, t := range strings.Split(now, "|") {
		if !slices.Contains(was, t) && (t != "integer" || !slices.Contains(was, "number")) {
			return false
		}
	}
	return true
}

// snapshotDates are the dated snapshot directories, oldest first.
func snapshotDates(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(compatDir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var dates []string
	for _, e := range entries {
		if e.IsDir() && regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`).MatchString(e.Name()) {
			dates = append(dates, e.Name())
		}
	}
	sort.Strings(dates)
	return dates
}

func readSnapshot(t *testing.T, date, surface string) map[string][]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(compatDir, date, surface+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string][]string
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s/%s.json: %v", date, surface, err)
	}
	return m
}

func TestCompatibility(t *testing.T) {
	cur := currentShapes(t)
	dates := snapshotDates(t)
	if goldenfile.Update() {
		writeSnapshot(t, cur, dates)
		dates = snapshotDates(t)
	}
	if len(dates) == 0 {
		t.Fatal("no snapshot under testdata/compat (run go test ./api -run Compat -update)")
	}
	for _, date := range dates {
		for _, surface := range compatSurfaces {
			for _, p := range compareShapes(surface, readSnapshot(t, date, surface), cur[surface].lines(surface)) {
				t.Errorf("against the snapshot of %s: %s", date, p)
			}
		}
	}
	// the deprecated fields of the registry are served by their routes
	for _, d := range Deprecated {
		found := false
		for _, form := range []int{1, 2} {
			if _, ok := cur["api"][fmt.Sprintf("%s (form %d)", d.Route, form)][d.Path]; ok {
				found = true
			}
		}
		if !found {
			t.Errorf("api.Deprecated names %s of %s, which no answer serves", d.Path, d.Route)
		}
	}
	// every deprecated field is in docs/api.md's change log
	log := changeLog(t)
	for _, d := range deprecatedFields(cur) {
		if !documented(log, d[0], d[1]) {
			t.Errorf("%s: deprecated field `%s` is not in docs/api.md's change log (a dated line naming it, deprecated, and its route or tool)", d[0], d[1])
		}
	}
}

// deprecatedFields are every deprecated field served: (route or tool, path).
func deprecatedFields(cur map[string]shapes) [][2]string {
	var out [][2]string
	for _, d := range Deprecated {
		out = append(out, [2]string{d.Route, d.Path})
	}
	for name, paths := range cur["mcp"] {
		tool, _, _ := strings.Cut(name, " ")
		for p, typ := range paths {
			if strings.HasSuffix(typ, " deprecated") {
				out = append(out, [2]string{tool, p})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0]+out[i][1] < out[j][0]+out[j][1] })
	return slices.Compact(out)
}

// changeLog is the lines of docs/api.md's "## Change log" section.
func changeLog(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "docs", "api.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n## Change log\n")
	if !ok {
		t.Fatal("docs/api.md has no ## Change log section")
	}
	if i := strings.Index(section, "\n## "); i >= 0 {
		section = section[:i]
	}
	return strings.Split(section, "\n")
}

var datedLine = regexp.MustCompile(`^- \*\*\d{4}-\d{2}-\d{2}\*\*`)

// documented reports whether a dated change-log line names the field in
// backquotes, says deprecated and names where (a route's path or a tool).
func documented(log []string, where, path string) bool {
	_, route, _ := strings.Cut(where, " ")
	if route == "" {
		route = where // a tool
	}
	for _, l := range log {
		if datedLine.MatchString(l) && strings.Contains(l, "`"+path+"`") && strings.Contains(l, "deprecated") && strings.Contains(l, route) {
			return true
		}
	}
	return false
}

// writeSnapshot writes the current shapes as today's snapshot when they
// differ from the newest one; an existing snapshot is never rewritten.
func writeSnapshot(t *testing.T, cur map[string]shapes, dates []string) {
	t.Helper()
	files := map[string][]byte{}
	same := len(dates) > 0
	for _, surface := range compatSurfaces {
		b, err := json.MarshalIndent(cur[surface].lines(surface), "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		files[surface] = append(b, '\n')
		if same {
			old, err := os.ReadFile(filepath.Join(compatDir, dates[len(dates)-1], surface+".json"))
			same = err == nil && bytes.Equal(old, files[surface])
		}
	}
	if same {
		return
	}
	today := fixedNowOrToday()
	dir := filepath.Join(compatDir, today)
	if _, err := os.Stat(dir); err == nil {
		t.Fatalf("%s exists and differs from the shapes now: a snapshot is never rewritten (remove it by hand only if it is your own, unmerged)", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for surface, b := range files {
		if err := os.WriteFile(filepath.Join(dir, surface+".json"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("wrote %s", dir)
}

// fixedNowOrToday is the date a new snapshot takes: today in New York.
func fixedNowOrToday() string { return time.Now().In(record.NewYork).Format("2006-01-02") }

// A field deleted from the current shapes (a removed field, simulated) is
// reported, also a deprecated alias and a type change: the comparison can
// fail (mutation check).
func TestCompatibilityCatchesRemovedField(t *testing.T) {
	cur := currentShapes(t)
	for _, surface := range compatSurfaces {
		snap := cur[surface].lines(surface)
		if p := compareShapes(surface, snap, snap); len(p) > 0 {
			t.Fatalf("%s: shapes differ from themselves: %v", surface, p)
		}
	}
	cases := []struct{ surface, answer, path, want string }{
		{"api", "GET /api/watches/preview (form 1)", "filter", "field filter (object deprecated) removed"},
		{"api", "POST /api/watches (form 2)", "filter", "field filter (object deprecated) removed"},
		{"api", "GET /api/search/federated (form 1)", "lens_coverage", "field lens_coverage (array deprecated) removed"},
		{"api", "GET /api/search/federated (form 1)", "results[].lens", "field results[].lens (string deprecated) removed"},
		{"api", "GET /api/contracts/:id (form 1)", "payments.ledger", "field payments.ledger (object deprecated) removed"},
		{"api", "GET /api/search (form 1)", "hits[].request_id", "field hits[].request_id (string) removed"},
		{"mcp", "search_federated (forms 1)", "lens_coverage", "field lens_coverage (array|null deprecated) removed"},
		{"mcp", "get_contract (forms 1)", "payments.ledger", "field payments.ledger (object deprecated) removed"},
		{"mcp", "search_notices (forms 1,2)", "results[].request_id", "field results[].request_id (string) removed"},
		{"feeds", "GET /feed.json?lens=money (form 1)", "items[].id", "field items[].id (string) removed"},
		{"feeds", "GET /feed.xml?lens=money (form 2)", "feed.entry.title", "field feed.entry.title (element) removed"},
	}
	for _, c := range cases {
		t.Run(c.surface+" "+c.answer+" "+c.path, func(t *testing.T) {
			old := cur[c.surface].lines(c.surface)
			if _, ok := parseLines(old[c.answer])[c.path]; !ok {
				t.Fatalf("%s has no %s: %v", c.answer, c.path, old[c.answer])
			}
			mutated := shapes{}
			for name, paths := range cur[c.surface] {
				mutated[name] = map[string]string{}
				for p, typ := range paths {
					if name != c.answer || (p != c.path && !strings.HasPrefix(p, c.path+".") && !strings.HasPrefix(p, c.path+"[]")) {
						mutated[name][p] = typ
					}
				}
			}
			problems := compareShapes(c.surface, old, mutated.lines(c.surface))
			if !slices.ContainsFunc(problems, func(p string) bool { return strings.Contains(p, c.answer+": "+c.want) }) {
				t.Errorf("deleting %s from %s is not reported as %q: %v", c.path, c.answer, c.want, problems)
			}
		})
	}
	t.Run("type change", func(t *testing.T) {
		old := cur["api"].lines("api")
		name := "GET /api/search (form 1)"
		mutated := shapes{name: map[string]string{}}
		for p, typ := range cur["api"][name] {
			mutated[name][p] = typ
		}
		mutated[name]["total"] = "string"
		problems := compareShapes("api", map[string][]string{name: old[name]}, mutated.lines("api"))
		if len(problems) != 1 || !strings.Contains(problems[0], "field total changed type number → string") {
			t.Errorf("a type change is not reported: %v", problems)
		}
	})
	t.Run("undocumented deprecation", func(t *testing.T) {
		if documented([]string{"- **2026-12-06** `lens_coverage` restored"}, "GET /api/search/federated", "lens_coverage") {
			t.Error("a line without 'deprecated' counts as documenting")
		}
		if !documented(changeLog(t), "GET /api/search/federated", "lens_coverage") {
			t.Error("lens_coverage is not documented")
		}
	})
}
