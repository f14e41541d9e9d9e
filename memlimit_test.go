package main

import (
	"io"
	"log/slog"
	"os"
	"runtime/debug"
	"testing"

	"github.com/recordwatch/recordwatch/internal/search/embedded"
)

// main sets the soft memory limit from the machine's memory when the
// environment sets none, and leaves the runtime's own when it does.
func TestSetMemoryLimit(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(before)
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	setMemoryLimit(func(k string) string { return map[string]string{"GOMEMLIMIT": "1GiB"}[k] }, logger)
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("with GOMEMLIMIT set the limit changed to %d", got)
	}
	want, _, ok := embedded.SoftMemoryLimit(os.ReadFile)
	if !ok {
		t.Skip("this machine's memory is not readable")
	}
	setMemoryLimit(func(string) string { return "" }, logger)
	if got := debug.SetMemoryLimit(-1); got != want || got <= 0 {
		t.Errorf("limit %d, want %d", got, want)
	}
}
