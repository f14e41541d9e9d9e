package meetings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/meeting"
)

// pinned is one expected meeting: its day, its start ("not stated" when
// the text gives none) and its name.
type pinned struct{ date, start, name string }

// Every calendar text held, checked by hand against the text (the bundled
// copies are the files of data/real/meetings/community_board_pdf_calendar_text):
// exactly these meetings, no more. Labor Day and Columbus Day are office
// closures; the grids' day numbers agree with their weekday headers
// (1 September 2026 is a Tuesday, 12 October 2026 a Monday).
var pinnedCalendars = map[string][]pinned{
	"bronx-cb-09-september-2026.txt": {
		{"2026-09-01", "18:30", "Social Services Committee"},
		{"2026-09-02", "19:00", "NYPD 43rd Pct Council"},
		{"2026-09-03", "19:00", "Public Safety & Transportation Committee"},
		{"2026-09-08", "19:00", "Homes & Housing Committee"},
		{"2026-09-09", "19:00", "Parks & Recreation Committee"},
		{"2026-09-10", "19:00", "Youth & Education Committee"},
		{"2026-09-14", "19:00", "Land/Zoning & Planning Committee"},
		{"2026-09-15", "19:00", "Executive Committee"},
		{"2026-09-17", "18:30", "General Board"},
		{"2026-09-18", "10:00", "Seniors Connected"},
	},
	"bronx-cb-10-october-2026.txt": {
		{"2026-10-06", "19:00", "Economic Development"},
		{"2026-10-08", "19:00", "Parks Committee"},
		{"2026-10-13", "19:00", "Housing & Zoning"},
		{"2026-10-14", "19:00", "Municipal Services"},
		{"2026-10-15", "19:00", "CB#10 Full Board & Public Hearing"},
		{"2026-10-19", "19:00", "Executive Board"},
	},
	"bronx-cb-10-september-2026.txt": {
		{"2026-09-01", "19:00", "Economic Development"},
		{"2026-09-02", "19:00", "Health & Human Services"},
		{"2026-09-08", "19:00", "Housing & Zoning Services"},
		{"2026-09-09", "19:00", "Municipal Services"},
		{"2026-09-10", "19:00", "Parks & Recreation"},
		{"2026-09-14", "19:00", "Executive Board"},
		{"2026-09-17", "19:00", "CB#10 Full Board & Public Hearing"},
		{"2026-09-28", "19:00", "Youth & Education"},
	},
	"brooklyn-cb-01-press-release.txt": {
		{"2026-01-13", "18:00", "Board meeting"}, {"2026-02-10", "18:00", "Board meeting"}, {"2026-03-10", "18:00", "Board meeting"},
		{"2026-04-14", "18:00", "Board meeting"}, {"2026-05-12", "18:00", "Board meeting"}, {"2026-06-09", "18:00", "Board meeting"},
		{"2026-07-14", "18:00", "Board meeting"}, {"2026-08-11", "18:00", "Board meeting"}, {"2026-09-08", "18:00", "Board meeting"},
		{"2026-10-13", "18:00", "Board meeting"}, {"2026-11-10", "18:00", "Board meeting"}, {"2026-12-15", "18:00", "Board meeting"},
		{"2027-01-12", "18:00", "Board meeting"}, {"2027-02-09", "18:00", "Board meeting"}, {"2027-03-09", "18:00", "Board meeting"},
	},
	"queens-cb-08-2026-schedule.txt": {
		{"2026-01-07", "not stated", "Board meeting"}, {"2026-02-11", "not stated", "Board meeting"}, {"2026-03-11", "not stated", "Board meeting"},
		{"2026-04-15", "not stated", "Board meeting"}, {"2026-05-13", "not stated", "Board meeting"}, {"2026-06-10", "not stated", "Board meeting"},
		{"2026-09-09", "not stated", "Board meeting"}, {"2026-10-14", "not stated", "Board meeting"}, {"2026-11-18", "not stated", "Board meeting"},
		{"2026-12-09", "not stated", "Board meeting"},
	},
	"queens-cb-09-2021-memo.txt": {
		{"2021-01-12", "19:30", "Board meeting"}, {"2021-02-09", "19:30", "Board meeting"}, {"2021-03-09", "19:30", "Board meeting"},
		{"2021-04-13", "19:30", "Board meeting"}, {"2021-05-11", "19:30", "Board meeting"}, {"2021-06-08", "19:30", "Board meeting"},
		{"2021-07-13", "19:30", "Board meeting"}, {"2021-08-10", "19:30", "Board meeting"}, {"2021-09-14", "19:30", "Board meeting"},
		{"2021-10-12", "19:30", "Board meeting"}, {"2021-11-09", "19:30", "Board meeting"}, {"2021-12-14", "19:30", "Board meeting"},
	},
	"queens-cb-14-june-agenda.txt": {
		{"2026-06-09", "19:00", "Monthly Board Meeting"},
	},
}

func calendarText(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(sample, "meetings", "calendars", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func pinsOf(ms []meeting.Meeting) []pinned {
	var out []pinned
	for _, m := range ms {
		st := field(m, "start").Value
		out = append(out, pinned{m.When.Date, st, strings.TrimPrefix(m.Title, m.Body+": ")})
	}
	return out
}

// Every real calendar text held yields exactly its hand-checked meetings,
// and every meeting's body, date, name and start are each read from a
// line of the text that holds what was read.
func TestRealCalendarsPinned(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(sample, "meetings", "calendars", "*.txt"))
	checked := 0
	for _, f := range files {
		name := filepath.Base(f)
		text := calendarText(t, name)
		ms, _, err := CalendarMeetings(name, text, meeting.Observation{})
		want, pinnedFile := pinnedCalendars[name]
		if !pinnedFile {
			if err == nil || len(ms) != 0 {
				t.Errorf("%s: a calendar with no pinned meetings must be rejected; got %d meetings, err %v", name, len(ms), err)
			}
			continue
		}
		checked++
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		got := pinsOf(ms)
		if len(got) != len(want) {
			t.Errorf("%s: %d meetings, want %d:\n got %v\nwant %v", name, len(got), len(want), got, want)
			continue
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s #%d: got %+v want %+v", name, i, got[i], want[i])
			}
		}
		lines := strings.Split(text, "\n")
		for _, m := range ms {
			for _, fn := range []string{"date", "name", "start"} {
				pf := field(m, fn)
				if pf.Line < 1 || pf.Line > len(lines) || pf.SourceText == "" || pf.SourceText != strings.Join(strings.Fields(lines[pf.Line-1]), " ") {
					t.Errorf("%s %s: field %s has no source line: %+v", name, m.ID, fn, pf)
				}
			}
			if st := field(m, "start"); st.Value != meeting.TimeNotStated && !timeRE.MatchString(st.SourceText) {
				t.Errorf("%s %s: the start's line states no time: %+v", name, m.ID, st)
			}
			if b := field(m, "body"); b.Confidence == meeting.High && !strings.Contains(strings.ToLower(b.SourceText), "@cb.nyc.gov") {
				t.Errorf("%s: body field %+v", name, b)
			}
			if m.When.StartKnown != (field(m, "start").Value != meeting.TimeNotStated) {
				t.Errorf("%s %s: start_known %v with start field %+v", name, m.ID, m.When.StartKnown, field(m, "start"))
			}
		}
	}
	if checked != len(pinnedCalendars) {
		t.Errorf("%d of %d pinned calendars checked", checked, len(pinnedCalendars))
	}
}

// mutate applies replacements that must each match once.
func mutate(t *testing.T, text string, pairs ...string) string {
	t.Helper()
	for i := 0; i < len(pairs); i += 2 {
		if strings.Count(text, pairs[i]) != 1 {
			t.Fatalf("mutation %q matches %d times", pairs[i], strings.Count(text, pairs[i]))
		}
		text = strings.Replace(text, pairs[i], pairs[i+1], 1)
	}
	return text
}

// insertAfter inserts a line after the (unique) line holding anchor.
func insertAfter(t *testing.T, text, anchor, line string) string {
	t.Helper()
	i := strings.Index(text, anchor)
	if i < 0 || strings.Count(text, anchor) != 1 {
		t.Fatalf("anchor %q", anchor)
	}
	j := i + strings.Index(text[i:], "\n") + 1
	return text[:j] + line + "\n" + text[j:]
}

// Mutated layouts of the real calendars: each is either rejected whole
// with its reason or read with exactly the real meetings — never a phantom.
func TestMutatedCalendarsYieldNoPhantom(t *testing.T) {
	oct := calendarText(t, "bronx-cb-10-october-2026.txt")
	sep := calendarText(t, "bronx-cb-10-september-2026.txt")
	bx09 := calendarText(t, "bronx-cb-09-september-2026.txt")
	qn08 := calendarText(t, "queens-cb-08-2026-schedule.txt")
	bk01 := calendarText(t, "brooklyn-cb-01-press-release.txt")
	qn09 := calendarText(t, "queens-cb-09-2021-memo.txt")
	cases := []struct {
		name, file, text string
		reject           string // part of the reason; "" when the real meetings must be read unchanged
	}{
		{"weekday columns swapped", "bronx-cb-10-october-2026.txt",
			mutate(t, oct, "SUNDAY            MONDAY             TUESDAY", "SUNDAY            TUESDAY            MONDAY "), "columns out of place"},
		{"weekday columns swapped (vertical-label grid)", "bronx-cb-09-september-2026.txt",
			mutate(t, bx09, " Sunday               Monday ", " Monday               Sunday "), "columns out of place"},
		{"no weekday header", "bronx-cb-10-september-2026.txt",
			mutate(t, sep, "SUNDAY            MONDAY             TUESDAY          WEDNESDAY               THURSDAY              FRIDAY      SATURDAY\n", ""), "no weekday header"},
		{"a grid number in the event column", "bronx-cb-10-october-2026.txt",
			insertAfter(t, oct, "4            5                  6", "                                                     7"), "no time"},
		{"a mini-calendar in the event column", "bronx-cb-10-october-2026.txt",
			insertAfter(t, oct, "18           19                 20", "                                                     1  2  3  4  5  6  7"), "out of place"},
		{"grid numbers of the month shifted a week", "bronx-cb-10-september-2026.txt",
			mutate(t, sep, "6            7                  8                    9                   10                     11              12",
				"13           14                 15                   16                  17                     18              19"), "skips days"},
		{"a holiday in the event column", "bronx-cb-10-september-2026.txt",
			insertAfter(t, sep, "6            7                  8", "             Labor Day"), ""},
		{"a holiday with a time in the event column", "bronx-cb-10-october-2026.txt",
			insertAfter(t, oct, "25           26                 27", "                                         Election Day"), ""},
		{"a day's text with no time", "bronx-cb-10-october-2026.txt",
			insertAfter(t, oct, "25           26                 27", "                                                                         Halloween"), "no time"},
		{"a note line with a day name inside the grid", "bronx-cb-10-october-2026.txt",
			insertAfter(t, oct, "18           19                 20", "             NOTE: the Tuesday meetings of this month begin at 6:30 p.m. at the board office"), "spans several day columns"},
		{"a short note with a day name under the last week", "bronx-cb-10-september-2026.txt",
			insertAfter(t, sep, "             Youth &", "                                Tuesday 6:30 p.m."), "names no meeting"},
		{"a list: a holiday beside a date", "queens-cb-08-2026-schedule.txt",
			insertAfter(t, qn08, "October 14th", "                                      November 11th  Veterans Day - Office Closed"), ""},
		{"a list: a note line with a day name and a date", "queens-cb-08-2026-schedule.txt",
			insertAfter(t, qn08, "October 14th", "                                      Tuesday, March 3rd  deadline for district needs statements"), "not a time, a place or a marker"},
		{"a list: a time the parser cannot attach", "queens-cb-08-2026-schedule.txt",
			insertAfter(t, qn08, "December 9th", "             Note: the May 13th meeting begins at 6:30 PM"), "cannot attach"},
		{"a list: a weekday that disagrees with its date", "brooklyn-cb-01-press-release.txt",
			mutate(t, bk01, "Tuesday          05/12 ", "Tuesday          05/13 "), "is a Wednesday"},
		{"a list: date and place columns swapped", "queens-cb-09-2021-memo.txt",
			mutate(t, qn09, "January 12th                            Zoom Meeting", "Zoom Meeting                            January 12th"), ""},
		{"a list that never says its dates are meetings", "queens-cb-08-2026-schedule.txt",
			mutate(t, qn08, "2026 BOARD MEETING SCHEDULE", "2026 RECYCLING PICK-UP DAYS"), "never says they are meetings"},
		{"an unseen layout: weeks as columns, weekdays as rows", "bronx-cb-10-october-2026.txt",
			"                 OCTOBER 2026        bx10@cb.nyc.gov\nSUNDAY        4        11         18        25\n" +
				"MONDAY        5        12         19        26\n                       Columbus Day\n                       Office Closed\n" +
				"TUESDAY       6        13         20        27\n              Economic Housing &\n              7 p.m.   7 p.m.\n" +
				"NOTE: Tuesday meetings are held at 3165 East Tremont Avenue, Bronx, NY 10461\n", "rejected"},
		{"an unseen layout: a bare grid of numbers", "bronx-cb-10-october-2026.txt",
			"bx10@cb.nyc.gov  OCTOBER 2026\n 4   5   6   7   8   9  10\n11  12  13  14  15  16  17\nColumbus Day 7 p.m.\n", "no weekday header"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ms, notes, err := CalendarMeetings(c.file, c.text, meeting.Observation{})
			if c.reject != "" {
				if err == nil || len(ms) != 0 || !strings.Contains(err.Error(), c.reject) {
					t.Fatalf("want rejected whole (%q); got %d meetings %v, err %v", c.reject, len(ms), pinsOf(ms), err)
				}
				if !strings.Contains(err.Error(), "rejected") {
					t.Errorf("reason %v", err)
				}
				return
			}
			want := pinnedCalendars[c.file]
			got := pinsOf(ms)
			if err != nil || len(got) > len(want) {
				t.Fatalf("err %v; %d meetings (pinned %d): %v; notes %v", err, len(got), len(want), got, notes)
			}
			for _, g := range got {
				if !containsPin(want, g) {
					t.Errorf("phantom meeting %+v", g)
				}
			}
		})
	}
}

func containsPin(ps []pinned, p pinned) bool {
	for _, q := range ps {
		if q == p {
			return true
		}
	}
	return false
}
