package meetings

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/meeting"
)

// The two grid layouts seen in the boards' calendars, as their text is laid
// out (bronx-cb-10-*.txt and bronx-cb-09-september-2026.txt), generated for
// any month: where each weekday's label, day number and cell text start.
type gridLayout struct {
	name string
	// header is the weekday header line; numCol and textCol are, per
	// weekday (Sunday first), the column of a day number and the centre
	// of a cell's text (-1: the layout prints no such day).
	header          string
	numCol, textMid [7]int
	// adjacent: the first week also prints the last days of the month
	// before (bronx-cb-09); vertical: the month is spelled down the left
	// margin with the year printed alone below the grid, instead of a
	// heading.
	adjacent, vertical bool
	// rightNums: day numbers end at numCol (printed at a cell's top
	// right), a layout not seen in a real calendar yet
	rightNums bool
	email     string
}

var layouts = []gridLayout{
	{name: "bronx-cb-10", email: "bx10@cb.nyc.gov",
		header:  "SUNDAY            MONDAY             TUESDAY          WEDNESDAY               THURSDAY              FRIDAY      SATURDAY",
		numCol:  [7]int{0, 13, 32, 53, 73, 96, 112},
		textMid: [7]int{4, 18, 37, 58, 78, 100, 116}},
	{name: "bronx-cb-09", email: "bx09@cb.nyc.gov", adjacent: true, vertical: true,
		header:  " Sunday               Monday                   Tuesday                Wednesday                  Thursday                    Friday              Saturday",
		numCol:  [7]int{-1, 13, 38, 64, 89, 115, 140},
		textMid: [7]int{-1, 25, 50, 74, 101, 128, 148}},
	{name: "brooklyn-cb-03", email: "bk03@cb.nyc.gov", rightNums: true,
		header:  "      Sun             Mon             Tue             Wed             Thu             Fri             Sat",
		numCol:  [7]int{15, 31, 47, 63, 79, 95, 111},
		textMid: [7]int{7, 23, 39, 55, 71, 87, 103}},
}

// cellNames are the meetings the generator writes, one line each at most
// eleven letters wide (a cell's width in the narrowest layout).
var cellNames = [][]string{{"Executive", "Board"}, {"Parks", "Committee"}, {"Housing &", "Zoning"}, {"Full Board"}, {"Youth &", "Education"}, {"Land Use"}}

// line is a text line being laid out: fragments written at columns.
type line []rune

func (l *line) put(col int, s string) {
	for len(*l) < col+len([]rune(s)) {
		*l = append(*l, ' ')
	}
	copy((*l)[col:], []rune(s))
}

// genMonth lays out one month in a layout: meetings on the first and last
// days the layout prints, on every second Tuesday and Thursday, and a
// closure on the 11th; in the first layout also a note in the empty cells
// before day 1, when there are some. It returns the text and the
// meetings a reader must find in it, no more.
func genMonth(l gridLayout, year int, mo time.Month) (string, []pinned) {
	first := time.Date(year, mo, 1, 0, 0, 0, 0, time.UTC)
	last := first.AddDate(0, 1, -1)
	printed := func(d time.Time) bool { return l.numCol[d.Weekday()] >= 0 }
	// the meeting days
	meet := map[int][]string{}
	var want []pinned
	k := 0
	add := func(d time.Time) {
		if !printed(d) || d.Day() == 11 || meet[d.Day()] != nil {
			return
		}
		n := cellNames[k%len(cellNames)]
		k++
		meet[d.Day()] = n
		want = append(want, pinned{d.Format("2006-01-02"), "19:00", strings.Join(n, " ")})
	}
	for d := first; !d.After(last); d = d.AddDate(0, 0, 1) {
		if d.Day() == 1 || d.Day() == last.Day() || (d.Day()/7)%2 == 1 && (d.Weekday() == time.Tuesday || d.Weekday() == time.Thursday) {
			add(d)
		}
	}
	for first := first; !printed(first); first = first.AddDate(0, 0, 1) { // Sunday the 1st unprinted: the 2nd
		add(first.AddDate(0, 0, 1))
	}
	for d := last; !printed(d); d = d.AddDate(0, 0, -1) {
		add(d.AddDate(0, 0, -1))
	}
	slices.SortFunc(want, func(a, b pinned) int { return strings.Compare(a.date, b.date) })
	var out []string
	out = append(out, "To request access or other accommodations, please contact the board at "+l.email, "", "")
	if !l.vertical {
		out = append(out, "            TENTATIVE "+strings.ToUpper(mo.String())+" "+fmt.Sprint(year))
	}
	out = append(out, l.header)
	letters := []rune(strings.ToUpper(mo.String()))
	// weeks: Sunday to Saturday
	start := first.AddDate(0, 0, -int(first.Weekday()))
	for w := start; !w.After(last); w = w.AddDate(0, 0, 7) {
		var nums line
		var cells [4]line
		wrote := false
		for i := 0; i < 7; i++ {
			d := w.AddDate(0, 0, i)
			if !printed(d) || (d.Month() != mo && !(l.adjacent && d.Before(first))) {
				continue
			}
			if n := fmt.Sprint(d.Day()); l.rightNums {
				nums.put(l.numCol[i]-len(n)+1, n)
			} else {
				nums.put(l.numCol[i], n)
			}
			wrote = true
			if d.Month() != mo {
				continue
			}
			var text []string
			switch {
			case d.Day() == 11:
				text = []string{"Office", "Closed"}
			case meet[d.Day()] != nil:
				text = append(slices.Clone(meet[d.Day()]), "7 p.m.")
			}
			for j, t := range text {
				cells[j].put(max(0, l.textMid[i]-len(t)/2), t)
			}
		}
		if !wrote {
			continue
		}
		if !l.vertical && w.Equal(start) && first.Weekday() >= time.Wednesday {
			cells[0].put(0, "Notes:")
			cells[1].put(0, "call first")
		}
		out = append(out, string(nums), "")
		for _, c := range cells {
			s := string(c)
			if l.vertical && len(letters) > 0 {
				out = append(out, "", " "+string(letters[0]))
				letters = letters[1:]
			}
			out = append(out, s)
		}
		out = append(out, "")
	}
	for l.vertical && len(letters) > 0 {
		out = append(out, " "+string(letters[0]), "")
		letters = letters[1:]
	}
	if l.vertical {
		out = append(out, "", fmt.Sprint(year))
	}
	return strings.Join(out, "\n") + "\n", want
}

// Every month of 2026 and 2027 laid out in each grid layout seen: short
// first and last weeks (one or two days), five- and six-row months, the
// adjacent month's days, a closure and a note in the empty cells: every
// meeting is read, with its day, time and name, and no other.
func TestGeneratedCalendarCorpus(t *testing.T) {
	shapes := map[string]bool{}
	for _, l := range layouts {
		for year := 2026; year <= 2027; year++ {
			for mo := time.January; mo <= time.December; mo++ {
				text, want := genMonth(l, year, mo)
				name := fmt.Sprintf("%s-%s-%d.txt", l.name, strings.ToLower(mo.String()), year)
				ms, notes, err := CalendarMeetings(name, text, meeting.Observation{})
				if err != nil {
					t.Errorf("%s: %v\n%s", name, err, text)
					continue
				}
				if got := pinsOf(ms); !slices.Equal(got, want) {
					t.Errorf("%s: got %v\nwant %v\nnotes %v\n%s", name, got, want, notes, text)
				}
				rows := dayRows(fragments(strings.Split(text, "\n")))
				shapes[fmt.Sprintf("%d rows", len(rows))] = true
				if rows[0].n < fullWeek {
					shapes["short first week"] = true
				}
				if rows[len(rows)-1].n < fullWeek {
					shapes["short last week"] = true
				}
				if rows[len(rows)-1].n == 1 {
					shapes["last week of one day"] = true
				}
			}
		}
	}
	for _, s := range []string{"5 rows", "6 rows", "short first week", "short last week", "last week of one day"} {
		if !shapes[s] {
			t.Errorf("the corpus has no month with %s (%v)", s, shapes)
		}
	}
}

// November 2026 ends on a Monday: its last week is one day (the layout
// that leaves Sundays out) or two (the one that prints them). Both read
// whole; a meeting on the 30th is found.
func TestShortLastWeek(t *testing.T) {
	for _, l := range layouts {
		text, want := genMonth(l, 2026, time.November)
		ms, _, err := CalendarMeetings(l.name+"-november-2026.txt", text, meeting.Observation{})
		if err != nil {
			t.Fatalf("%s: %v", l.name, err)
		}
		got := pinsOf(ms)
		if !slices.Equal(got, want) || got[len(got)-1].date != "2026-11-30" {
			t.Errorf("%s: got %v want %v", l.name, got, want)
		}
	}
}

// Mutations of a generated month that must still be rejected whole or
// read without a phantom: a stray number between two full weeks stays
// cell text; two short rows above the first week reject; text across two
// columns that is no closure rejects.
func TestGeneratedCalendarMutations(t *testing.T) {
	text, want := genMonth(layouts[0], 2026, time.August) // Saturday the 1st, Sunday the 30th and Monday the 31st
	lines := strings.Split(text, "\n")
	find := func(prefix string) int {
		for i, l := range lines {
			if strings.HasPrefix(strings.TrimSpace(l), prefix) {
				return i
			}
		}
		t.Fatalf("no line %q", prefix)
		return -1
	}
	with := func(at int, s string) string {
		return strings.Join(slices.Insert(slices.Clone(lines), at, s), "\n")
	}
	cases := []struct{ name, text, reject string }{
		{"a lone number inside a week", with(find("2 ")+2, "                                                     7"), "no time"},
		{"two short rows above the first week", with(find("1")+1, "                                                                                                                7"), "cannot be told"},
		{"a meeting across two columns", with(find("2 ")+2, "                                       Borough Board Meeting"), "rejected"},
		{"a closure across two columns", with(find("9 ")+2, "                                       Summer Recess Office Closed"), ""},
	}
	right, _ := genMonth(layouts[2], 2026, time.August)
	cases = append(cases,
		struct{ name, text, reject string }{"numbers at the right, weekday labels swapped", strings.Replace(right, "Mon             Tue", "Tue             Mon", 1), "columns out of place"},
		struct{ name, text, reject string }{"numbers at the right, the grid a week off", strings.Replace(right, "  9              10", " 16              10", 1), "rejected"})
	for _, c := range cases {
		ms, notes, err := CalendarMeetings("bronx-cb-10-august-2026.txt", c.text, meeting.Observation{})
		if c.reject != "" {
			if err == nil || len(ms) != 0 || !strings.Contains(err.Error(), c.reject) {
				t.Errorf("%s: want rejected (%q); got %v, err %v", c.name, c.reject, pinsOf(ms), err)
			}
			continue
		}
		if err != nil || !slices.Equal(pinsOf(ms), want) {
			t.Errorf("%s: got %v, err %v, notes %v", c.name, pinsOf(ms), err, notes)
		}
	}
}

// The real calendars with their last week cut short (as a month ending on
// a Sunday or a Monday prints it) and with their first week cut to its
// last day: every real meeting is still read, and no other.
func TestRealCalendarsShortWeeks(t *testing.T) {
	sep := calendarText(t, "bronx-cb-10-september-2026.txt")
	oct := calendarText(t, "bronx-cb-10-october-2026.txt")
	cases := []struct{ file, text string }{
		{"bronx-cb-10-september-2026.txt", mutate(t, sep, "27           28                 29                   30", "27           28")},
		{"bronx-cb-10-october-2026.txt", mutate(t, oct, "                                                                         1                      2               3",
			"                                                                                                                3")},
	}
	for _, c := range cases {
		ms, notes, err := CalendarMeetings(c.file, c.text, meeting.Observation{})
		if got, want := pinsOf(ms), pinnedCalendars[c.file]; err != nil || !slices.Equal(got, want) {
			t.Errorf("%s: err %v, notes %v\n got %v\nwant %v", c.file, err, notes, got, want)
		}
	}
}
