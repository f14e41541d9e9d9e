package costtest

import (
	"context"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tools calls every tool a session offers with each argument at its
// schema's bound (BoundArgs), one call at a time: each answers with a
// result or a tool error (never a protocol failure) within the budget. It
// fails t when a call breaks either rule or when fewer than ten calls were
// made (the schemas lost their bounds), and returns the number of calls.
// label names the service in failures (an engine, a form).
func Tools(t testing.TB, sess *sdk.ClientSession, label string) int {
	t.Helper()
	ctx := context.Background()
	tools, err := sess.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("%s: list tools: %v", label, err)
	}
	calls := 0
	for _, tl := range tools.Tools {
		for name, v := range BoundArgs(tl.InputSchema) {
			var err error
			cpu, alloc := Measure(func() {
				_, err = sess.CallTool(ctx, &sdk.CallToolParams{Name: tl.Name, Arguments: map[string]any{name: v}})
			})
			calls++
			if err != nil && !strings.Contains(err.Error(), "validating") && !strings.Contains(err.Error(), "invalid") {
				t.Errorf("%s %s(%s at its bound): %v", label, tl.Name, name, err)
			}
			if Over(cpu, alloc) {
				t.Errorf("%s %s(%s at its bound): %v CPU, %d MB allocated", label, tl.Name, name, cpu, alloc>>20)
			}
		}
	}
	t.Logf("tool cost fuzz on %s: %d calls over %d tools", label, calls, len(tools.Tools))
	if calls < 10 {
		t.Errorf("%s: only %d tool calls", label, calls)
	}
	return calls
}
