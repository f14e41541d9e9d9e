package disk

import (
	"strings"
	"testing"
)

// The free space of a real directory is read (more than nothing), a
// threshold above it is reported with both figures, one below it is not,
// and a directory that does not exist is an error, not "enough space".
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	free, err := Free(dir)
	if err != nil || free == 0 {
		t.Fatalf("Free(%s) = %d, %v", dir, free, err)
	}
	if err := Check(dir, 1<<20); free > 1<<20 && err != nil {
		t.Errorf("1 MiB threshold with %d bytes free: %v", free, err)
	}
	if err := Check(dir, free+1<<40); err == nil || !strings.Contains(err.Error(), "below the threshold") {
		t.Errorf("threshold above the free space: %v", err)
	}
	if err := Check(dir+"/missing/dir", 1); err == nil {
		t.Error("a directory that does not exist reads as enough space")
	}
}
