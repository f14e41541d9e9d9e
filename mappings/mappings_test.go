package mappings

import (
	"encoding/json"
	"io/fs"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// storedOnly lists, per kind, the fields kept in _source only (mapped with
// "index": false or "enabled": false). Changing what is searchable is a
// deliberate act: update this list and the mapping version together.
var storedOnly = map[string][]string{
	Notices: {
		"agency_division", "amount_raw", "body", "contact", "document_links",
		"event_place", "official_url", "open_data_url", "passage_ids", "raw", "vendor_address",
	},
	Passages: {"source_url"},
	Meta:     {},
	Records:  {"amount", "body", "date_label", "text", "title"},
}

// typeFor is the Go type each kind's documents are built from.
var typeFor = map[string]reflect.Type{
	Notices:  reflect.TypeFor[record.Notice](),
	Passages: reflect.TypeFor[record.Passage](),
	// observation documents carry these coverage fields
	Meta: reflect.TypeFor[record.SourceCoverage](),
	// records are search.Record documents
	Records: reflect.TypeFor[search.Record](),
}

type indexFile struct {
	Settings struct {
		Analysis struct {
			Analyzer map[string]json.RawMessage `json:"analyzer"`
			Filter   map[string]json.RawMessage `json:"filter"`
		} `json:"analysis"`
	} `json:"settings"`
	Mappings struct {
		Dynamic    any                  `json:"dynamic"`
		Properties map[string]fieldSpec `json:"properties"`
	} `json:"mappings"`
}

type fieldSpec struct {
	Type     string               `json:"type"`
	Index    *bool                `json:"index"`
	Enabled  *bool                `json:"enabled"`
	Analyzer string               `json:"analyzer"`
	Fields   map[string]fieldSpec `json:"fields"`
}

func (f fieldSpec) stored() bool {
	return (f.Index != nil && !*f.Index) || (f.Enabled != nil && !*f.Enabled)
}

func load(t *testing.T, kind string) indexFile {
	t.Helper()
	b, err := Get(kind)
	if err != nil {
		t.Fatal(err)
	}
	var f indexFile
	dec := json.NewDecoder(strings.NewReader(string(b)))
	if err := dec.Decode(&f); err != nil {
		t.Fatalf("%s: %v", kind, err)
	}
	return f
}

// jsonFields lists the JSON names of a struct's fields (promoted fields of
// embedded structs included, "-" skipped).
func jsonFields(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			out = append(out, jsonFields(f.Type)...)
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// allKinds are the kinds opened.
var allKinds = slices.Clone(Kinds)

func TestMappedFieldsMatchRecordTypes(t *testing.T) {
	for _, kind := range allKinds {
		t.Run(kind, func(t *testing.T) {
			f := load(t, kind)
			if f.Mappings.Dynamic != "strict" {
				t.Errorf("dynamic = %v, want \"strict\" so unmapped fields fail loudly", f.Mappings.Dynamic)
			}
			typeFields := jsonFields(typeFor[kind])
			engine := EngineFields[kind]
			for _, name := range keys(f.Mappings.Properties) {
				if !slices.Contains(typeFields, name) && !slices.Contains(engine, name) {
					t.Errorf("mapped field %q is neither a JSON field of %s nor an engine field %v", name, typeFor[kind], engine)
				}
			}
			for _, name := range engine {
				if slices.Contains(typeFields, name) {
					t.Errorf("engine field %q collides with a JSON field of %s", name, typeFor[kind])
				}
				if _, ok := f.Mappings.Properties[name]; !ok {
					t.Errorf("engine field %q is not mapped", name)
				}
			}
			if kind == Meta {
				return // observation docs carry a subset of SourceCoverage
			}
			for _, name := range typeFields {
				if _, ok := f.Mappings.Properties[name]; !ok {
					t.Errorf("JSON field %q of %s is not mapped (map it, or map it stored-only with \"index\": false and list it in storedOnly)", name, typeFor[kind])
				}
			}
		})
	}
}

func TestStoredOnlyFieldsAreListed(t *testing.T) {
	for _, kind := range allKinds {
		f := load(t, kind)
		var got []string
		for name, spec := range f.Mappings.Properties {
			if spec.stored() {
				got = append(got, name)
			}
		}
		sort.Strings(got)
		want := slices.Clone(storedOnly[kind])
		sort.Strings(want)
		if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Errorf("%s: stored-only fields = %v, want %v", kind, got, want)
		}
	}
}

func TestFieldTypes(t *testing.T) {
	known := map[string]bool{"keyword": true, "text": true, "date": true, "boolean": true,
		"double": true, "integer": true, "object": true, "knn_vector": true}
	for _, kind := range Kinds {
		f := load(t, kind)
		var check func(path string, spec fieldSpec)
		check = func(path string, spec fieldSpec) {
			if !known[spec.Type] {
				t.Errorf("%s.%s: unexpected type %q", kind, path, spec.Type)
			}
			if spec.Type == "text" && !spec.stored() {
				if spec.Analyzer == "" {
					t.Errorf("%s.%s: text field without the custom analyzer", kind, path)
				} else if _, ok := f.Settings.Analysis.Analyzer[spec.Analyzer]; !ok {
					t.Errorf("%s.%s: analyzer %q is not defined in settings", kind, path, spec.Analyzer)
				}
			}
			for sub, s := range spec.Fields {
				check(path+"."+sub, s)
			}
		}
		for name, spec := range f.Mappings.Properties {
			check(name, spec)
		}
	}
	// the fields queries and facets rely on
	n := load(t, Notices).Mappings.Properties
	for name, typ := range map[string]string{
		"content": "text", "title": "text", "text": "text", "lenses": "keyword", "agency_id": "keyword",
		"notice_type": "keyword", "year": "keyword", "request_id": "keyword", "amount": "double",
		"amount_valid": "boolean", "due_rolling": "boolean", "start_date": "date", "due_date": "date",
		"event_date": "date",
	} {
		if n[name].Type != typ {
			t.Errorf("notices.%s: type %q, want %q", name, n[name].Type, typ)
		}
	}
	for _, name := range []string{"agency_raw", "agency_name", "vendor_name"} {
		if n[name].Type != "keyword" || n[name].Fields["text"].Type != "text" {
			t.Errorf("notices.%s: want keyword with a text subfield, got %+v", name, n[name])
		}
	}
}

func TestAnalyzersAgree(t *testing.T) {
	var first []byte
	for _, kind := range []string{Notices, Passages} {
		b, err := Get(kind)
		if err != nil {
			t.Fatal(err)
		}
		var f struct {
			Settings struct {
				Analysis json.RawMessage `json:"analysis"`
			} `json:"settings"`
		}
		if err := json.Unmarshal(b, &f); err != nil {
			t.Fatal(err)
		}
		var v any
		_ = json.Unmarshal(f.Settings.Analysis, &v)
		canon, _ := json.Marshal(v)
		if first == nil {
			first = canon
		} else if string(first) != string(canon) {
			t.Errorf("%s: analysis settings differ from notices", kind)
		}
	}
	var f struct {
		Settings struct {
			Analysis struct {
				Analyzer struct {
					En struct {
						Tokenizer string   `json:"tokenizer"`
						Filter    []string `json:"filter"`
					} `json:"en"`
				} `json:"analyzer"`
			} `json:"analysis"`
		} `json:"settings"`
	}
	b, _ := Get(Notices)
	_ = json.Unmarshal(b, &f)
	en := f.Settings.Analysis.Analyzer.En
	if en.Tokenizer != "standard" || !slices.Equal(en.Filter, []string{"english_possessive", "lowercase", "bleve_stop_en", "porter_stem"}) {
		t.Errorf("en analyzer = %+v, want standard + english_possessive, lowercase, bleve_stop_en, porter_stem (Bleve's en)", en)
	}
}

func TestFilesAndVersions(t *testing.T) {
	re := regexp.MustCompile(`^([a-z]+)\.v(\d+)\.json$`)
	names, err := fs.Glob(files, "*.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		m := re.FindStringSubmatch(name)
		if m == nil {
			t.Errorf("%s: want <kind>.v<N>.json", name)
			continue
		}
		v, _ := strconv.Atoi(m[2])
		if cur := Version(m[1]); cur == 0 || v > cur || v < 1 {
			t.Errorf("%s: kind %q version %d is not a known version (current %d)", name, m[1], v, cur)
		}
		b, _ := files.ReadFile(name)
		if !json.Valid(b) {
			t.Errorf("%s: invalid JSON", name)
		}
	}
	for _, kind := range Kinds {
		if _, err := Get(kind); err != nil {
			t.Errorf("%s: %v", kind, err)
		}
	}
	if _, err := Get("nope"); err == nil {
		t.Error("Get(unknown kind): want an error")
	}
}
