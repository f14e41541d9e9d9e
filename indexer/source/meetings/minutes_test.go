package meetings

import (
	"io/fs"
	"maps"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/record"
)

// Real minutes rows: a minutes document is a published minutes fact of its
// board and date, read from the text; a document whose board or date is
// unsure is rejected with its reason; application numbers named in the
// text are land events linked by method "text" with their words.
func TestMinutesFromRealRows(t *testing.T) {
	res, errs := ReadDir(os.DirFS("testdata"), ".")
	if res.Rows[MinutesSource] != 14 {
		t.Errorf("rows %v", res.Rows)
	}
	wantErr := []string{
		`row 2 ("March 28, 2024 Minutes"): rejected: no meeting date`,
		`row 5 ("June 26, 2014 Minutes"): rejected: the text names community board 9`,
		`row 2 ("2023 June 2023"): rejected: the heading says Tuesday but 2023-06-26 is a Monday`,
		`row 2 ("October 2022"): rejected: the minutes date 2021-10-20 disagrees with the link text`,
		`row 3 ("November 2019"): rejected: no text`,
		`row 2 ("April 2023 Minutes"): rejected: no meeting date`,
	}
	if len(errs) != len(wantErr) {
		t.Errorf("errors %v", errs)
	}
	for _, w := range wantErr {
		found := false
		for _, e := range errs {
			found = found || strings.Contains(e.Error(), w)
		}
		if !found {
			t.Errorf("no rejection %q in %v", w, errs)
		}
	}
	ms := byID(res.Meetings)
	want := map[string]string{ // id → start ("" when not stated)
		"cb-minutes:bx01-2024-06-20-full-board": "", "cb-minutes:bx01-2021-12-16-full-board": "", "cb-minutes:bx01-2017-01-26-full-board": "",
		"cb-minutes:mn01-2024-01-23-full-board": "18:00", "cb-minutes:mn01-2021-01-26-full-board": "18:00", "cb-minutes:mn01-2015-07-28-full-board": "18:00",
		"cb-minutes:mn02-2021-02-18-full-board": "18:30", "cb-minutes:mn04-2024-01-03-full-board": "18:30",
	}
	if len(res.Meetings) != len(want) {
		t.Errorf("%d meetings, want %d", len(res.Meetings), len(want))
	}
	for id, start := range want {
		m, ok := ms[id]
		if !ok {
			t.Errorf("%s not read", id)
			continue
		}
		got := ""
		if m.When.StartKnown {
			got = m.When.Start.Format("15:04")
		}
		if got != start || m.Minutes.State != meeting.MinutesPublished || m.Held.State != meeting.Held || len(m.Docs) != 1 ||
			m.Docs[0].Kind != meeting.DocMinutes || !strings.HasPrefix(m.Docs[0].URL, "http") || !strings.Contains(m.Minutes.Evidence, m.When.Date) {
			t.Errorf("%s: start %q minutes %+v held %+v docs %+v", id, got, m.Minutes, m.Held, m.Docs)
		}
		if f := field(m, "date"); f.Value != m.When.Date || !strings.Contains(f.How, "agree with the link text") {
			t.Errorf("%s date field %+v", id, f)
		}
	}
	if d := ms["cb-minutes:bx01-2024-06-20-full-board"].Docs; len(d) == 0 || d[0].Status != "Draft" {
		t.Errorf("the June 2024 minutes are marked DRAFT: %+v", d)
	}
	evs := map[string]land.Event{}
	for _, e := range res.LandEvents {
		evs[e.ID] = e
		if e.Method != "text" || e.Type != "cb_minutes" || e.Evidence == "" || e.URL == "" || e.Date.IsZero() {
			t.Errorf("event %+v", e)
		}
		if !strings.Contains(e.Evidence, e.ULURPNumbers[0]) {
			t.Errorf("%s: the evidence does not show %s: %s", e.ID, e.ULURPNumbers[0], e.Evidence)
		}
	}
	for id, key := range map[string]string{
		"cb-minutes:bx01-2017-01-26:170140ZMX":    "170140ZMX",
		"cb-minutes:bx01-2021-12-16:210322ZRX":    "210322ZRX",    // broken across lines
		"cb-minutes:mn01-2021-01-26:800477ZSM":    "800477ZSM",    // "C\n800477 ZSM"
		"cb-minutes:mn01-2015-07-28:920427ZCM(A)": "920427ZCM(A)", // a modification
		"cb-minutes:mn01-2024-01-23:240010ZRY":    "240010ZRY",
		"cb-minutes:mn01-2024-01-23:240011ZRY":    "240011ZRY",
	} {
		if e, ok := evs[id]; !ok || len(e.ULURPKeys) != 1 || e.ULURPKeys[0] != key {
			t.Errorf("%s: %+v", id, e)
		}
	}
	if len(evs) != 6 {
		t.Errorf("%d events (a number without its prefix letter, \"210321 ZMX\", is not read)", len(evs))
	}
}

// Minutes of a board and day attach to the one full-board calendar entry
// of that board and day; with none (or several) they are their own meeting.
func TestMinutesAttachToTheCalendarEntry(t *testing.T) {
	day := time.Date(2026, 9, 17, 19, 0, 0, 0, record.NewYork)
	cal := []meeting.Meeting{
		{ID: "cb-calendar:bx10-2026-09-17-cb-10-full-board-public-hearing", Source: CalendarSource, Body: "Bronx Community Board 10",
			Title: "Bronx Community Board 10: CB#10 Full Board & Public Hearing", When: meeting.When{Date: "2026-09-17", Start: &day, StartKnown: true},
			Minutes: meeting.Fact{State: meeting.MinutesNotPublished}},
		{ID: "cb-calendar:bx10-2026-09-14-executive-board", Source: CalendarSource, Body: "Bronx Community Board 10",
			Title: "Bronx Community Board 10: Executive Board", When: meeting.When{Date: "2026-09-14"}},
	}
	mk := func(date string) meeting.Meeting {
		return meeting.Meeting{ID: "cb-minutes:bx10-" + date + "-full-board", Source: MinutesSource, Body: "Bronx Community Board 10", SourceURL: "https://example.org/m.pdf",
			When: meeting.When{Date: date}, Docs: []meeting.Document{{Kind: meeting.DocMinutes, URL: "https://example.org/m.pdf"}},
			Minutes: meeting.Fact{State: meeting.MinutesPublished, Evidence: "minutes held"}}
	}
	var notes []string
	keep := attachMinutes(cal, []meeting.Meeting{mk("2026-09-17"), mk("2026-09-14")}, &notes)
	if cal[0].Minutes.State != meeting.MinutesPublished || len(cal[0].Docs) != 1 || cal[0].Held.State != meeting.Held {
		t.Errorf("full board: %+v", cal[0])
	}
	if len(keep) != 1 || keep[0].When.Date != "2026-09-14" || cal[1].Minutes.State == meeting.MinutesPublished {
		t.Errorf("the executive board is not the full board: kept %+v, executive %+v", keep, cal[1])
	}
}

// A minutes event is observed on a project's decision path as a mention
// read from the text, never as evidence of a stage.
func TestMinutesEventOnTheDecisionPath(t *testing.T) {
	ev := minutesEvents("mn01", "Manhattan Community Board 1", time.Date(2021, 1, 26, 0, 0, 0, 0, record.NewYork), "https://example.org/m.pdf",
		"1) 240 Greenwich Street, private application for a modification to a Special Permit (C\n800477 ZSM) to remove designated ground floor public space.")
	if len(ev) != 1 {
		t.Fatalf("events %+v", ev)
	}
	d := land.Path(land.Project{ID: "2021M0001", ProcedureID: "ulurp", Actions: []land.Action{{ULURPKey: "800477ZSM"}}}, ev)
	found := false
	for _, o := range d.Observed {
		if o.Kind == "cb_minutes" {
			found = strings.Contains(o.Note, "method text") && strings.Contains(o.Note, "C 800477 ZSM")
		}
	}
	for _, s := range d.Normative {
		if len(s.Evidence) > 0 {
			t.Errorf("a mention became evidence of stage %s", s.ID)
		}
	}
	if !found {
		t.Errorf("observed %+v", d.Observed)
	}
}

// The four boards' full minutes files (testdata/full, byte copies of the
// real files): 669 documents, 380 read, 289 rejected, every reject a
// minutes row with one of the reader's reasons (most of Manhattan CB2's
// PDFs yielded no text); 30 application numbers named. The bundled
// sample's minutes are the documents read from 2023 on or naming an
// application number, each as read from the full file.
func TestMinutesFullFiles(t *testing.T) {
	full, errs := ReadDir(os.DirFS("testdata/full"), ".")
	if full.Rows[MinutesSource] != 669 || len(full.Meetings) != 380 || len(full.LandEvents) != 30 {
		t.Errorf("rows %v, %d documents read, %d events; want 669, 380, 30", full.Rows, len(full.Meetings), len(full.LandEvents))
	}
	rowRE := regexp.MustCompile(`^minutes/(Bronx_CB1|Manhattan_CB1|Manhattan_CB2|Manhattan_CB4)_minutes_with_content\.csv row \d+ \(".*"\): rejected: (.*)$`)
	reasons := map[string]*regexp.Regexp{
		"no text":        regexp.MustCompile(`^no text \(the PDF's text could not be extracted\)$`),
		"no date":        regexp.MustCompile(`^no meeting date is read from the minutes' heading$`),
		"weekday":        regexp.MustCompile(`^the heading says \w+ but \d{4}-\d\d-\d\d is a \w+day$`),
		"other board":    regexp.MustCompile(`^the text names community board \d+, the file board \d+$`),
		"link text date": regexp.MustCompile(`^the minutes date \d{4}-\d\d-\d\d disagrees with the link text ".*"$`),
	}
	got := map[string]int{}
	for _, e := range errs {
		m := rowRE.FindStringSubmatch(e.Error())
		known := ""
		for name, re := range reasons {
			if m != nil && re.MatchString(m[2]) {
				known = name
			}
		}
		if known == "" {
			t.Errorf("a reject that is not a minutes row with a known reason: %v", e)
		}
		got[known]++
	}
	want := map[string]int{"no text": 269, "no date": 11, "weekday": 3, "other board": 2, "link text date": 4}
	if !maps.Equal(got, want) {
		t.Errorf("rejects by reason %v, want %v", got, want)
	}
	fsys := os.DirFS("../../../testdata/sample/meetings")
	read := byID(full.Meetings)
	n := 0
	for _, f := range []string{"Bronx_CB1", "Manhattan_CB1", "Manhattan_CB2", "Manhattan_CB4"} {
		name := "minutes/" + f + "_minutes_with_content.csv"
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			t.Fatal(err)
		}
		docs, _, errs := ReadMinutesCSV(name, data)
		if len(errs) != 0 {
			t.Errorf("the sample's minutes are read whole: %v", errs)
		}
		for _, d := range docs {
			n++
			m, ok := read[d.Meeting.ID]
			if !ok || m.SourceURL != d.Meeting.SourceURL || (d.Meeting.When.Date < "2023-01-01" && len(d.Events) == 0) {
				t.Errorf("sample minutes %s (%s, %d events) is not a full-file document dated 2023 on or naming an application", d.Meeting.ID, d.Meeting.When.Date, len(d.Events))
			}
		}
	}
	if n != 82 {
		t.Errorf("%d sample minutes documents, want 82", n)
	}
}
