package mcp

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/record"
)

type browseMeetingsIn struct {
	From       string   `json:"from,omitempty"`
	To         string   `json:"to,omitempty"`
	Month      string   `json:"month,omitempty"`
	Time       string   `json:"time,omitempty"`
	Attendance string   `json:"attendance,omitempty"`
	Sources    []string `json:"sources,omitempty"`
	Body       string   `json:"body,omitempty"`
	BodyKind   string   `json:"body_kind,omitempty"`
	Borough    string   `json:"borough,omitempty"`
	Limit      int      `json:"limit,omitempty"`
	Cursor     string   `json:"cursor,omitempty"`
}

func browseMeetings(d *Deps) Tool {
	t := newTool(d, "browse_meetings", "Browse source meetings", ClassRead,
		"Bounded, stable pages of source meetings (Council events from Legistar, community-board calendars, City Record "+
			"hearing notices) in a date window of New York days (from defaults to today, to to from + 30 days; at most 366 "+
			"days), soonest first. time narrows to resident-friendly times: evening (start at or after 17:00 New York), "+
			"weekend (Saturday or Sunday) or evening_or_weekend. attendance narrows to in_person or remote (hybrid meetings "+
			"match both), hybrid or unknown; sources to legistar, cb-calendar or cityrecord-hearings; body to one body "+
			"name; body_kind to council, community_board or agency; borough to one borough as the records give it (a community board's id) or citywide_or_unknown (the Council, agencies, bodies no record places). month (YYYY-MM) is one calendar month instead of from/to. A time filter cannot judge a meeting whose start the source does not give: those are counted and "+
			"listed in excluded_unknown_start, never silently dropped. Each meeting keeps its four facts (held, observed, "+
			"minutes, notice) apart with evidence. coverage gives per-source records, date bounds and freshness; "+
			"follow next_cursor with the same arguments for the next page. No rows never proves no meeting exists.",
		[]int{1},
		func(s *jsonschema.Schema) {
			dateProp(s, "from", "First New York day, YYYY-MM-DD (default today).")
			dateProp(s, "to", "Last New York day, YYYY-MM-DD (default from + 30 days; window at most 366 days).")
			mp := prop(s, "month")
			mp.Pattern = `^[0-9]{4}-[0-9]{2}$`
			mp.Description = "One calendar month, YYYY-MM (first to last day); not with from or to."
			kp := prop(s, "body_kind")
			kp.Enum = stringEnum(meeting.BodyKinds)
			kp.Description = "Kind of body: council, community_board or agency."
			bp := prop(s, "borough")
			bp.Enum = append(stringEnum(meeting.Boroughs), stringEnum(land.BoroughSpellings())...) // the keys, then the land filter's spellings
			bp.Description = "Borough as the meeting's records give it (a community board's id names its borough); " + meeting.BoroughNone + " for the Council, agencies and bodies no record places (never guessed)."
			tp := prop(s, "time")
			tp.Enum = []any{meeting.TimeEvening, meeting.TimeWeekend, meeting.TimeEveningOrWeekend}
			tp.Description = "Resident time: evening (start ≥ 17:00 New York), weekend, or evening_or_weekend."
			ap := prop(s, "attendance")
			ap.Enum = []any{meeting.InPerson, meeting.Remote, meeting.Hybrid, meeting.AttendanceUnknown}
			ap.Description = "Attendance mode; in_person and remote include hybrid meetings."
			sp := prop(s, "sources")
			sp.Types, sp.Type = nil, "array"
			sp.Items = &jsonschema.Schema{Type: "string", Enum: stringEnum(meeting.Sources)}
			sp.MaxItems = ptr(3)
			sp.Description = "Meeting sources to read (default all)."
			bounded(s, "body", record.MaxNameLen, "A body or board name as the source writes it (Committee on Finance, Bronx Community Board 10), matched exactly after case and punctuation are folded.")
			limitProp(s, meeting.MaxLimit)
			cursorProp(s)
		},
		func(ctx context.Context, d *Deps, in browseMeetingsIn) (meeting.Page, error) {
			svc, err := d.meetings()
			if err != nil {
				return meeting.Page{}, err
			}
			p, err := svc.Browse(ctx, meeting.Filter{From: in.From, To: in.To, Month: in.Month, Time: in.Time, Attendance: in.Attendance,
				Sources: in.Sources, Body: in.Body, BodyKind: in.BodyKind, Borough: in.Borough},
				in.Cursor, limitOr(in.Limit, meeting.DefaultLimit))
			if err != nil {
				return meeting.Page{}, err
			}
			return p, nil
		})
	t.Limits = []string{"limit: at most 100 meetings per page (default 20); follow next_cursor for the rest",
		"window: at most 366 days", "excluded_unknown_start lists at most 100 meetings (count counts all)"}
	t.Examples = []Example{{"Evening meetings in September 2026", map[string]any{"from": "2026-09-01", "to": "2026-09-30", "time": "evening"}}}
	return t
}
