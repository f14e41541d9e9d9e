package mcp_test

import (
	"encoding/json"
	"fmt"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recordwatch/recordwatch/internal/costtest"
)

// argSchema is what the bound tests read of one argument's schema.
type argSchema struct {
	Type      any    `json:"type"`
	MaxLength *int   `json:"maxLength"`
	MaxItems  *int   `json:"maxItems"`
	Enum      []any  `json:"enum"`
	Pattern   string `json:"pattern"`
	Items     *struct {
		MaxLength *int  `json:"maxLength"`
		Enum      []any `json:"enum"`
	} `json:"items"`
}

// argSchemas are a tool's arguments by name, as its input schema states them.
func argSchemas(tl *sdk.Tool) map[string]argSchema {
	b, _ := json.Marshal(tl.InputSchema)
	var sch struct {
		Properties map[string]argSchema `json:"properties"`
	}
	_ = json.Unmarshal(b, &sch)
	return sch.Properties
}

// The cost fuzz of the tools: every tool of both forms, with each string
// argument at its schema's maxLength (words), each list at its maxItems,
// answers (a result or a tool error, never a protocol failure) within 1 s
// of CPU and 64 MB of allocation per call. Calls run one at a time.
func TestToolCostFuzz(t *testing.T) {
	if testing.Short() {
		t.Skip("the cost fuzz makes a few hundred calls")
	}
	for _, form := range []int{1, 2} {
		costtest.Tools(t, connect(t, form), fmt.Sprintf("form %d", form))
	}
}
