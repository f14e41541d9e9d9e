package mcp

import (
	"context"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recordwatch/recordwatch/internal/record"
)

// Catalog is the machine-readable description of the tool endpoint.
type Catalog struct {
	Service     string        `json:"service"`
	Description string        `json:"description"`
	Form        int           `json:"form"`
	Delivery    Delivery      `json:"delivery"`
	Limits      []string      `json:"limits"`
	Freshness   CatalogFresh  `json:"freshness"`
	Absence     []string      `json:"absence_rules"`
	Tools       []CatalogTool `json:"tools"`
}

// Delivery says how to reach the tools.
type Delivery struct {
	Endpoint  string `json:"endpoint"`
	Method    string `json:"method"`
	Transport string `json:"transport"`
	Protocol  string `json:"protocol"`
	Auth      string `json:"auth"`
	Sessions  string `json:"sessions"`
}

// CatalogFresh is the corpus freshness at the time the catalog was served.
type CatalogFresh struct {
	CorpusObservedAt string                  `json:"corpus_observed_at,omitempty"`
	Sources          []record.SourceCoverage `json:"sources"`
}

// CatalogTool is one tool in the catalog.
type CatalogTool struct {
	Name         string               `json:"name"`
	Title        string               `json:"title"`
	Class        string               `json:"class"`
	Description  string               `json:"description"`
	Annotations  *sdk.ToolAnnotations `json:"annotations"`
	InputSchema  any                  `json:"input_schema"`
	OutputSchema any                  `json:"output_schema"`
	Limits       []string             `json:"limits,omitempty"`
	Examples     []Example            `json:"examples"`
}

// BuildCatalog describes the tools of one form, with live freshness.
func BuildCatalog(ctx context.Context, d *Deps, form int) Catalog {
	c := Catalog{
		Service:     "Recordwatch",
		Description: "New York City public records (City Record notices, with more sources to come) for AI assistants. Not the official registry: cite each notice's official_url.",
		Form:        form,
		Delivery: Delivery{Endpoint: d.BaseURL + "/mcp", Method: "POST", Transport: "streamable-http",
			Protocol: "JSON-RPC 2.0 (Model Context Protocol)", Auth: "none: no key and no account",
			Sessions: "stateless: every POST is self-contained"},
		Limits: []string{"per-client request rate limit (HTTP 429 with Retry-After)", "request body at most 1 MB",
			"results are bounded and paged with next_cursor",
			"every tool result is at most 64 KiB as sent; a longer answer is cut at a record boundary with truncated and continuation.cursor (the tool's cursor argument) for the rest"},
		Absence: record.AbsenceRules,
		Tools:   []CatalogTool{},
	}
	if cov, err := d.Search.Coverage(ctx); err == nil {
		s := record.NewScope(record.Searched{}, cov, 0)
		c.Freshness.Sources = s.Sources
		if !s.CorpusObservedAt.IsZero() {
			c.Freshness.CorpusObservedAt = s.CorpusObservedAt.Format("2006-01-02T15:04:05Z07:00")
		}
	}
	for _, t := range Offered(d, form) {
		ex := t.Examples
		if ex == nil {
			ex = []Example{}
		}
		c.Tools = append(c.Tools, CatalogTool{Name: t.Def.Name, Title: t.Def.Title, Class: t.Class, Description: t.Def.Description,
			Annotations: t.Def.Annotations, InputSchema: t.Def.InputSchema, OutputSchema: t.Def.OutputSchema, Limits: t.Limits, Examples: ex})
	}
	return c
}

// Markdown is the tool list of docs/mcp.md, generated from the same tools.
func Markdown(d *Deps) string {
	var b strings.Builder
	b.WriteString("| Tool | Class | Forms | What it does |\n|---|---|---|---|\n")
	for _, t := range All(d) {
		forms := make([]string, len(t.Forms))
		for i, f := range t.Forms {
			forms[i] = fmt.Sprint(f)
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", t.Def.Name, t.Class, strings.Join(forms, ", "), t.Def.Title)
	}
	return b.String()
}
