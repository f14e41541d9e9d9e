// Package costtest measures what one request cost this process, for the
// cost fuzz and the bounded-input tests (issue 31): the one budget every
// request must keep, and the one way it is measured.
package costtest

import (
	"encoding/json"
	"runtime"
	"strings"
	"syscall"
	"time"
)

// The budget of one request, whatever its input.
const (
	MaxCPU   = time.Second
	MaxAlloc = 64 << 20
)

// Measure runs f and reports the CPU time (user and system) and the bytes
// this process spent on it, every goroutine included (a server's handler
// runs on another one): run requests one at a time for the figures to be
// theirs.
func Measure(f func()) (cpu time.Duration, alloc uint64) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	alloc0, cpu0 := ms.TotalAlloc, cpuTime()
	f()
	cpu = cpuTime() - cpu0
	runtime.ReadMemStats(&ms)
	return cpu, ms.TotalAlloc - alloc0
}

// Over reports whether a measured cost passes the budget.
func Over(cpu time.Duration, alloc uint64) bool { return cpu > MaxCPU || alloc > MaxAlloc }

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BoundArgs are, for a tool's input schema (any value that marshals to a
// JSON Schema object), each argument at the longest value its schema
// accepts: a string of its maxLength (words), a list of maxItems strings
// of their maxLength. Arguments with no such bound are left out. The tool
// cost fuzzes call a tool with one of them at a time.
func BoundArgs(inputSchema any) map[string]any {
	b, _ := json.Marshal(inputSchema)
	var sch struct {
		Properties map[string]struct {
			Type      any  `json:"type"`
			MaxLength *int `json:"maxLength"`
			MaxItems  *int `json:"maxItems"`
			Items     *struct {
				MaxLength *int `json:"maxLength"`
			} `json:"items"`
		} `json:"properties"`
	}
	_ = json.Unmarshal(b, &sch)
	out := map[string]any{}
	for name, p := range sch.Properties {
		switch {
		case p.Type == "string" && p.MaxLength != nil:
			out[name] = Words(*p.MaxLength)
		case p.Type == "array" && p.MaxItems != nil && p.Items != nil && p.Items.MaxLength != nil:
			l := make([]string, *p.MaxItems)
			for i := range l {
				l[i] = Words(*p.Items.MaxLength)
			}
			out[name] = l
		}
	}
	return out
}

// Words is n characters of words ("acme acme ac…").
func Words(n int) string { return strings.Repeat("acme ", n/5+1)[:n] }
