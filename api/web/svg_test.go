package web

import (
	"fmt"
	"testing"
)

// A trend with more columns than its labels fit writes every few labels,
// the first and the last always, none within 8 units of the next and none
// out of the box; a short trend (up to 6 columns) writes every label.
func TestTrendLabelsNeverOverlap(t *testing.T) {
	for _, n := range []int{1, 3, 8, 17, 40} {
		var tr Trend
		for i := 0; i < n; i++ {
			tr.Points = append(tr.Points, Bar{Label: fmt.Sprintf("FY%d", 2000+i), Value: float64(i + 1)})
		}
		cols := tr.Cols()
		right, shown := -1e9, 0
		for i, c := range cols {
			if !c.ShowLabel {
				continue
			}
			shown++
			w := textWidth(c.Label, trendLabelPx, false)
			l := map[string]float64{"start": c.LabelX, "end": c.LabelX - w, "middle": c.LabelX - w/2}[c.Anchor]
			if l < right+8 || l < 0 || l+w > chartW {
				t.Errorf("%d columns: label %d (%s) at %.1f..%.1f after one ending at %.1f", n, i, c.Label, l, l+w, right)
			}
			right = l + w
		}
		if !cols[0].ShowLabel || !cols[n-1].ShowLabel {
			t.Errorf("%d columns: the first or last label is not written", n)
		}
		if n <= 6 && shown != n {
			t.Errorf("%d columns: %d labels written, want all", n, shown)
		}
	}
}

// fit cuts a label to the room with an ellipsis, never wider than the room.
func TestFitCutsToTheRoom(t *testing.T) {
	long := "Audiencia pública de la Comisión de Planificación Urbana sobre la solicitud"
	got := fit(long, 298, 13, true)
	if got == long || textWidth(got, 13, true) > 298 || []rune(got)[len([]rune(got))-1] != '…' {
		t.Errorf("fit: %q (%.1f units)", got, textWidth(got, 13, true))
	}
	if fit("Parks", 298, 13, true) != "Parks" {
		t.Error("a short label is cut")
	}
}
