package mcp

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/record"
)

// LandPathOut is the decision path of one project, or an explicit
// not_found or unavailable.
type LandPathOut struct {
	Status  record.Availability `json:"status"`
	ID      string              `json:"id"`
	Message string              `json:"message,omitempty"`
	Path    *land.DecisionPath  `json:"decision_path,omitempty"`
	Absence []string            `json:"absence_rules"`
	// Empty says why nothing is held on not_found (record.RecordAbsence).
	Empty *record.EmptyAnswer `json:"empty,omitempty"`
}

func getLandDecisionPath(d *Deps) Tool {
	t := newTool(d, "get_land_decision_path", "Get the decision path of one land-use project", ClassRead,
		"The typed decision path of one exact ZAP project (SPEC 2.9), in two layers that never share a key. observed: what "+
			"the held sources record (portal milestones with actual dates and, apart, planned dates; community board and borough "+
			"president recommendations; dated facts; the Open Data current milestone; borough president and Council land-use "+
			"events), each with its source and an id. normative: the stages of the project's review procedure as reviewed against "+
			"the City Charter (procedure.source names the sections reviewed and what could not be verified) with actor, effect, "+
			"Charter section, time limit, parallel review group and whether the stage always applies, and its state: happened, "+
			"in_progress, current, not_started (planned only), absent (the portal's milestone list has none) or unknown (no "+
			"milestone list held); a stage names its evidence by observation id. It reports recorded facts and rules and never "+
			"predicts an outcome. not_found and unavailable are explicit.",
		[]int{1},
		func(s *jsonschema.Schema) {
			projectIDProp(s, "2024Q0292")
		},
		func(ctx context.Context, d *Deps, in getLandProjectIn) (LandPathOut, error) {
			out := LandPathOut{ID: in.ID, Absence: record.AbsenceRules}
			p, err := d.land().DecisionPath(ctx, in.ID)
			if err == nil {
				out.Status, out.Path = record.Found, &p
				return out, nil
			}
			out.Status, out.Message, err = landStatus(err, "project")
			if out.Status == record.NotFound {
				out.Empty = d.absent(ctx, in.ID, land.ProjectKind.Name)
			}
			return out, err
		})
	t.Limits = []string{"one project per call; events of other publishers: at most 200"}
	t.Examples = []Example{{"A project in public review: borough president in progress, later stages planned only", map[string]any{"id": "2024Q0292"}}}
	return t
}
