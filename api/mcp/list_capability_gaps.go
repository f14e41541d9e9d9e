package mcp

import "context"

type noInput struct{}

// Gap is a capability the service declares it does not have.
type Gap struct {
	ID           string   `json:"id"`
	Description  string   `json:"description"`
	NearestTools []string `json:"nearest_tools"`
}

// GapsOut lists the declared gaps.
type GapsOut struct {
	Gaps []Gap `json:"gaps"`
}

func listCapabilityGaps(d *Deps) Tool {
	t := newTool(d, "list_capability_gaps", "List what this service cannot do", ClassRead,
		"Takes no input and reads no records. Returns the declared capability gaps: what this service deliberately does "+
			"not answer, with the nearest tools that do help.",
		[]int{1}, nil,
		func(ctx context.Context, d *Deps, _ noInput) (GapsOut, error) {
			return GapsOut{Gaps: []Gap{{
				ID: "civic.outcome.prediction",
				Description: "Whether a public decision (a land-use application, a hearing, a procurement) will surely produce " +
					"an outcome. The service reports recorded facts and stages; it does not predict outcomes.",
				NearestTools: []string{"get_land_project", "get_land_decision_path"},
			}}}, nil
		})
	t.Examples = []Example{{"No arguments", map[string]any{}}}
	return t
}
