package embedded

import (
	"bufio"
	"bytes"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// MemoryLimitPercent is the share of the memory a process may use that
// SoftMemoryLimit gives the Go heap when the environment sets no
// GOMEMLIMIT: the rest is left to the page cache, through which the engine
// reads its index files (mapped, not counted in the heap).
const MemoryLimitPercent = 50

// SoftMemoryLimit is the soft memory limit main sets
// (runtime/debug.SetMemoryLimit) when GOMEMLIMIT is not set:
// MemoryLimitPercent of the memory this process may use, which is its
// cgroup's limit when one is set below the machine's memory (cgroup v2
// /sys/fs/cgroup/memory.max, else v1
// /sys/fs/cgroup/memory/memory.limit_in_bytes), else the machine's
// (MemTotal in /proc/meminfo). from names where the figure came from; ok
// is false when neither could be read (no limit is then set). read reads a
// file (os.ReadFile; tests give fakes).
func SoftMemoryLimit(read func(string) ([]byte, error)) (limit int64, from string, ok bool) {
	total, haveTotal := memTotal(read)
	mem, from := total, "/proc/meminfo MemTotal"
	for _, path := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		b, err := read(path)
		if err != nil {
			continue
		}
		v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		if err != nil || v <= 0 {
			break // "max": no limit (v2); a v1 file beside it is not read
		}
		if !haveTotal || v < total { // v1 says "no limit" with a huge figure
			mem, from, haveTotal = v, path, true
		}
		break
	}
	if !haveTotal || mem <= 0 {
		return 0, "", false
	}
	return mem / 100 * MemoryLimitPercent, from, true
}

// memTotal is MemTotal of /proc/meminfo in bytes.
func memTotal(read func(string) ([]byte, error)) (int64, bool) {
	b, err := read("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil || kb <= 0 {
				return 0, false
			}
			return kb << 10, true
		}
	}
	return 0, false
}

// SetSoftMemoryLimit sets SoftMemoryLimit as the runtime's soft memory
// limit unless getenv has GOMEMLIMIT (which the runtime read itself), and
// reports what it set (main.go; the benchmark's engine children).
func SetSoftMemoryLimit(getenv func(string) string) (limit int64, from string, ok bool) {
	if getenv("GOMEMLIMIT") != "" {
		return 0, "", false
	}
	if limit, from, ok = SoftMemoryLimit(os.ReadFile); ok {
		debug.SetMemoryLimit(limit)
	}
	return limit, from, ok
}
