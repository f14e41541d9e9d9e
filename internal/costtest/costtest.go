// Package costtest measures what one request cost this process, for the
// cost fuzz and the bounded-input tests (issue 31): the one budget every
// request must keep, and the one way it is measured.
package costtest

import (
	"runtime"
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
