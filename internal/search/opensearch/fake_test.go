package opensearch

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeCluster is a small stand-in for an OpenSearch node on loopback. It
// keeps aliases, indexes and documents by id, so the index, bulk, mget, get
// and delete paths behave like the real API; searches answer from a
// per-test function (canned responses written from the API spec) or, by
// default, with every document and the coverage aggregations. Every request
// is recorded for the golden files and the spec check.
type fakeCluster struct {
	t   *testing.T
	srv *httptest.Server

	mu      sync.Mutex
	aliases map[string][]string                   // alias → indexes
	indexes map[string]map[string]json.RawMessage // index → id → _source
	log     []exchange

	// search answers _search when set; index is the path's target.
	search func(index string, body map[string]any) (int, string)
	// fault, when set, answers first (fault injection); ok=false passes.
	fault func(r *http.Request) (status int, body string, ok bool)
}

// exchange is one recorded request.
type exchange struct {
	Method      string `json:"method"`
	Path        string `json:"path"`
	Query       string `json:"query,omitempty"`
	ContentType string `json:"content_type,omitempty"`
	// Body is the parsed JSON body; an NDJSON body is the array of its lines.
	Body any    `json:"body,omitempty"`
	raw  []byte // the body as sent

	status   int // the fake's answer, checked against the spec too
	response []byte
}

func newFake(t *testing.T) *fakeCluster {
	t.Helper()
	f := &fakeCluster{t: t, aliases: map[string][]string{}, indexes: map[string]map[string]json.RawMessage{}}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// requests returns what was recorded and forgets it.
func (f *fakeCluster) requests() []exchange {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.log
	f.log = nil
	return out
}

func (f *fakeCluster) docs(index string) map[string]json.RawMessage {
	f.mu.Lock()
	defer f.mu.Unlock()
	if idx := f.resolve(index); len(idx) == 1 {
		return maps(f.indexes[idx[0]])
	}
	return nil
}

func maps(m map[string]json.RawMessage) map[string]json.RawMessage {
	out := make(map[string]json.RawMessage, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// resolve turns an alias or index name into index names.
func (f *fakeCluster) resolve(name string) []string {
	if idx, ok := f.aliases[name]; ok {
		return idx
	}
	if _, ok := f.indexes[name]; ok {
		return []string{name}
	}
	return nil
}

func parseBody(contentType string, raw []byte) any {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	if strings.HasPrefix(contentType, "application/x-ndjson") || bytes.Count(bytes.TrimSpace(raw), []byte("\n")) > 0 && !json.Valid(raw) {
		var lines []any
		sc := bufio.NewScanner(bytes.NewReader(raw))
		sc.Buffer(make([]byte, 1<<20), 1<<26)
		for sc.Scan() {
			if len(bytes.TrimSpace(sc.Bytes())) == 0 {
				continue
			}
			var v any
			if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
				return "INVALID NDJSON LINE: " + sc.Text()
			}
			lines = append(lines, v)
		}
		return lines
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return "INVALID JSON: " + string(raw)
	}
	return v
}

// background reports whether a request is the client library's own
// traffic (node stats polling, health checks), which is answered but not
// recorded: it depends on timing, not on what the engine does.
func background(r *http.Request) bool {
	p := r.URL.Path
	return r.Method == http.MethodGet && (p == "/" || strings.HasPrefix(p, "/_nodes") ||
		strings.HasPrefix(p, "/_cluster/health") || strings.HasPrefix(p, "/_cat/"))
}

func (f *fakeCluster) serve(w http.ResponseWriter, r *http.Request) {
	if background(r) {
		w.Header().Set("Content-Type", "application/json; charset=UTF-8")
		_, _ = io.WriteString(w, `{"cluster_name":"fake","nodes":{},"status":"green","version":{"distribution":"opensearch","number":"2.19.0"}}`)
		return
	}
	raw, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(raw)) // a fault may read it again
	q := r.URL.Query()
	ex := exchange{Method: r.Method, Path: r.URL.EscapedPath(), Query: q.Encode(), raw: raw}
	if len(raw) > 0 {
		ex.ContentType = r.Header.Get("Content-Type")
	}
	ex.Body = parseBody(ex.ContentType, raw)
	f.mu.Lock()
	f.log = append(f.log, ex)
	n := len(f.log) - 1
	fault := f.fault
	f.mu.Unlock()

	reply := func(status int, body string) {
		f.mu.Lock()
		if n < len(f.log) && f.log[n].Method == ex.Method && f.log[n].Path == ex.Path {
			f.log[n].status, f.log[n].response = status, []byte(body)
		}
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json; charset=UTF-8")
		w.WriteHeader(status)
		if r.Method != http.MethodHead {
			_, _ = io.WriteString(w, body)
		}
	}
	if fault != nil {
		if status, body, ok := fault(r); ok {
			reply(status, body)
			return
		}
	}
	status, body := f.route(r.Method, r.URL.EscapedPath(), q, raw)
	reply(status, body)
}

func jsonString(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func notFoundIndex(name string) (int, string) {
	return 404, fmt.Sprintf(`{"error":{"root_cause":[{"type":"index_not_found_exception","reason":"no such index [%[1]s]","index":"%[1]s"}],"type":"index_not_found_exception","reason":"no such index [%[1]s]","index":"%[1]s"},"status":404}`, name)
}

// route answers like OpenSearch 2.x for the APIs the engine uses.
func (f *fakeCluster) route(method, path string, q url.Values, raw []byte) (int, string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	parts := strings.Split(strings.Trim(path, "/"), "/")
	for i, p := range parts {
		if u, err := url.PathUnescape(p); err == nil {
			parts[i] = u
		}
	}
	switch {
	case method == http.MethodGet && len(parts) == 2 && parts[0] == "_alias":
		alias := parts[1]
		idx := f.aliases[alias]
		if len(idx) == 0 {
			return 404, fmt.Sprintf(`{"error":"alias [%s] missing","status":404}`, alias)
		}
		out := map[string]any{}
		for _, i := range idx {
			out[i] = map[string]any{"aliases": map[string]any{alias: map[string]any{}}}
		}
		return 200, jsonString(out)

	case method == http.MethodHead && len(parts) == 1:
		if _, ok := f.indexes[parts[0]]; ok {
			return 200, ""
		}
		return 404, ""

	case method == http.MethodPut && len(parts) == 1:
		name := parts[0]
		if _, ok := f.indexes[name]; ok {
			return 400, fmt.Sprintf(`{"error":{"root_cause":[{"type":"resource_already_exists_exception","reason":"index [%[1]s/abc] already exists","index":"%[1]s"}],"type":"resource_already_exists_exception","reason":"index [%[1]s/abc] already exists","index":"%[1]s"},"status":400}`, name)
		}
		var def map[string]any
		if err := json.Unmarshal(raw, &def); err != nil || def["mappings"] == nil {
			return 400, `{"error":{"type":"mapper_parsing_exception","reason":"bad mappings"},"status":400}`
		}
		f.indexes[name] = map[string]json.RawMessage{}
		return 200, fmt.Sprintf(`{"acknowledged":true,"shards_acknowledged":true,"index":%q}`, name)

	case method == http.MethodPost && path == "/_aliases":
		var body struct {
			Actions []map[string]struct {
				Index string `json:"index"`
				Alias string `json:"alias"`
			} `json:"actions"`
		}
		if err := json.Unmarshal(raw, &body); err != nil {
			return 400, `{"error":{"type":"parse_exception","reason":"bad actions"},"status":400}`
		}
		for _, a := range body.Actions {
			for verb, act := range a {
				switch verb {
				case "add":
					if _, ok := f.indexes[act.Index]; !ok {
						return notFoundIndex(act.Index)
					}
					if !slices.Contains(f.aliases[act.Alias], act.Index) {
						f.aliases[act.Alias] = append(f.aliases[act.Alias], act.Index)
					}
				case "remove":
					f.aliases[act.Alias] = slices.DeleteFunc(f.aliases[act.Alias], func(s string) bool { return s == act.Index })
					if len(f.aliases[act.Alias]) == 0 {
						delete(f.aliases, act.Alias)
					}
				}
			}
		}
		return 200, `{"acknowledged":true}`

	case method == http.MethodPost && path == "/_reindex":
		var body struct {
			Source struct {
				Index []string `json:"index"`
			} `json:"source"`
			Dest struct {
				Index string `json:"index"`
			} `json:"dest"`
		}
		if err := json.Unmarshal(raw, &body); err != nil {
			return 400, `{"error":{"type":"parse_exception","reason":"bad reindex"},"status":400}`
		}
		n := 0
		for _, src := range body.Source.Index {
			for id, doc := range f.indexes[src] {
				f.indexes[body.Dest.Index][id] = doc
				n++
			}
		}
		return 200, fmt.Sprintf(`{"took":12,"timed_out":false,"total":%d,"updated":0,"created":%d,"deleted":0,"batches":1,"version_conflicts":0,"noops":0,"retries":{"bulk":0,"search":0},"throttled_millis":0,"requests_per_second":-1.0,"throttled_until_millis":0,"failures":[]}`, n, n)

	case method == http.MethodPost && path == "/_bulk":
		return f.bulk(raw, q)

	case method == http.MethodPost && len(parts) == 2 && parts[1] == "_mget":
		idx := f.resolve(parts[0])
		if len(idx) != 1 {
			return notFoundIndex(parts[0])
		}
		var body struct {
			IDs []string `json:"ids"`
		}
		_ = json.Unmarshal(raw, &body)
		docs := []any{}
		for _, id := range body.IDs {
			src, ok := f.indexes[idx[0]][id]
			if !ok {
				docs = append(docs, map[string]any{"_index": idx[0], "_id": id, "found": false})
				continue
			}
			docs = append(docs, map[string]any{"_index": idx[0], "_id": id, "_version": 1, "_seq_no": 0, "_primary_term": 1, "found": true,
				"_source": filterSource(src, q.Get("_source_includes"), "")})
		}
		return 200, jsonString(map[string]any{"docs": docs})

	case len(parts) == 3 && parts[1] == "_doc":
		idx := f.resolve(parts[0])
		if len(idx) != 1 {
			return notFoundIndex(parts[0])
		}
		id := parts[2]
		switch method {
		case http.MethodGet:
			src, ok := f.indexes[idx[0]][id]
			if !ok {
				return 404, fmt.Sprintf(`{"_index":%q,"_id":%q,"found":false}`, idx[0], id)
			}
			return 200, jsonString(map[string]any{"_index": idx[0], "_id": id, "_version": 1, "_seq_no": 0, "_primary_term": 1, "found": true,
				"_source": filterSource(src, "", q.Get("_source_excludes"))})
		case http.MethodPut:
			f.indexes[idx[0]][id] = json.RawMessage(raw)
			return 201, fmt.Sprintf(`{"_index":%q,"_id":%q,"_version":1,"result":"created","_shards":{"total":1,"successful":1,"failed":0},"_seq_no":0,"_primary_term":1}`, idx[0], id)
		}

	case method == http.MethodPost && len(parts) == 2 && parts[1] == "_delete_by_query":
		idx := f.resolve(parts[0])
		if len(idx) != 1 {
			return notFoundIndex(parts[0])
		}
		var body struct {
			Query struct {
				Terms map[string][]string `json:"terms"`
			} `json:"query"`
		}
		_ = json.Unmarshal(raw, &body)
		n := 0
		for field, values := range body.Query.Terms {
			for id, src := range f.indexes[idx[0]] {
				var m map[string]any
				_ = json.Unmarshal(src, &m)
				if v, _ := m[field].(string); slices.Contains(values, v) {
					delete(f.indexes[idx[0]], id)
					n++
				}
			}
		}
		return 200, fmt.Sprintf(`{"took":3,"timed_out":false,"total":%d,"deleted":%d,"batches":1,"version_conflicts":0,"noops":0,"retries":{"bulk":0,"search":0},"throttled_millis":0,"requests_per_second":-1.0,"throttled_until_millis":0,"failures":[]}`, n, n)

	case method == http.MethodPost && len(parts) == 2 && parts[1] == "_refresh":
		for _, name := range strings.Split(parts[0], ",") {
			if len(f.resolve(name)) == 0 {
				return notFoundIndex(name)
			}
		}
		return 200, `{"_shards":{"total":3,"successful":3,"failed":0}}`

	case method == http.MethodPost && len(parts) == 2 && parts[1] == "_search":
		idx := f.resolve(parts[0])
		if len(idx) != 1 {
			return notFoundIndex(parts[0])
		}
		var body map[string]any
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		_ = dec.Decode(&body)
		if f.search != nil {
			f.mu.Unlock()
			status, out := f.search(parts[0], body)
			f.mu.Lock()
			if status != 0 {
				return status, out
			}
		}
		return 200, f.defaultSearch(idx[0], body)
	}
	return 400, fmt.Sprintf(`{"error":{"type":"illegal_argument_exception","reason":"fake cluster: no handler for [%s %s]"},"status":400}`, method, path)
}

// filterSource keeps only the comma-separated include fields, or drops the
// exclude fields.
func filterSource(src json.RawMessage, include, exclude string) map[string]any {
	var m map[string]any
	_ = json.Unmarshal(src, &m)
	if include != "" {
		keep := strings.Split(include, ",")
		for k := range m {
			if !slices.Contains(keep, k) {
				delete(m, k)
			}
		}
	}
	if exclude != "" {
		for _, k := range strings.Split(exclude, ",") {
			delete(m, k)
		}
	}
	return m
}

func (f *fakeCluster) bulk(raw []byte, q url.Values) (int, string) {
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	var items []any
	hasErrors := false
	for sc.Scan() {
		var action map[string]struct {
			Index string `json:"_index"`
			ID    string `json:"_id"`
		}
		if err := json.Unmarshal(sc.Bytes(), &action); err != nil {
			return 400, `{"error":{"type":"illegal_argument_exception","reason":"Malformed action/metadata line"},"status":400}`
		}
		for verb, meta := range action {
			idx := f.aliases[meta.Index]
			if len(idx) != 1 {
				if q.Get("require_alias") == "true" {
					hasErrors = true
					items = append(items, map[string]any{verb: map[string]any{"_index": meta.Index, "_id": meta.ID, "status": 404,
						"error": map[string]any{"type": "index_not_found_exception", "reason": "no such index [" + meta.Index + "] and [require_alias] request flag is [true] and [" + meta.Index + "] is not an alias"}}})
					if verb == "index" {
						sc.Scan()
					}
					continue
				}
				idx = []string{meta.Index}
			}
			switch verb {
			case "index":
				if !sc.Scan() {
					return 400, `{"error":{"type":"illegal_argument_exception","reason":"The bulk request must be terminated by a newline [\\n]"},"status":400}`
				}
				f.indexes[idx[0]][meta.ID] = json.RawMessage(slices.Clone(sc.Bytes()))
				items = append(items, map[string]any{"index": map[string]any{"_index": idx[0], "_id": meta.ID, "_version": 1, "result": "created",
					"_shards": map[string]any{"total": 1, "successful": 1, "failed": 0}, "_seq_no": 0, "_primary_term": 1, "status": 201}})
			case "delete":
				if _, ok := f.indexes[idx[0]][meta.ID]; !ok {
					items = append(items, map[string]any{"delete": map[string]any{"_index": idx[0], "_id": meta.ID, "_version": 1, "result": "not_found",
						"_shards": map[string]any{"total": 1, "successful": 1, "failed": 0}, "_seq_no": 0, "_primary_term": 1, "status": 404}})
					continue
				}
				delete(f.indexes[idx[0]], meta.ID)
				items = append(items, map[string]any{"delete": map[string]any{"_index": idx[0], "_id": meta.ID, "_version": 2, "result": "deleted",
					"_shards": map[string]any{"total": 1, "successful": 1, "failed": 0}, "_seq_no": 1, "_primary_term": 1, "status": 200}})
			}
		}
	}
	return 200, jsonString(map[string]any{"took": 5, "errors": hasErrors, "items": items})
}

// defaultSearch returns every document (sorted by id) and, when asked, the
// coverage aggregations: terms on source with min/max start_date.
func (f *fakeCluster) defaultSearch(index string, body map[string]any) string {
	ids := make([]string, 0, len(f.indexes[index]))
	for id := range f.indexes[index] {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	size := len(ids)
	if n, ok := body["size"].(json.Number); ok {
		v, _ := n.Int64()
		size = min(size, int(v))
	}
	hits := []any{}
	for _, id := range ids[:size] {
		hits = append(hits, map[string]any{"_index": index, "_id": id, "_score": 1.0, "_source": f.indexes[index][id]})
	}
	res := map[string]any{
		"took": 1, "timed_out": false,
		"_shards": map[string]any{"total": 1, "successful": 1, "skipped": 0, "failed": 0},
		"hits":    map[string]any{"total": map[string]any{"value": len(ids), "relation": "eq"}, "max_score": 1.0, "hits": hits},
	}
	if aggs, ok := body["aggs"].(map[string]any); ok {
		if _, ok := aggs["sources"]; ok {
			type bucket struct {
				count       int
				first, last time.Time
			}
			by := map[string]*bucket{}
			for _, src := range f.indexes[index] {
				var d struct {
					Source    string    `json:"source"`
					StartDate time.Time `json:"start_date"`
				}
				_ = json.Unmarshal(src, &d)
				bk := by[d.Source]
				if bk == nil {
					bk = &bucket{}
					by[d.Source] = bk
				}
				bk.count++
				if !d.StartDate.IsZero() {
					if bk.first.IsZero() || d.StartDate.Before(bk.first) {
						bk.first = d.StartDate
					}
					if d.StartDate.After(bk.last) {
						bk.last = d.StartDate
					}
				}
			}
			buckets := []any{}
			for _, name := range sortedKeys(by) {
				bk := by[name]
				b := map[string]any{"key": name, "doc_count": bk.count}
				metric := func(t time.Time) map[string]any {
					if t.IsZero() {
						return map[string]any{"value": nil}
					}
					return map[string]any{"value": float64(t.UnixMilli()), "value_as_string": t.UTC().Format("2006-01-02T15:04:05.000Z")}
				}
				b["first"], b["dated"] = metric(bk.first), map[string]any{"doc_count": bk.count, "last": metric(bk.last)} // the fake holds no future-dated notice
				buckets = append(buckets, b)
			}
			res["aggregations"] = map[string]any{"sources": map[string]any{"doc_count_error_upper_bound": 0, "sum_other_doc_count": 0, "buckets": buckets}}
		}
	}
	return jsonString(res)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// bulkRefusing answers a _bulk request as a busy cluster does: an action
// for which refuse returns a status (429, 503 …) is refused with it and not
// applied; the others go to the fake, and the answer lists every item in
// the request's order. actions gets "verb id" of each action of the body.
func (f *fakeCluster) bulkRefusing(r *http.Request, refuse func(verb, id string) int) (status int, body string, actions []string) {
	raw, _ := io.ReadAll(r.Body)
	lines := strings.SplitAfter(string(raw), "\n")
	var kept strings.Builder
	type slot struct {
		verb, index, id string
		status          int
	}
	var slots []slot
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) == "" {
			continue
		}
		var action map[string]bulkMeta
		if err := json.Unmarshal([]byte(lines[i]), &action); err != nil {
			f.t.Errorf("bulkRefusing: action line %q: %v", lines[i], err)
			return 400, `{"error":"bad action line","status":400}`, nil
		}
		for verb, meta := range action {
			s := slot{verb: verb, index: meta.Index, id: meta.ID, status: refuse(verb, meta.ID)}
			slots = append(slots, s)
			actions = append(actions, verb+" "+meta.ID)
			part := lines[i]
			if verb == "index" {
				i++
				part += lines[i]
			}
			if s.status == 0 {
				kept.WriteString(part)
			}
		}
	}
	var applied struct {
		Items []json.RawMessage `json:"items"`
	}
	if kept.Len() > 0 {
		st, ans := f.route(http.MethodPost, "/_bulk", r.URL.Query(), []byte(kept.String()))
		if st != 200 || json.Unmarshal([]byte(ans), &applied) != nil {
			return st, ans, actions
		}
	}
	var items []any
	for _, s := range slots {
		if s.status == 0 {
			items = append(items, applied.Items[0])
			applied.Items = applied.Items[1:]
			continue
		}
		typ := "es_rejected_execution_exception"
		if s.status != http.StatusTooManyRequests {
			typ = "unavailable_shards_exception"
		}
		items = append(items, map[string]any{s.verb: map[string]any{"_index": s.index, "_id": s.id, "status": s.status,
			"error": map[string]any{"type": typ, "reason": "injected: refused while busy"}}})
	}
	return 200, jsonString(map[string]any{"took": 4, "errors": true, "items": items}), actions
}
