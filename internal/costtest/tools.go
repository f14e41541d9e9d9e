package costtest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxToolResult bounds one tool result as the client receives it
// (structuredContent and text content together, serialized): 64 KiB.
const MaxToolResult = 64 << 10

// Tools calls every tool a session offers with each argument at its
// schema's bound (BoundArgs), then with no arguments and with limit at
// its schema's maximum (the largest answers a tool gives), one call at a
// time: each answers with a result or a tool error (never a protocol
// failure) within the budget, and no result is over MaxToolResult. It
// fails t when a call breaks a rule or when fewer than ten calls were
// made (the schemas lost their bounds), and returns the number of calls.
// label names the service in failures (an engine, a form).
func Tools(t testing.TB, sess *sdk.ClientSession, label string) int {
	t.Helper()
	ctx := context.Background()
	tools, err := sess.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("%s: list tools: %v", label, err)
	}
	calls, largest, largestCall := 0, 0, ""
	for _, tl := range tools.Tools {
		argSets := []map[string]any{{}}
		for name, v := range BoundArgs(tl.InputSchema) {
			argSets = append(argSets, map[string]any{name: v})
		}
		if max := limitMax(tl.InputSchema); max > 0 {
			argSets = append(argSets, map[string]any{"limit": max})
		}
		for _, args := range argSets {
			var res *sdk.CallToolResult
			var err error
			cpu, alloc := Measure(func() {
				res, err = sess.CallTool(ctx, &sdk.CallToolParams{Name: tl.Name, Arguments: args})
			})
			calls++
			call := fmt.Sprintf("%s %s(%.60v)", label, tl.Name, args)
			if err != nil && !strings.Contains(err.Error(), "validating") && !strings.Contains(err.Error(), "invalid") {
				t.Errorf("%s: %v", call, err)
			}
			if Over(cpu, alloc) {
				t.Errorf("%s: %v CPU, %d MB allocated", call, cpu, alloc>>20)
			}
			if res != nil {
				b, _ := json.Marshal(res)
				if len(b) > MaxToolResult {
					t.Errorf("%s: a result of %d bytes, over the %d KiB bound of a tool result", call, len(b), MaxToolResult>>10)
				}
				if len(b) > largest {
					largest, largestCall = len(b), call
				}
			}
		}
	}
	t.Logf("tool cost fuzz on %s: %d calls over %d tools; the largest result %d bytes (%s)", label, calls, len(tools.Tools), largest, largestCall)
	if calls < 10 {
		t.Errorf("%s: only %d tool calls", label, calls)
	}
	return calls
}

// limitMax is the maximum of a tool's limit argument (0: none).
func limitMax(inputSchema any) float64 {
	b, _ := json.Marshal(inputSchema)
	var sch struct {
		Properties map[string]struct {
			Maximum *float64 `json:"maximum"`
		} `json:"properties"`
	}
	_ = json.Unmarshal(b, &sch)
	if p, ok := sch.Properties["limit"]; ok && p.Maximum != nil {
		return *p.Maximum
	}
	return 0
}
