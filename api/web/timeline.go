package web

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"
)

// Timeline draws a procurement matter over time on three tracks that are
// never merged: City Record notices, contract registrations and payments.
// Each dated step is a mark at its date with a bar as tall as its valid
// amount (a hairline when it has none: a solicitation, an invalid
// amount); steps with no date are not drawn and the description says how
// many. Every mark carries its date, amount and record kind in data
// attributes, so the browser suite compares it with the JSON twin.
type Timeline struct {
	ID, Title, Desc string
	Steps           []TimelineStep
	// Undated counts the steps held with no date (only in the list).
	Undated int
}

// TimelineStep is one step of a matter: its day (YYYY-MM-DD), its record
// kind (notice, contract, payment), its step name in words, and its
// amount when valid; URL is the record's page.
type TimelineStep struct {
	Date, Record, Step, Name string
	Value                    float64
	Valid                    bool
	Display                  string
	URL                      string
}

// TimelineRecords are the tracks, in order.
var TimelineRecords = []string{"notice", "contract", "payment"}

const (
	tlLeft   = 12.0
	tlRight  = 388.0
	tlTop    = 8.0
	tlLaneH  = 64.0
	tlBarMax = 38.0
)

type timelineLane struct {
	Record, Name         string
	Y, Base, TextY       float64
	Steps                int
	NoneX, NoneY         float64
	Marks                []timelineMark
	LineX1, LineX2, Line float64
}

type timelineMark struct {
	TimelineStep
	X, BarX, BarY, BarH float64
}

// Lanes are the tracks with their marks laid out in a 400-wide box.
func (t Timeline) Lanes(lang string) []timelineLane {
	first, last, top := time.Time{}, time.Time{}, 0.0
	for _, s := range t.Steps {
		d, err := time.Parse("2006-01-02", s.Date)
		if err != nil {
			continue
		}
		if first.IsZero() || d.Before(first) {
			first = d
		}
		if d.After(last) {
			last = d
		}
		if s.Valid {
			top = math.Max(top, s.Value)
		}
	}
	span := last.Sub(first).Hours()
	x := func(d time.Time) float64 {
		if span <= 0 {
			return (tlLeft + tlRight) / 2
		}
		return round1(tlLeft + d.Sub(first).Hours()/span*(tlRight-tlLeft))
	}
	out := make([]timelineLane, 0, len(TimelineRecords))
	for i, rec := range TimelineRecords {
		y := tlTop + float64(i)*tlLaneH
		l := timelineLane{Record: rec, Name: Label(lang, "step_record", rec), Y: y, TextY: y + 12, Base: y + tlLaneH - 8,
			NoneX: tlLeft, NoneY: y + 34, LineX1: tlLeft, LineX2: tlRight}
		for _, s := range t.Steps {
			d, err := time.Parse("2006-01-02", s.Date)
			if err != nil || s.Record != rec {
				continue
			}
			h := 1.0
			if s.Valid && top > 0 && s.Value > 0 {
				h = math.Max(1, s.Value/top*tlBarMax)
			}
			mx := x(d)
			l.Marks = append(l.Marks, timelineMark{TimelineStep: s, X: mx, BarX: round1(mx - 2.5), BarY: round1(l.Base - h), BarH: round1(h)})
		}
		l.Steps = len(l.Marks)
		out = append(out, l)
	}
	return out
}

// Axis are the first and last dates drawn, for the axis labels.
func (t Timeline) Axis() (first, last string) {
	for _, s := range t.Steps {
		if _, err := time.Parse("2006-01-02", s.Date); err != nil {
			continue
		}
		if first == "" || s.Date < first {
			first = s.Date
		}
		if s.Date > last {
			last = s.Date
		}
	}
	return first, last
}

// First and Last are Axis's dates.
func (t Timeline) First() string { f, _ := t.Axis(); return f }
func (t Timeline) Last() string  { _, l := t.Axis(); return l }

// Width and Height are the box's size; AxisY is where the dates are
// written.
func (t Timeline) Width() float64  { return chartW }
func (t Timeline) Height() float64 { return tlTop + float64(len(TimelineRecords))*tlLaneH + 22 }
func (t Timeline) AxisY() float64  { return tlTop + float64(len(TimelineRecords))*tlLaneH + 14 }
func (t Timeline) Right() float64  { return tlRight }
func (t Timeline) Left() float64   { return tlLeft }

// RenderPicture writes a picture alone, as an SVG document (templates/
// parts.html defines it), with the words of lang: "timeline" for a
// Timeline.
func RenderPicture(w io.Writer, lang, name string, data any) error {
	if lang != "es" {
		lang = "en"
	}
	t, ok := pages[lang][Home]
	if !ok || t.Lookup(name) == nil {
		return fmt.Errorf("web: no picture %q", name)
	}
	return t.ExecuteTemplate(w, name, data)
}

// MatterTimeline is the timeline of the procurement matter pin in lang:
// its title and description in words, and how many steps have no date.
func MatterTimeline(lang, pin string, steps []TimelineStep) Timeline {
	t := Timeline{ID: "matter-timeline", Steps: steps}
	for i, s := range steps {
		if _, err := time.Parse("2006-01-02", s.Date); err != nil {
			t.Undated++
		}
		steps[i].Name = stepName(lang, s.Step)
	}
	t.Title = fmt.Sprintf(Word(lang, "tl.title"), pin)
	t.Desc = Word(lang, "tl.desc")
	if t.Undated > 0 {
		t.Desc += " " + fmt.Sprintf(Word(lang, "tl.undated"), t.Undated)
	}
	return t
}

// stepName is a matter step in words: "contract (pending received)" is
// the contract step with the source's status as printed.
func stepName(lang, step string) string {
	if HasLabel("step", step) {
		return Label(lang, "step", step)
	}
	if head, rest, ok := strings.Cut(step, " ("); ok && HasLabel("step", head) {
		return Label(lang, "step", head) + " (" + strings.ReplaceAll(rest, "_", " ")
	}
	return strings.ReplaceAll(step, "_", " ")
}
