package web

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/record"
)

// englishLeftRe are English words no Spanish sentence of these pages
// uses: one left in a note said in Spanish, outside the record values it
// marks, is a part of the note no list says.
var englishLeftRe = regexp.MustCompile(`(?i)\b(the|is|are|and|this|with|which|from|not|was|its|their|only|by|of|on|at|or|held|none|when|may|does|it|than|every|names|linked|published|recorded|printed|read|gives|carry|agree|agrees)\b`)

// verbatimSpanRe is a record value recordNote marks.
var verbatimSpanRe = regexp.MustCompile(`<span data-verbatim>([^<]*)</span>`)

// meetingNotes are the meetings' evidence and notes as their writers
// compose them, one of each shape (the fixed sentences, and a pattern's
// sentence with a name, a date, a quote in its place). A writer's
// sentence that changes, or a new one, must be added here and to
// words_es_meet.go.
func meetingNotes() []string {
	docs := []meeting.Document{{Kind: meeting.DocMinutes, URL: "https://x.test/m.pdf", Status: "Final", PublishedAt: "2026-08-19T01:19:26Z"}}
	notes := []string{
		// internal/meeting meeting.go
		meeting.MinutesFact(docs, "Final").Evidence,
		meeting.MinutesFact([]meeting.Document{{Kind: meeting.DocMinutes, URL: "https://x.test/m.pdf"}}, "").Evidence,
		meeting.MinutesFact([]meeting.Document{{Kind: meeting.DocMinutes, URL: "https://x.test/m.pdf", Status: "Draft"}}, "").Evidence,
		meeting.MinutesFact([]meeting.Document{{Kind: meeting.DocMinutes, URL: "https://x.test/m.pdf", PublishedAt: "2026-08-19T01:19:26Z"}}, "").Evidence,
		meeting.MinutesFact(nil, "").Evidence,
		meeting.MinutesFact(nil, "Draft").Evidence,
		meeting.TimeNotStated,
		// internal/meeting service.go (the answers a page shows instead)
		`no meeting with id "legistar:1" is held`,
		"a meeting id is required (source:source id, e.g. legistar:22525)",
		"meetings are not available on this deployment",
		"to (2025-09-30) is before from (2026-09-01)",
		"the date window is at most 366 days",
		`unknown time filter "night"; one of evening, weekend, evening_or_weekend`,
		`unknown attendance "x"; one of in_person, remote, hybrid`,
		`unknown meeting source "x"; one of legistar, cityrecord-hearings`,
		`body "--" has no letters or digits`,
		// internal/meeting service.go (the excluded meetings' notes and reasons)
		"meetings in the window that match every other filter but whose start time the source does not give, so they cannot be judged evening or not",
		"none: a weekend is known from the date alone",
		"start unknown: the calendar gives the date but no start time",
		// indexer/source/meetings legistar.go
		"Legistar event date and time (New York)",
		"Legistar gives the date but no time",
		"Legistar gives no date",
		"a physical location is the only place Legistar gives; no remote link is published",
		"Legistar gives no location",
		"the link stage has not run",
		"deferred: Legistar agenda status Deferred (minutes status Draft does not make it held)",
		`cancelled: Legistar agenda status Final, comment "Meeting cancelled"`,
		"held as recorded in Legistar: minutes Final are linked; a roll call is recorded on 1 item(s)",
		"held as recorded in Legistar: a roll call is recorded on 3 item(s)",
		"scheduled: the event starts after the source was observed (2026-08-19); agenda status Final",
		"the date has passed but Legistar records neither minutes nor a roll call (agenda status Final, minutes status Draft)",
		"the event files carry no fetch time and no modification time",
		"the event files carry no fetch time; observed no earlier than the latest change they hold (LastModified 2026-08-19T13:54:48Z)",
		"fetched live from the source at 2026-08-19T13:54:48Z",
		"Agenda", "Minutes", "Video", "Media", "Meeting detail (Legistar)",
		// indexer/source/meetings live.go
		"scheduled: the event starts after the source was observed (2026-08-19); agenda status Final (live read: roll calls of the event items are not fetched)",
		// indexer/source/meetings hearings.go
		"the cached snapshot's as-of date (2026-08-14, from its file name)",
		"the file records no observation date",
		"no snapshot date; observed no earlier than the latest publication it holds",
		"City Record event_date gives the day only (midnight)",
		"City Record event_date (floating time, read as New York time)",
		"the notice offers in-person and remote attendance",
		"the notice says the hearing is held remotely",
		"the notice gives a physical place and no remote link",
		"the notice states no place in its fields; read the notice text",
		"a City Record hearing notice links no minutes, and no minutes are held for this hearing",
		"scheduled: the hearing is after the notice was observed (2026-08-14); City Record announces hearings and does not record whether they were held",
		"City Record announces hearings and does not record whether they were held",
		"the meeting is read from City Record notice 20260805038 itself",
		"City Record notice 20260805038",
		"remote attendance",
		// indexer/source/meetings meetings.go
		"the date the calendar texts were copied (calendars/OBSERVED); the PDFs carry no fetch date",
		"the calendar texts carry no observation date",
		// indexer/source/meetings calendar.go
		"read from the calendar text (see parsed_fields)",
		"the calendar gives the date but no start time",
		"listed as a Zoom meeting",
		"a venue and a live stream (watching only; the stream may not allow testimony)",
		"a venue is given and no remote link",
		"the calendar gives no place",
		"a community-board calendar links no minutes, and no minutes are held for this meeting",
		"the calendar marks it tentative or \"if necessary\"; calendars do not record whether meetings were held",
		"a calendar lists planned meetings and does not record whether they were held",
		"the board's e-mail address bx09@cb.nyc.gov",
		`the file name "BX09 calendar" only; the text names no board address`,
		`the day number's column in the grid, on the weekday of its header; month from the printed heading "SEPTEMBER 2026"`,
		`the day number's column in the grid, on the weekday of its header; month from the vertical letters "SEPTEMBER" down the margin and the year 2026 printed alone`,
		`the time printed in the day's cell: "6:30 PM"`,
		"the cell's lines above its time, joined",
		"the cell's address lines (below its time, or above it from a street number on), joined",
		"the calendar's note on where committee meetings are held",
		"the document lists board meeting dates",
		"the agenda's heading", "the schedule's heading", "the heading naming the meeting dates", "the memo's note on its meetings",
		`the text: "Combined Public Hearings and Board Meetings"`,
		`a listed date; year from the heading "2026 Meeting Schedule"`,
		`a listed date; year from the document's own date "June 1, 2026"`,
		"a listed date; year from printed with the date; its weekday (TUESDAY) agrees",
		"a listed date; year from the year heading above the date in the same column; its weekday (Tuesday) agrees",
		"the time on the date's line",
		"the time on the line below the date",
		"the time the text states for its meetings (7:00 PM), applied to every listed date",
		"the text states no time for this date (none on its line, none for the meetings in general)",
		"\"Zoom Meeting\" beside the date (no link given)",
		"the text says the location is to be determined",
		"the address beside the date",
		"the address block beside the date",
		`the sentence "Meetings are held at 1 Main Street"`,
		"live stream",
		// indexer/source/meetings minutes.go
		"the minutes state no start time in their heading",
		`the start time the minutes state: "met at 6:30pm"`,
		`the minutes' heading: "TIME: 6:00 PM"`,
		`minutes of Manhattan Community Board 1 dated 2024-01-23 are held: https://x.test/m.pdf (the date read from the date the minutes give for the meeting: "January 23, 2024"; month and year agree with the link text "January 2024 Minutes")`,
		`minutes of Bronx Community Board 1 dated 2023-01-26 are held: https://x.test/m.pdf (the date read from the date at the top of the minutes: "January 26, 2023")`,
		`minutes of Manhattan Community Board 4 dated 2023-01-04 are held: https://x.test/m.pdf (the date read from the date at the top of the minutes: "January 4, 2023"; month and year agree with the link text "Jan 2023")`,
		"the board's minutes record the meeting",
		"the place is not read from minutes",
		"the minutes text carries no fetch date; the document is dated 2024-01-23",
		`Minutes: January 2024 Minutes`,
		"the date of the meeting whose minutes name the application",
		`minutes of Bronx Community Board 9 dated 2026-06-18 are held: https://x.test/m.pdf (the date read from the date the minutes give for the meeting: "June 18, 2026"); attached to this calendar entry of the same board and day`,
		"the board's minutes of that day record the meeting (https://x.test/m.pdf)",
		// indexer/link meeting.go
		"the meeting has no date to compare with notice event dates",
		"no City Record hearing notice with an event on 2026-08-18 is held; evidence too thin to say it was not noticed (a notice may exist outside the retained set)",
		"no City Record notices were readable when the meeting was linked; evidence too thin to say it was not noticed (a notice may exist outside the retained set)",
		"1 City Record hearing notice(s) with an event on 2026-08-18 are held; none names this body",
		"1 City Record hearing notice(s) with an event on 2026-08-18 are held; none names this body; notices of this body's agency are held on other days",
		"2 City Record hearing notice(s) with an event on 2026-08-18 are held; none names this body; but no City Record notice of this body's agency is held on any day, so the retained set cannot show whether it notices its meetings",
		"notice(s) 20260805038, 20260805039 name this body on the same day, but neither the time nor the place agrees; too thin to link or to rule out",
		"City Record notice 20260805038: same body, date",
		"City Record notice 20260805038: same body, date, time",
		"City Record notice 20260805038: same body, date, place",
		"City Record notice 20260805038: same body, date, time, place",
		// indexer/link meeting_land.go
		`Committee on Land Use on 2026-07-14: an agenda item ("Zoning, 164th Street Rezoning, Queens (C 250290 ZMQ)") names application C 250290 ZMQ, an action of land project 2024Q0164 (164th Street Rezoning)`,
		`Brooklyn Community Board 1 on 2026-07-14: its text ("the Bedford Avenue rezoning") names land project 2024K0001 (Bedford Avenue and the Rest)`,
	}
	return notes
}

// peopleNotes are the roster's, the payroll's and the civil-service
// lists' notes on the organization and person pages.
func peopleNotes() []string {
	notes := append([]string{
		people.CivilNote,
		// internal/people people.go (Release.AsOf, the lens's note)
		people.Release{Date: "2026-06-12", DateKind: people.DatePublished}.AsOf(),
		people.Release{Date: "2026-06-12", DateKind: people.DateFetched}.AsOf(),
		people.Release{}.AsOf(),
		"The feed follows the agency's Changes in Personnel notices (the people lens); a watch with the same lens and agency also follows the roster releases that change its leader, and a people search for the agency lists them (roster). A person is not matched by name: notices print names as the payroll system writes them.",
		// internal/people service.go (the answers a page shows instead)
		"this deployment's search engine holds no people or organization rows",
		"a person or organization id is required",
		"an id has at most 300 characters",
		`no person or organization row with id "NOPE" is held`,
		// internal/people leaders.go
		"No separate dossier exists for a person: this service keeps dossiers of vendors and agencies only. The person row is the record.",
		// indexer/source/leaders leaders.go
		"printed as the principal officer of this record as of 2026-06-12; not proof of who holds the role now",
		"free text as printed, not a record id",
		"only the derived first and last names are printed (middle initials and suffixes dropped)",
		`the roster prints the title "Commissioner" but no name (vacant or unpublished)`,
	}, people.SourceLimits...)
	return notes
}

// sourcesNotes are the sources report's notes as their writers compose
// them (api/sources.go, internal/record freshness.go, indexer/schedule.go,
// mailer/operator.go).
func sourcesNotes() []string {
	return []string{
		"A source is fresh when it was observed (its last good fetch) within its maximum age and its live fetch is not failing; stale past its maximum age; failing while its live fetch fails (the records held are the last good ones); never_loaded when nothing of it is held.",
		"A job is late when no run started within two of its intervals; a job that never ran says so and is not late (live fetching may be off).",
		"Receipts list each run's window, the rows read, written and rejected (with the first reasons), its start, finish and outcome.",
		"nothing of this source is held",
		"the live fetch fails; the records held are the last good ones",
		"held with no observation time: it may be out of date",
		"observed 2026-08-14, past its maximum age of 1h0m0s",
		"loaded from files (the bundled sample unless -source-dir was given) observed 2026-08-14; run live to fetch current rows",
		"loaded from files (the bundled sample unless -source-dir was given) observed at an unknown date; run live to fetch current rows",
		"never run in this deployment (live fetching off, or not started yet)",
		"no run since 2026-08-14T10:00:00Z: more than 2 intervals of 1h0m0s",
		"digest window 2026-11-27",
		"notice by day, 2026-08-13 to 2026-08-14",
		"every row (no checkpoint yet)",
		"rows updated since 2026-08-14T10:00:00Z (the checkpoint less a 1h0m0s overlap)",
		"the ZAP project and project-BBL tables, whole",
		"every Citywide Payroll row",
		"the whole governance roster",
		"meetings from 7 days ago to 60 days ahead",
	}
}

// Every fixed evidence sentence and note of the meetings, people and
// organization pages is said in Spanish, whole: what is left in English is
// only the record values the note carries (a body's name, a date, a quoted
// text), marked data-verbatim; in English the note is as written.
func TestMeetingAndPeopleNotesInSpanish(t *testing.T) {
	for _, en := range append(append(meetingNotes(), peopleNotes()...), sourcesNotes()...) {
		if got := recordNote("en", en); got != Plain("en", en) {
			t.Errorf("English changed: %q became %q", en, got)
		}
		sp := fmt.Sprint(recordNote("es", en))
		if _, listed := sayWhole(en, nil); sp == en && !listed { // "Video" is "Video"
			t.Errorf("no Spanish for %q", en)
			continue
		}
		left := verbatimSpanRe.ReplaceAllString(sp, " ")
		if w := englishLeftRe.FindAllString(left, -1); len(w) > 0 {
			t.Errorf("%q is said %q: English left outside record values %q", en, sp, w)
		}
	}
}

// A note said in Spanish keeps the record values it carries as published
// and marks them (a body's name, a quoted text, a project's name), escapes
// what the record holds, and leaves the site's words unmarked.
func TestRecordNoteMarksRecordValues(t *testing.T) {
	got := fmt.Sprint(recordNote("es", `Committee on Land Use on 2026-07-14: an agenda item ("A & B <c>") names application C 250290 ZMQ, an action of land project 2024Q0164 (164th Street Rezoning)`))
	for _, want := range []string{
		`<span data-verbatim>Committee on Land Use</span> el <span data-verbatim>2026</span>-<span data-verbatim>07</span>-<span data-verbatim>14</span>: un punto del orden del día (<span data-verbatim>&#34;A &amp; B &lt;c&gt;&#34;</span>)`,
		`nombra la solicitud <span data-verbatim>C 250290 ZMQ</span>, una acción del proyecto de uso del suelo <span data-verbatim>2024Q0164</span>`,
		`(<span data-verbatim>164th Street Rezoning</span>)`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("recordNote: %q lacks %q", got, want)
		}
	}
	// a phrase of the site's no list says is not marked: the plain-words
	// test still finds it
	if got := fmt.Sprint(recordNote("es", "held as recorded in Legistar: the quorum was present")); !strings.Contains(got, ": the quorum was present") {
		t.Errorf("an unlisted phrase is hidden: %q", got)
	}
	if got := recordNote("en", "read from the calendar text (see parsed_fields)"); got != "read from the calendar text (see the fields read below)" {
		t.Errorf("English: %q", got)
	}
}

// The machine values of these pages have their labels in both languages:
// the fields the meeting parsers read, the record types /stats lists, a
// civil-service list's dates and a roster value's states.
func TestMeetingAndPeopleLabels(t *testing.T) {
	for kind, values := range map[string][]string{
		// meeting.ParsedField.Field, as indexer/source/meetings calendar.go and minutes.go write them
		"parsed_field": {"body", "month", "date", "start", "name", "place", "attendance"},
		// the record types of the sample's record sets (search.Describe)
		"stats_record_type": {"notice", "exam", "land event", "land project", "list", "meeting", "organization", "person", "payment",
			"registered contract row", "tax lot location", "payroll payment (payments dataset transaction)", "payroll row (person, agency, title and fiscal year)"},
		// indexer/source/civillist DateLabel
		"civil_date":   {"application period starts", "filing starts", "list established"},
		"roster_state": {people.Published, people.Empty, people.Unknown},
		"time_filter":  meeting.TimeFilters,
		// record.ScopeType of the sources held, record's freshness states and receipt outcomes
		"source_record_type": {"notice", "land_event", "land_project", "meeting", "contract", "payment", "payroll", "exam", "list", "organization", "person", "lot"},
		"source_state":       {record.Fresh, record.Stale, record.Failing, record.NeverLoaded},
		"receipt_outcome":    {record.ReceiptOK, record.ReceiptFailed},
	} {
		for _, v := range values {
			if !HasLabel(kind, v) || Label("es", kind, v) == Label("en", kind, v) {
				t.Errorf("%s %q: no Spanish label", kind, v)
			}
		}
	}
	if Label("en", "stats_record_type", "payroll row (person, agency, title and fiscal year)") != "payroll row (person, agency, title and fiscal year)" {
		t.Error("the English record type changed")
	}
}
