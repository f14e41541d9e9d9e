package web

import (
	"math"
	"strconv"
	"strings"
)

// The site's pictures are SVG drawn on the server by html/template (no
// chart service, no third-party script): a chart is a value here, drawn
// by a template in templates/parts.html, always with a title and
// description (its text alternative) and a table beside it holding the
// same numbers. Every mark carries its number in a data attribute, so the
// browser suite compares the picture with the JSON twin, and every mark
// with a URL is a link (an SVG <a> named by its label and number) to the
// records it counts: the list or search that answers the same count.
// Labels are fitted to the box (textWidth) so none overlaps another or
// runs out of the picture; the full label is in the mark's name and in the
// table beside it.

// Bar is one bar: its label, its value (the length), the value as the page
// prints it, whether it is marked (excluded rows, a value not summed), and
// where it leads.
type Bar struct {
	Label   string
	Value   float64
	Display string
	Marked  bool
	Note    string
	URL     string
	// Verbatim marks a label that is record text as published (a
	// section's name), not the site's words
	Verbatim bool
}

// BarChart is a horizontal bar chart: one row per bar, the label above the
// bar, so it reads on a phone as on a wide screen.
type BarChart struct {
	ID, Title, Desc string
	Bars            []Bar
	// Verbatim marks the bars' labels as record text (names as
	// printed), shown as published in every language.
	Verbatim bool
}

// barRow is a Bar with its coordinates in the chart's 400-unit-wide box.
type barRow struct {
	Bar
	LabelY, BarY, BarW, ValueX, ValueY float64
	Short                              string
}

const (
	barTextX = 2.0 // labels start inside the box: a capital's overhang stays in
	chartW   = 400.0
	rowH     = 38.0
	barH     = 14.0
	valueGap = 4.0
	valueRes = 120.0 // room kept right of the longest bar for its value
)

// Rows are the bars with their coordinates: the longest bar spans the
// chart less the room for its printed value; a bar of 0 is drawn as a
// hairline so a zero still shows.
func (c BarChart) Rows() []barRow {
	top := 0.0
	for _, b := range c.Bars {
		top = math.Max(top, b.Value)
	}
	out := make([]barRow, 0, len(c.Bars))
	for i, b := range c.Bars {
		w := 1.0
		if top > 0 && b.Value > 0 {
			w = math.Max(1, b.Value/top*(chartW-valueRes))
		}
		y := float64(i) * rowH
		out = append(out, barRow{Bar: b, LabelY: y + 13, BarY: y + 18, BarW: round1(w), ValueX: round1(w + valueGap), ValueY: y + 30,
			Short: fit(b.Label, chartW-2*barTextX, 13, false)})
	}
	return out
}

// Height is the chart box's height.
func (c BarChart) Height() float64 { return float64(len(c.Bars))*rowH + 4 }

// Width is the chart box's width.
func (c BarChart) Width() float64 { return chartW }

// Num is a value as the data attributes carry it.
func Num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func round1(v float64) float64 { return math.Round(v*10) / 10 }

// textWidth is an estimate, in the chart's units, of how wide s is drawn
// at font size px (bold or not): each letter's advance in DejaVu Sans, the
// widest of the site's fallback faces (what a Linux browser draws with
// system-ui), so a label fitted by it stays inside its room in the
// narrower faces too. The browser suite measures the drawn text at both
// widths and languages.
func textWidth(s string, px float64, bold bool) float64 {
	w := 0.0
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z':
			w += lowerEm[r-'a']
		case r >= 'A' && r <= 'Z':
			w += upperEm[r-'A']
		case r >= '0' && r <= '9':
			w += 0.636
		case r == ' ':
			w += 0.318
		case strings.ContainsRune(".,:;'|!·()[]", r):
			w += 0.4
		case r == '—' || r == '%' || r == '@':
			w += 1.0
		default: // accented letters, signs
			w += 0.7
		}
	}
	if bold {
		w *= 1.16
	}
	return w * px
}

var (
	lowerEm = [26]float64{.613, .635, .55, .635, .615, .352, .635, .634, .278, .278, .579, .278, .974, .634, .612, .635, .635, .411, .521, .392, .634, .592, .818, .592, .592, .525}
	upperEm = [26]float64{.684, .686, .698, .77, .632, .575, .775, .752, .295, .295, .656, .557, .863, .748, .787, .603, .787, .695, .635, .611, .732, .684, .989, .685, .611, .685}
)

// fit is s cut with an ellipsis to the longest prefix whose drawn width
// (textWidth) is at most room.
func fit(s string, room, px float64, bold bool) string {
	if textWidth(s, px, bold) <= room {
		return s
	}
	r := []rune(s)
	for n := len(r) - 1; n > 0; n-- {
		if c := string(r[:n]) + "…"; textWidth(c, px, bold) <= room {
			return c
		}
	}
	return "…"
}

// Trend is a column chart over time (fiscal years, months): one column
// per period, in order.
type Trend struct {
	ID, Title, Desc string
	Points          []Bar
}

type trendCol struct {
	Bar
	X, Y, W, H, LabelX, LabelY, ValueY float64
	// ShowLabel is whether the column's label is written under it: when
	// the labels are wider than the columns only those that leave a gap
	// after the one before are (the first and the last always, where they
	// fit), so none overlaps; Anchor keeps the first and last inside the
	// box.
	ShowLabel bool
	Anchor    string
}

const trendLabelPx = 12.0

const trendH = 160.0

// Cols are the columns with their coordinates in a 400 × 200 box.
func (t Trend) Cols() []trendCol {
	top := 0.0
	for _, p := range t.Points {
		top = math.Max(top, p.Value)
	}
	n := float64(len(t.Points))
	if n == 0 {
		return nil
	}
	slot := chartW / n
	w := math.Max(2, slot*0.7)
	out := make([]trendCol, 0, len(t.Points))
	for i, p := range t.Points {
		h := 1.0
		if top > 0 && p.Value > 0 {
			h = math.Max(1, p.Value/top*(trendH-20))
		}
		x := float64(i)*slot + (slot-w)/2
		c := trendCol{Bar: p, X: round1(x), Y: round1(trendH - h), W: round1(w), H: round1(h),
			LabelX: round1(x + w/2), LabelY: trendH + 16, ValueY: round1(trendH - h - 4), Anchor: "middle"}
		half := textWidth(p.Label, trendLabelPx, false) / 2
		switch {
		case c.LabelX-half < 0:
			c.LabelX, c.Anchor = 0, "start"
		case c.LabelX+half > chartW:
			c.LabelX, c.Anchor = chartW, "end"
		}
		out = append(out, c)
	}
	// labels are written left to right when they leave a gap after the
	// one before; the last is always written (the span's end is named),
	// the one before it dropped when the two would touch
	extent := func(c trendCol) (float64, float64) {
		lw := textWidth(c.Label, trendLabelPx, false)
		switch c.Anchor {
		case "start":
			return c.LabelX, c.LabelX + lw
		case "end":
			return c.LabelX - lw, c.LabelX
		}
		return c.LabelX - lw/2, c.LabelX + lw/2
	}
	const gap = 8.0
	right, shown := math.Inf(-1), -1
	for i := range out {
		l, r := extent(out[i])
		if l >= right+gap {
			out[i].ShowLabel, right, shown = true, r, i
		}
	}
	if last := len(out) - 1; last > 0 && !out[last].ShowLabel {
		l, _ := extent(out[last])
		if _, r := extent(out[shown]); r+gap > l && shown > 0 {
			out[shown].ShowLabel = false
		}
		if _, r := extent(out[shown]); !out[shown].ShowLabel || r+gap <= l {
			out[last].ShowLabel = true
		}
	}
	return out
}

// Width and Height are the trend box's size.
func (t Trend) Width() float64  { return chartW }
func (t Trend) Height() float64 { return trendH + 24 }

// StageDiagram draws a decision path on two tracks that are never merged:
// the observed track (how many held records evidence each stage, and the
// latest date) and the procedure's stages in order with their states
// (happened, in progress, current, not started; absent and unknown drawn
// hollow with a dashed or dotted ring), each with the Charter's clock.
type StageDiagram struct {
	ID, Title, Desc string
	Stages          []StageMark
}

// StageMark is one stage of the diagram; URL leads to the records that
// evidence it (or to the stage in the list when none does).
type StageMark struct {
	ID, Name, State, StateLabel, Date, Clock string
	Evidence                                 int
	URL                                      string
}

type stageRow struct {
	StageMark
	Y, CY, TextY, SubY float64
	First              bool
	// Short and Sub are the name and the state line as drawn, fitted to
	// the room right of the marks.
	Short, Sub string
}

const stageTextX = 98.0

const stageRowH = 52.0

// Rows are the stages with their coordinates in a 400-wide box.
func (d StageDiagram) Rows() []stageRow {
	out := make([]stageRow, 0, len(d.Stages))
	for i, s := range d.Stages {
		y := 28 + float64(i)*stageRowH
		sub := s.StateLabel
		for _, part := range []string{s.Date, s.Clock} {
			if part != "" {
				sub += " · " + part
			}
		}
		out = append(out, stageRow{StageMark: s, Y: y, CY: y + 14, TextY: y + 12, SubY: y + 30, First: i == 0,
			Short: fit(s.Name, chartW-stageTextX-4, 13, true), Sub: fit(sub, chartW-stageTextX-4, 12, false)})
	}
	return out
}

// TextX is where the stages' names start.
func (d StageDiagram) TextX() float64 { return stageTextX }

// Height and Width are the box's size; LineEnd is where the spine ends.
func (d StageDiagram) Height() float64 { return 28 + float64(len(d.Stages))*stageRowH }
func (d StageDiagram) Width() float64  { return chartW }
func (d StageDiagram) LineEnd() float64 {
	if len(d.Stages) == 0 {
		return 28
	}
	return 28 + float64(len(d.Stages)-1)*stageRowH + 14
}
