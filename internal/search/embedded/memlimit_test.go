package embedded

import (
	"io/fs"
	"os"
	"testing"
)

// The soft limit is MemoryLimitPercent of the cgroup's limit when one is
// set below the machine's memory, else of MemTotal; none when neither is
// read.
func TestSoftMemoryLimit(t *testing.T) {
	const meminfo = "MemTotal:       24576000 kB\nMemFree:         1000 kB\n"
	total := int64(24576000) << 10
	cases := []struct {
		name  string
		files map[string]string
		want  int64
		from  string
		ok    bool
	}{
		{"no cgroup", map[string]string{"/proc/meminfo": meminfo}, total / 100 * MemoryLimitPercent, "/proc/meminfo MemTotal", true},
		{"cgroup v2 limit", map[string]string{"/proc/meminfo": meminfo, "/sys/fs/cgroup/memory.max": "4294967296\n"},
			4294967296 / 100 * MemoryLimitPercent, "/sys/fs/cgroup/memory.max", true},
		{"cgroup v2 without a limit", map[string]string{"/proc/meminfo": meminfo, "/sys/fs/cgroup/memory.max": "max\n",
			"/sys/fs/cgroup/memory/memory.limit_in_bytes": "1073741824\n"}, total / 100 * MemoryLimitPercent, "/proc/meminfo MemTotal", true},
		{"cgroup v1 limit", map[string]string{"/proc/meminfo": meminfo, "/sys/fs/cgroup/memory/memory.limit_in_bytes": "2147483648\n"},
			2147483648 / 100 * MemoryLimitPercent, "/sys/fs/cgroup/memory/memory.limit_in_bytes", true},
		{"cgroup v1 without a limit", map[string]string{"/proc/meminfo": meminfo, "/sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712\n"},
			total / 100 * MemoryLimitPercent, "/proc/meminfo MemTotal", true},
		{"a cgroup limit and no meminfo", map[string]string{"/sys/fs/cgroup/memory.max": "1073741824"},
			1073741824 / 100 * MemoryLimitPercent, "/sys/fs/cgroup/memory.max", true},
		{"nothing readable", map[string]string{}, 0, "", false},
		{"meminfo unreadable", map[string]string{"/proc/meminfo": "MemTotal: lots kB\n"}, 0, "", false},
	}
	for _, c := range cases {
		read := func(p string) ([]byte, error) {
			if s, ok := c.files[p]; ok {
				return []byte(s), nil
			}
			return nil, fs.ErrNotExist
		}
		got, from, ok := SoftMemoryLimit(read)
		if got != c.want || from != c.from || ok != c.ok {
			t.Errorf("%s: %d from %q (%v), want %d from %q (%v)", c.name, got, from, ok, c.want, c.from, c.ok)
		}
	}
	// this machine's: some memory, less than it has
	if got, _, ok := SoftMemoryLimit(os.ReadFile); ok && got <= 0 {
		t.Errorf("this machine's limit: %d", got)
	}
}
