package meeting

import (
	"context"
	"fmt"
	"strings"

	"github.com/recordwatch/recordwatch/internal/record"
)

// meetingWidenings are the filters an empty browse may leave out, in the
// order they are tried after the window is moved to the next meeting
// (widen): the resident-time and attendance filters first, then who meets
// and where, the source last.
var meetingWidenings = []struct {
	without, words string
	clear          func(*Filter) bool // reports whether f had the filter, and clears it
}{
	{"time", "without the time of day", func(f *Filter) bool { had := f.Time != ""; f.Time = ""; return had }},
	{"attendance", "without the attendance", func(f *Filter) bool { had := f.Attendance != ""; f.Attendance = ""; return had }},
	{"body", "without the body", func(f *Filter) bool { had := strings.TrimSpace(f.Body) != ""; f.Body = ""; return had }},
	{"body_kind", "without the kind of body", func(f *Filter) bool { had := f.BodyKind != ""; f.BodyKind = ""; return had }},
	{"borough", "without the borough", func(f *Filter) bool { had := strings.TrimSpace(f.Borough) != ""; f.Borough = ""; return had }},
	{"source", "without the source", func(f *Filter) bool { had := len(f.Sources) > 0; f.Sources = nil; return had }},
}

// maxMeetingWidenings bounds the reads one empty answer spends on its
// widening.
const maxMeetingWidenings = 4

// widen is the widening of an empty browse of f: first the same filters in
// the month from the next meeting they match after the window (within
// MaxWindowDays); else one filter of meetingWidenings less in the same
// window; nil when nothing is found within maxMeetingWidenings reads.
func (s *Service) widen(ctx context.Context, f Filter) (*record.ListWidening, error) {
	if len(f.AgencyIDs) > 0 { // a lens feed's or watch's browse: no page offers it
		return nil, nil
	}
	from, to, err := f.Window(s.now())
	if err != nil {
		return nil, err
	}
	tries := 1
	// the next meeting these filters match after the window
	later := f
	later.Month, later.From, later.To = "", to.AddDate(0, 0, 1).Format("2006-01-02"), to.AddDate(0, 0, MaxWindowDays).Format("2006-01-02")
	p, err := s.browse(ctx, later, "", 1)
	if err != nil {
		return nil, err
	}
	if len(p.Meetings) > 0 && p.Meetings[0].When.Date != "" {
		next := p.Meetings[0].When.Date
		moved := f
		moved.Month, moved.From, moved.To = next[:7], "", ""
		mp, err := s.browse(ctx, moved, "", 1)
		if err != nil {
			return nil, err
		}
		if mp.Total > 0 {
			return &record.ListWidening{Without: "later", Matched: mp.Total, Filters: filterParams(moved),
				Note: fmt.Sprintf("No meeting held here matches between %s and %s; the next one these filters match is on %s, and %s meeting(s) match in %s.",
					from.Format("2006-01-02"), to.Format("2006-01-02"), next, record.Thousands(mp.Total), next[:7])}, nil
		}
	}
	for _, w := range meetingWidenings {
		wf := f
		if !w.clear(&wf) {
			continue
		}
		if tries++; tries > maxMeetingWidenings {
			break
		}
		p, err := s.browse(ctx, wf, "", 1)
		if err != nil {
			return nil, err
		}
		if p.Total > 0 {
			return &record.ListWidening{Without: w.without, Matched: p.Total, Filters: filterParams(wf),
				Note: fmt.Sprintf("No meeting held here matches every filter between %s and %s; %s, %s meeting(s) do.",
					from.Format("2006-01-02"), to.Format("2006-01-02"), w.words, record.Thousands(p.Total))}, nil
		}
	}
	return nil, nil
}

// filterParams are a filter's set fields as the browse's parameters.
func filterParams(f Filter) map[string]string {
	out := map[string]string{}
	for k, v := range map[string]string{"from": f.From, "to": f.To, "month": f.Month, "time": f.Time, "attendance": f.Attendance,
		"body": f.Body, "body_kind": f.BodyKind, "borough": f.Borough, "source": strings.Join(f.Sources, ",")} {
		if v = strings.TrimSpace(v); v != "" {
			out[k] = v
		}
	}
	return out
}
