// Package mcp is Recordwatch's tool endpoint for AI assistants: POST /mcp,
// Streamable HTTP carrying JSON-RPC, built on the official Go SDK. Tools are
// values: one constructor per file with its input and output schema, a
// description an assistant can act on and its class (read or mutation); All
// lists them and ForForm filters by interface form. The JSON catalog and the
// tool list of docs/mcp.md are generated from the same list.
package mcp

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recordwatch/recordwatch/internal/dossier"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/federated"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/notices"
	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/semantic"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// Tool classes.
const (
	ClassRead     = "read"
	ClassMutation = "mutation"
)

// Deps are what tools read and write through.
type Deps struct {
	Search    search.Engine
	Crosswalk *entity.Crosswalk
	BaseURL   string
	Now       func() time.Time
	Version   string
	// Watches runs create_watch (nil: the tool answers unavailable).
	Watches *watch.Service
	// Procure answers procurement matters and award and contract totals;
	// Dossiers answers vendor and agency dossiers and relationships (the
	// services /api/matters, /api/vendors and /api/agencies render). Nil
	// Dossiers answers the entity tools unavailable.
	Procure  *procure.Service
	Dossiers *dossier.Service
	// Land answers the land-use tools, Meetings get_meeting and
	// browse_meetings, People people and organization rows, Semantic
	// search_notices in every mode, Federated search_federated. main.go
	// builds each once (the same values the API renders).
	Land      *land.Service
	Meetings  *meeting.Service
	People    *people.Service
	Semantic  *semantic.Service
	Federated *federated.Service
	// Notices answers search_notices with its lens blocks, as /api/search.
	Notices *notices.Service

	// ResultLimit bounds one tool result as sent (0: ResultLimit, 64
	// KiB); tests lower it to cut small answers.
	ResultLimit int

	// form is the interface form the tools are built for (Offered sets
	// it; 0 reads as Form 1): a tool shared by both forms leaves out in
	// Form 2 what only Form 1 serves (get_notice's matter and payments,
	// whose routes Form 2 does not mount).
	form int
}

// Offered is the tools of one form, built for that form.
func Offered(d *Deps, form int) []Tool {
	fd := *d
	fd.form = form
	return ForForm(All(&fd), form)
}

// semantic is the search service of every mode.
func (d *Deps) semantic() *semantic.Service { return d.Semantic }

// ClientHeader carries the caller's address from the HTTP layer to the
// tools, for per-client ceilings; the API sets it and overwrites any value a
// client sends.
const ClientHeader = "X-Recordwatch-Client"

type clientKey struct{}

func clientOf(ctx context.Context) string {
	s, _ := ctx.Value(clientKey{}).(string)
	return s
}

func (d *Deps) now() time.Time {
	if d.Now != nil {
		return d.Now()
	}
	return time.Now()
}

// Example is a documented call of a tool.
type Example struct {
	Description string         `json:"description"`
	Arguments   map[string]any `json:"arguments"`
}

// Tool is one tool as a value.
type Tool struct {
	Def      *sdk.Tool
	Class    string
	Forms    []int
	Limits   []string
	Examples []Example
	add      func(s *sdk.Server)
	// records are the record lists of the tool's answer (recordLists),
	// where a cut leaves records out; ownCursor says the tool pages with
	// a cursor of its own.
	records   []string
	ownCursor bool
}

// InForm reports whether the tool is offered in a form.
func (t Tool) InForm(form int) bool { return slices.Contains(t.Forms, form) }

func ptr[T any](v T) *T { return &v }

// partSchema is a note's part (record.Part), which may hold parts of its
// own (inner): the inference cannot state a type inside itself, so the
// nested parts are stated as objects of the same fields.
func partSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{
		"key":  {Type: "string"},
		"args": {Types: []string{"null", "array"}, Items: &jsonschema.Schema{Type: "string"}},
		"inner": {Types: []string{"null", "array"}, Items: &jsonschema.Schema{Type: "object",
			Description: "a part of this part, of the same fields (key, args, inner, join)"}},
		"join": {Type: "string",
			Description: `how the inner parts fill the part: "" one argument of clauses joined by "; ", "run" one argument run on, "args" one argument each`},
	}, Required: []string{"key"}, AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}}}
}

// newTool builds a tool from a typed handler: schemas are inferred from In
// and Out, then shaped by the shape function (bounds, enums, descriptions);
// annotations carry the class.
func newTool[In, Out any](d *Deps, name, title, class, description string, forms []int,
	shape func(in *jsonschema.Schema), h func(context.Context, *Deps, In) (Out, error)) Tool {
	in, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("mcp: input schema of %s: %v", name, err))
	}
	out, err := jsonschema.For[Out](&jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{reflect.TypeFor[record.Part](): partSchema()}})
	if err != nil {
		panic(fmt.Sprintf("mcp: output schema of %s: %v", name, err))
	}
	markDeprecated(reflect.TypeFor[Out](), out)
	if shape != nil {
		shape(in)
	}
	records := recordLists[name]
	_, ownCursor := in.Properties[cursorArg]
	if records != nil {
		declareBound(in, out)
	}
	def := &sdk.Tool{
		Name: name, Title: title, Description: description,
		InputSchema: in, OutputSchema: out,
		Annotations: &sdk.ToolAnnotations{Title: title, ReadOnlyHint: class == ClassRead, OpenWorldHint: ptr(false)},
	}
	if class == ClassMutation {
		def.Annotations.DestructiveHint = ptr(false)
	}
	return Tool{Def: def, Class: class, Forms: forms, records: records, ownCursor: ownCursor, add: func(s *sdk.Server) {
		sdk.AddTool(s, def, func(ctx context.Context, req *sdk.CallToolRequest, input In) (*sdk.CallToolResult, Out, error) {
			if req != nil && req.Extra != nil && req.Extra.Header != nil {
				ctx = context.WithValue(ctx, clientKey{}, req.Extra.Header.Get(ClientHeader))
			}
			out, err := h(ctx, d, input)
			if err != nil {
				var zero Out
				return nil, zero, toolError(err)
			}
			return nil, out, nil
		})
	}}
}

// toolError turns an error into the text an assistant can act on: the
// argument at fault and what to do.
func toolError(err error) error {
	if e, ok := err.(*record.Error); ok {
		if e.Param != "" {
			return fmt.Errorf("%s: invalid argument %q: %s", e.Code, e.Param, e.Message)
		}
		return fmt.Errorf("%s: %s", e.Code, e.Message)
	}
	return fmt.Errorf("%s: %s", record.EINTERNAL, record.ErrorMessage(err))
}

// All lists every tool. The order is the catalog's order.
func All(d *Deps) []Tool {
	return []Tool{
		searchNotices(d),
		getNotice(d),
		searchFederated(d),
		getEntityDossier(d),
		getEntityRelationships(d),
		retrieveCitedPassages(d),
		getContract(d),
		browseContracts(d),
		analyzeContracts(d),
		getLandProject(d),
		browseLandProjects(d),
		getLandDecisionPath(d),
		getMeeting(d),
		browseMeetings(d),
		getPersonOrOrganization(d),
		browseOrganizations(d),
		browseCivilService(d),
		previewWatchForm1(d),
		previewWatchForm2(d),
		createWatchForm1(d),
		createWatchForm2(d),
		listCapabilityGaps(d),
	}
}

// ForForm returns the tools offered in one form.
func ForForm(tools []Tool, form int) []Tool {
	var out []Tool
	for _, t := range tools {
		if t.InForm(form) {
			out = append(out, t)
		}
	}
	return out
}

// NewServer makes an MCP server with the tools of one form.
func NewServer(d *Deps, form int) *sdk.Server {
	impl := &sdk.Implementation{Name: "recordwatch", Title: "Recordwatch: New York City public records", Version: d.Version}
	s := sdk.NewServer(impl, &sdk.ServerOptions{
		Instructions: "Recordwatch republishes NYC public records (City Record notices first). Every search result carries its scope: " +
			"what was searched, sources, corpus date and date bounds. No hits never means no record exists; say so when you report an empty result. " +
			"The official City Record stays authoritative: cite the official_url of each notice.",
	})
	tools := Offered(d, form)
	for _, t := range tools {
		t.add(s)
	}
	s.AddReceivingMiddleware(boundResults(d, impl, tools), withGaps(d, form))
	return s
}

// Handler serves POST /mcp (Streamable HTTP, stateless, JSON responses).
func Handler(d *Deps, form int) http.Handler {
	srv := NewServer(d, form)
	return sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv },
		&sdk.StreamableHTTPOptions{Stateless: true, JSONResponse: true, DisableLocalhostProtection: false})
}
