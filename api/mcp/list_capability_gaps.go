package mcp

import (
	"context"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

type noInput struct{}

// Gap is a capability the service declares it does not have: a question
// it does not answer, or records it does not hold. A gap of one source
// names it with its record type, the dates it holds and its state, as the
// source table (GET /api/sources) gives them.
type Gap struct {
	ID           string   `json:"id"`
	Description  string   `json:"description"`
	NearestTools []string `json:"nearest_tools"`
	// Kind: not_answered (a question no tool answers), not_held (records
	// no source holds), outside_extent (a source's records before or after
	// the dates held), never_loaded (a source of which nothing is held),
	// not_fresh (a stale or failing source: newer records may be missing).
	Kind            string `json:"kind,omitempty"`
	Source          string `json:"source,omitempty"`
	RecordType      string `json:"record_type,omitempty"`
	FirstSourceDate string `json:"first_source_date,omitempty"`
	LastSourceDate  string `json:"last_source_date,omitempty"`
	State           string `json:"state,omitempty"`
}

// GapsOut lists the declared gaps.
type GapsOut struct {
	Gaps []Gap `json:"gaps"`
	// SourceTable names where the source gaps come from.
	SourceTable string `json:"source_table,omitempty"`
}

// Gap kinds.
const (
	GapNotAnswered   = "not_answered"
	GapNotHeld       = "not_held"
	GapOutsideExtent = "outside_extent"
	GapNeverLoaded   = "never_loaded"
	GapNotFresh      = "not_fresh"
)

// sourceTable is where the source gaps come from.
const sourceTable = "GET /api/sources: every source held, with its record type, dates, counts and freshness"

// declaredGaps are the gaps that do not depend on what is loaded.
var declaredGaps = []Gap{
	{ID: "civic.outcome.prediction", Kind: GapNotAnswered,
		Description: "Whether a public decision (a land-use application, a hearing, a procurement) will surely produce " +
			"an outcome. The service reports recorded facts and stages; it does not predict outcomes.",
		NearestTools: []string{"get_land_project", "get_land_decision_path"}},
	{ID: "civil_service.per_candidate", Kind: GapNotHeld,
		Description: "Per-candidate civil-service lists (who is on an eligible list, a candidate's rank or score): only " +
			"exam-level and list-level rows are held, so where a person stands on a list cannot be answered.",
		NearestTools: []string{"browse_civil_service"}},
}

// nearestTools are the tools that read a record type of the source table.
var nearestTools = map[string][]string{
	"notice":       {"search_notices", "get_notice", "retrieve_cited_passages"},
	"payment":      {"get_entity_dossier", "get_contract"},
	"contract":     {"browse_contracts", "get_contract", "analyze_contracts"},
	"payroll":      {"search_federated", "get_person_or_organization"},
	"meeting":      {"browse_meetings", "get_meeting"},
	"land_project": {"browse_land_projects", "get_land_project"},
	"land_event":   {"get_land_project", "get_land_decision_path"},
	"lot":          {"browse_land_projects", "get_land_project"},
	"organization": {"browse_organizations", "get_person_or_organization"},
	"person":       {"browse_organizations", "get_person_or_organization"},
	"exam":         {"browse_civil_service"},
	"list":         {"browse_civil_service"},
}

// Gaps are what the service does not hold or cannot answer: the declared
// gaps, then per source of the source table (search.WithScope's coverage,
// the list GET /api/sources reports) what it does not hold: nothing at
// all, records outside the dates held, newer records while it is not
// fresh.
func Gaps(ctx context.Context, d *Deps) ([]Gap, error) {
	out := append([]Gap(nil), declaredGaps...)
	if d.Search == nil {
		return out, nil
	}
	cov, err := search.WithScope(d.Search, d.Search).Coverage(ctx)
	if err != nil {
		return out, err
	}
	for _, c := range cov {
		g := Gap{Source: c.Source, RecordType: c.RecordType, FirstSourceDate: c.FirstSourceDate, LastSourceDate: c.LastSourceDate,
			State: c.State, NearestTools: nearestTools[c.RecordType]}
		if g.NearestTools == nil {
			g.NearestTools = []string{"search_federated"}
		}
		label := c.Label
		if label == "" {
			label = c.Source
		}
		id := "source." + c.Source + "." + c.RecordType
		switch {
		case c.Records == 0 || c.State == record.NeverLoaded:
			g.ID, g.Kind = id+".never_loaded", GapNeverLoaded
			g.Description = fmt.Sprintf("%s (%s): nothing of this source is held, so no question about its records can be answered here.", label, c.RecordType)
			out = append(out, g)
			continue
		case c.FirstSourceDate != "":
			g.ID, g.Kind = id+".outside_extent", GapOutsideExtent
			g.Description = fmt.Sprintf("%s (%s): %s dated %s to %s held; records dated before %s or after %s are not "+
				"(and the dates between are not promised to be complete).", label, c.RecordType, records(c.Records), c.FirstSourceDate,
				c.LastSourceDate, c.FirstSourceDate, c.LastSourceDate)
		default:
			g.ID, g.Kind = id+".outside_extent", GapOutsideExtent
			g.Description = fmt.Sprintf("%s (%s): %s held with no source dates: what they cover in time is not known.", label, c.RecordType, records(c.Records))
		}
		out = append(out, g)
		if c.State == record.Stale || c.State == record.Failing {
			f := g
			f.ID, f.Kind = id+".not_fresh", GapNotFresh
			f.Description = fmt.Sprintf("%s (%s) is %s", label, c.RecordType, c.State)
			if c.FreshnessNote != "" {
				f.Description += ": " + c.FreshnessNote
			}
			if c.LastError != "" {
				f.Description += " (last error: " + c.LastError + ")"
			}
			f.Description += "; records newer than those held may exist at the source."
			out = append(out, f)
		}
	}
	return out, nil
}

func records(n int) string {
	if n == 1 {
		return "1 record is"
	}
	return fmt.Sprintf("%d records are", n)
}

// gapsInstructions states the gaps in the initialize instructions.
func gapsInstructions(gaps []Gap, form int) string {
	var b strings.Builder
	b.WriteString("\n\nWhat this service does not hold or cannot answer (from its source table, GET /api/sources")
	if form != 2 {
		b.WriteString("; list_capability_gaps gives the same list structured")
	}
	b.WriteString("):")
	for _, g := range gaps {
		b.WriteString("\n- " + g.Description)
	}
	return b.String()
}

// withGaps adds the gaps, read at each initialize (server/discover in
// the protocol of 2026-07-28), to the instructions the server was made
// with.
func withGaps(d *Deps, form int) sdk.Middleware {
	return func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			res, err := next(ctx, method, req)
			var instr *string
			switch r := res.(type) {
			case *sdk.InitializeResult:
				instr = &r.Instructions
			case *sdk.DiscoverResult:
				instr = &r.Instructions
			}
			if err != nil || instr == nil {
				return res, err
			}
			if gaps, gerr := Gaps(ctx, d); gerr == nil {
				*instr += gapsInstructions(gaps, form)
			} else {
				*instr += "\n\nThe source table could not be read just now: GET /api/sources says what is held."
			}
			return res, err
		}
	}
}

func listCapabilityGaps(d *Deps) Tool {
	t := newTool(d, "list_capability_gaps", "List what this service cannot do", ClassRead,
		"Takes no input and reads no records. Returns the declared capability gaps: what this service deliberately does "+
			"not answer or does not hold (per-candidate civil-service lists, outcome predictions), and per source of its "+
			"source table (the list GET /api/sources reports) what it does not hold: records dated outside what is held "+
			"(e.g. payments before the held extract), sources of which nothing is held, and newer records while a source "+
			"is stale or failing; each with the nearest tools that do help. The initialize instructions state the same list.",
		[]int{1}, nil,
		func(ctx context.Context, d *Deps, _ noInput) (GapsOut, error) {
			gaps, err := Gaps(ctx, d)
			if err != nil {
				return GapsOut{}, err
			}
			return GapsOut{Gaps: gaps, SourceTable: sourceTable}, nil
		})
	t.Examples = []Example{{"No arguments", map[string]any{}}}
	return t
}
