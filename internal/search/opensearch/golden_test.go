package opensearch

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/recordwatch/recordwatch/internal/golden"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// checkGolden compares the recorded requests with testdata/<name>.golden.json
// (rewritten with -update) and validates each against the OpenSearch API
// spec bundled with opensearch-go.
func checkGolden(t *testing.T, name string, got []exchange) {
	t.Helper()
	for _, ex := range got {
		if err := validateRequest(ex); err != nil {
			t.Errorf("%s %s does not match the OpenSearch API spec: %v", ex.Method, ex.Path, err)
		}
		if err := validateResponse(ex); err != nil {
			t.Errorf("the fake's answer to %s %s does not match the OpenSearch API spec: %v", ex.Method, ex.Path, err)
		}
	}
	b, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, '\n')
	golden.Assert(t, filepath.Join("testdata", name+".golden.json"), b)
}

// ---- the OpenSearch API spec

const specServer = "http://opensearch.test"

var spec struct {
	once   sync.Once
	doc    *openapi3.T
	router routers.Router
	err    error
}

// specPath finds opensearch-openapi.yaml in the opensearch-go module: ask
// the go command where the module is, or look in the module cache.
func specPath() (string, error) {
	if out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/opensearch-project/opensearch-go/v4").Output(); err == nil {
		p := filepath.Join(strings.TrimSpace(string(out)), "opensearch-openapi.yaml")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	info, ok := debug.ReadBuildInfo()
	version := ""
	if ok {
		for _, d := range info.Deps {
			if d.Path == "github.com/opensearch-project/opensearch-go/v4" {
				version = d.Version
			}
		}
	}
	if version == "" {
		version = "v4.8.1"
	}
	modcache := os.Getenv("GOMODCACHE")
	if modcache == "" {
		gopath := os.Getenv("GOPATH")
		if gopath == "" {
			home, _ := os.UserHomeDir()
			gopath = filepath.Join(home, "go")
		}
		modcache = filepath.Join(strings.Split(gopath, string(os.PathListSeparator))[0], "pkg", "mod")
	}
	p := filepath.Join(modcache, "github.com", "opensearch-project", "opensearch-go", "v4@"+version, "opensearch-openapi.yaml")
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("OpenSearch API spec not found at %s: %w", p, err)
	}
	return p, nil
}

func loadSpec() (*openapi3.T, routers.Router, error) {
	spec.once.Do(func() {
		p, err := specPath()
		if err != nil {
			spec.err = err
			return
		}
		loader := openapi3.NewLoader()
		doc, err := loader.LoadFromFile(p)
		if err != nil {
			spec.err = fmt.Errorf("load %s: %w", p, err)
			return
		}
		if err := relaxSpec(doc); err != nil {
			spec.err = err
			return
		}
		doc.Servers = openapi3.Servers{{URL: specServer}}
		r, err := gorillamux.NewRouter(doc)
		if err != nil {
			spec.err = err
			return
		}
		spec.doc, spec.router = doc, r
		openapi3filter.RegisterBodyDecoder("application/x-ndjson", decodeNDJSON)
	})
	return spec.doc, spec.router, spec.err
}

// decodeNDJSON lets the validator read _bulk bodies: the spec describes
// them as an array of the NDJSON lines.
func decodeNDJSON(body io.Reader, _ http.Header, _ *openapi3.SchemaRef, _ openapi3filter.EncodingFn) (any, error) {
	var out []any
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var v any
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			return nil, fmt.Errorf("NDJSON line %q: %w", sc.Text(), err)
		}
		out = append(out, v)
	}
	return out, sc.Err()
}

// validateRequest checks a recorded request against the spec: the path and
// method must name an operation, query parameters must be declared with the
// right types, and a JSON body must match the operation's schema. _bulk
// action lines are checked against the bulk OperationContainer schema too,
// since the body schema also admits any object (the document lines).
//
// Stricter than kin-openapi alone: undeclared query parameters and unknown
// bulk actions are errors. Relaxed, because the spec is advisory: security
// requirements are not checked (no credentials in tests), and the schemas in
// oneOfAsAnyOf are read as anyOf (see relaxSpec).
func validateRequest(ex exchange) error {
	doc, router, err := loadSpec()
	if err != nil {
		return err
	}
	u := specServer + ex.Path
	if ex.Query != "" {
		u += "?" + ex.Query
	}
	var body io.Reader
	if ex.raw != nil {
		body = bytes.NewReader(ex.raw)
	}
	req, err := http.NewRequest(ex.Method, u, body)
	if err != nil {
		return err
	}
	if ex.ContentType != "" {
		req.Header.Set("Content-Type", ex.ContentType)
	}
	route, params, err := router.FindRoute(req)
	if err != nil {
		return fmt.Errorf("no operation for %s %s: %w", ex.Method, ex.Path, err)
	}
	in := &openapi3filter.RequestValidationInput{
		Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, MultiError: true},
	}
	if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
		return fmt.Errorf("operation %s: %w", route.Operation.OperationID, err)
	}
	// kin-openapi lets undeclared query parameters through; a misspelled
	// one is a bug here, so every query parameter must be declared
	declared := map[string]bool{}
	for _, list := range []openapi3.Parameters{route.PathItem.Parameters, route.Operation.Parameters} {
		for _, p := range list {
			if p.Value != nil && p.Value.In == openapi3.ParameterInQuery {
				declared[p.Value.Name] = true
			}
		}
	}
	for name := range req.URL.Query() {
		if !declared[name] {
			return fmt.Errorf("operation %s: query parameter %q is not declared", route.Operation.OperationID, name)
		}
	}
	if strings.HasSuffix(ex.Path, "/_bulk") {
		return validateBulkActions(doc, ex.raw)
	}
	return nil
}

func validateBulkActions(doc *openapi3.T, raw []byte) error {
	op := doc.Components.Schemas["_core.bulk___OperationContainer"]
	if op == nil || op.Value == nil {
		return errors.New("spec has no _core.bulk___OperationContainer schema")
	}
	decoded, err := decodeNDJSON(bytes.NewReader(raw), nil, nil, nil)
	if err != nil {
		return err
	}
	lines, _ := decoded.([]any)
	for i := 0; i < len(lines); i++ {
		action, ok := lines[i].(map[string]any)
		if !ok || len(action) != 1 {
			return fmt.Errorf("bulk line %d is not an action: %v", i+1, lines[i])
		}
		if err := op.Value.VisitJSON(lines[i]); err != nil {
			return fmt.Errorf("bulk action line %d: %w", i+1, err)
		}
		for verb := range action {
			// the schema lists the actions but does not forbid others
			if _, ok := op.Value.Properties[verb]; !ok {
				return fmt.Errorf("bulk action line %d: unknown action %q", i+1, verb)
			}
			switch verb {
			case "index", "create", "update":
				i++ // the document line
			}
		}
	}
	return nil
}

// oneOfAsAnyOf are schemas whose oneOf alternatives overlap, so a valid
// value matches two of them and a strict oneOf rejects it: the spec means
// "any of". Each is a documented relaxation.
var oneOfAsAnyOf = map[string]string{
	// {"request_id":{"order":"asc"}} is both field_with_order and options
	// (SortOptions lists _score/_geo_distance/_script but does not forbid
	// other keys), and {"_score":{"order":"desc"}} is both as well.
	"_common___SortCombinations": "sort clauses match field_with_order and options at once",
}

// responseOneOfAsAnyOf are response bodies with the same flaw: the second
// alternative ({"task": …} for wait_for_completion=false) is an object with
// no required property, so every complete answer matches both.
var responseOneOfAsAnyOf = map[string]string{
	"reindex___200":         "a finished reindex matches both the result and the {task} shape",
	"delete_by_query___200": "a finished delete-by-query matches both the result and the {task} shape",
}

// relaxSpec applies the relaxations above to the loaded spec. It fails if
// a relaxed schema is gone or no longer a oneOf, so a newer spec is looked
// at again rather than relaxed blindly.
func relaxSpec(doc *openapi3.T) error {
	for name := range oneOfAsAnyOf {
		ref := doc.Components.Schemas[name]
		if ref == nil || ref.Value == nil || len(ref.Value.OneOf) == 0 {
			return fmt.Errorf("spec relaxation: schema %s is missing or not a oneOf any more; review oneOfAsAnyOf", name)
		}
		ref.Value.AnyOf, ref.Value.OneOf = ref.Value.OneOf, nil
	}
	for name := range responseOneOfAsAnyOf {
		resp := doc.Components.Responses[name]
		var schema *openapi3.SchemaRef
		if resp != nil && resp.Value != nil {
			if mt := resp.Value.Content.Get("application/json"); mt != nil {
				schema = mt.Schema
			}
		}
		if schema == nil || schema.Value == nil || len(schema.Value.OneOf) == 0 {
			return fmt.Errorf("spec relaxation: response %s is missing or not a oneOf any more; review responseOneOfAsAnyOf", name)
		}
		schema.Value.AnyOf, schema.Value.OneOf = schema.Value.OneOf, nil
	}
	return nil
}

// validateResponse checks the fake cluster's answer against the spec, so
// the canned responses the parsing is tested on have OpenSearch's shape.
func validateResponse(ex exchange) error {
	if ex.status == 0 {
		return nil
	}
	_, router, err := loadSpec()
	if err != nil {
		return err
	}
	u := specServer + ex.Path
	if ex.Query != "" {
		u += "?" + ex.Query
	}
	req, err := http.NewRequest(ex.Method, u, nil)
	if err != nil {
		return err
	}
	route, params, err := router.FindRoute(req)
	if err != nil {
		return err
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route},
		Status:                 ex.status,
		Header:                 http.Header{"Content-Type": {"application/json"}},
		Options:                &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	if ex.Method != http.MethodHead {
		in.SetBodyBytes(ex.response)
	}
	return openapi3filter.ValidateResponse(context.Background(), in)
}
