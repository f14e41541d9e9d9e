package record

import "testing"

func TestCapCount(t *testing.T) {
	for _, c := range []struct {
		n              int
		atLeast, exact bool
		want           int
		rel            string
	}{
		{0, false, false, 0, ""},
		{CountLimit, false, false, CountLimit, ""}, // exactly the limit is still exact
		{CountLimit + 1, false, false, CountLimit, CountAtLeast},
		{CountLimit + 1, true, false, CountLimit, CountAtLeast}, // OpenSearch stopped at limit+1
		{250000, false, true, 250000, ""},                       // asked for the exact count
		{7, true, false, 7, CountAtLeast},                       // an engine's own bound is never hidden
	} {
		if got, rel := CapCount(c.n, c.atLeast, c.exact); got != c.want || rel != c.rel {
			t.Errorf("CapCount(%d, %v, %v) = %d %q, want %d %q", c.n, c.atLeast, c.exact, got, rel, c.want, c.rel)
		}
	}
}
