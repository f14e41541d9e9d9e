package api

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/meeting"
)

// The JSON twins, the meeting page, the calendar and the feed of the
// meetings lens on the bundled sample.
func TestMeetingsLens(t *testing.T) {
	e := newEntityEnv(t, Config{})

	res, body := get(t, e, "/api/meetings/legistar:22525")
	var one MeetingView
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &one) != nil || one.Meeting.Held.State != meeting.NotHeld {
		t.Fatalf("GET meeting: %d %s", res.StatusCode, body)
	}
	var pretty bytes.Buffer
	json.Indent(&pretty, body, "", "  ")
	golden(t, "meeting_legistar_22525.json", pretty.Bytes())

	if res, body := get(t, e, "/api/meetings/legistar:1"); res.StatusCode != http.StatusNotFound {
		t.Errorf("unknown meeting: %d %s", res.StatusCode, body)
	}
	for _, bad := range []string{"/api/meetings?time=night", "/api/meetings?when=evening", "/api/meetings?from=2026-01-01&to=2027-06-01", "/api/meetings?from=yesterday", "/meetings.ics?source=twitter"} {
		if res, body := get(t, e, bad); res.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: %d %s", bad, res.StatusCode, body)
		}
	}

	var page meeting.Page
	res, body = get(t, e, "/api/meetings?from=2026-09-01&to=2026-09-30&time=evening&limit=5")
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &page) != nil || len(page.Meetings) != 5 || page.NextCursor == "" || page.ExcludedUnknownStart.Count == 0 {
		t.Fatalf("browse: %d %s", res.StatusCode, body)
	}

	res, body = get(t, e, "/meetings/legistar:22632")
	html := string(body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("meeting page: %d", res.StatusCode)
	}
	for _, want := range []string{`data-fact="held" data-state="held"><strong>Held</strong>`, `data-fact="minutes" data-state="published"><strong>Published</strong>`,
		`data-fact="notice" data-state="not_linked"><strong>Not linked</strong>`, `data-fact="observed"><strong>2026-08-19</strong>`} {
		if !strings.Contains(html, want) {
			t.Errorf("meeting page lacks %s", want)
		}
	}
	if res, _ := get(t, e, "/meetings/legistar:1"); res.StatusCode != http.StatusNotFound {
		t.Errorf("unknown meeting page: %d", res.StatusCode)
	}

	res, body = get(t, e, "/meetings?from=2026-09-01&to=2026-09-30&time=evening")
	if res.StatusCode != http.StatusOK || !strings.Contains(string(body), "Tuesday 2026-09-01") || !strings.Contains(string(body), "Excluded: start unknown") {
		t.Errorf("calendar page: %d %s", res.StatusCode, body)
	}

	var all meeting.Page
	_, body = get(t, e, "/api/meetings?from=2026-08-01&to=2026-12-31&limit=100")
	if json.Unmarshal(body, &all) != nil || all.Total == 0 {
		t.Fatalf("window: %s", body)
	}
	dated := all.Total
	for all.NextCursor != "" {
		_, body = get(t, e, "/api/meetings?from=2026-08-01&to=2026-12-31&limit=100&cursor="+all.NextCursor)
		all = meeting.Page{}
		json.Unmarshal(body, &all)
	}
	res, ics := get(t, e, "/meetings.ics?from=2026-08-01&to=2026-12-31")
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/calendar") {
		t.Fatalf("ics: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	if n := validateICS(t, ics); n != dated {
		t.Errorf("%d VEVENTs, want one per dated meeting (%d)", n, dated)
	}
	if !bytes.Contains(ics, []byte("DTSTART;TZID=America/New_York:20260818T130000")) || !bytes.Contains(ics, []byte("DTSTART;VALUE=DATE:20260909")) {
		t.Error("ics lacks a timed Council event or the all-day Queens CB8 meeting (start unknown)")
	}
	if py, err := exec.LookPath("/usr/bin/python3"); err == nil && exec.Command(py, "-c", "import icalendar").Run() == nil {
		cmd := exec.Command(py, "-c", "import sys, icalendar; c = icalendar.Calendar.from_ical(sys.stdin.buffer.read()); print(len(c.walk('VEVENT')))")
		cmd.Stdin = bytes.NewReader(ics)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("python icalendar refuses the feed: %v %s", err, out)
		}
	}
}

// validateICS checks the RFC 5545 structure the feed must have (CRLF
// lines of at most 75 octets, balanced components, the properties every
// VEVENT needs, a VTIMEZONE for the TZID used) and returns the VEVENTs.
func validateICS(t *testing.T, ics []byte) int {
	t.Helper()
	if !bytes.HasSuffix(ics, []byte("\r\n")) {
		t.Error("ics does not end in CRLF")
	}
	raw := strings.Split(strings.TrimSuffix(string(ics), "\r\n"), "\r\n")
	var lines []string
	for i, l := range raw {
		if len(l) > 75 {
			t.Errorf("line %d is %d octets", i+1, len(l))
		}
		if strings.ContainsAny(l, "\r\n") {
			t.Errorf("line %d holds a bare line break", i+1)
		}
		if strings.HasPrefix(l, " ") && len(lines) > 0 {
			lines[len(lines)-1] += l[1:]
			continue
		}
		lines = append(lines, l)
	}
	if lines[0] != "BEGIN:VCALENDAR" || lines[len(lines)-1] != "END:VCALENDAR" {
		t.Fatal("not a VCALENDAR")
	}
	nameRE := regexp.MustCompile(`^[A-Z][A-Z0-9-]*[;:]`)
	var stack []string
	events := 0
	var props map[string]bool
	uids := map[string]bool{}
	tzDefined := false
	for i, l := range lines {
		if !nameRE.MatchString(l) {
			t.Errorf("line %d is not a content line: %q", i+1, l)
		}
		switch {
		case strings.HasPrefix(l, "BEGIN:"):
			stack = append(stack, l[6:])
			if l == "BEGIN:VEVENT" {
				props = map[string]bool{}
			}
			if l == "BEGIN:VTIMEZONE" {
				tzDefined = true
			}
		case strings.HasPrefix(l, "END:"):
			if len(stack) == 0 || stack[len(stack)-1] != l[4:] {
				t.Fatalf("line %d: %s does not close %v", i+1, l, stack)
			}
			stack = stack[:len(stack)-1]
			if l == "END:VEVENT" {
				events++
				for _, p := range []string{"UID", "DTSTAMP", "DTSTART", "SUMMARY"} {
					if !props[p] {
						t.Errorf("VEVENT %d lacks %s", events, p)
					}
				}
			}
		default:
			if props != nil && len(stack) > 0 && stack[len(stack)-1] == "VEVENT" {
				name := nameRE.FindString(l)
				props[name[:len(name)-1]] = true
				if strings.HasPrefix(l, "UID:") {
					if uids[l] {
						t.Errorf("duplicate %s", l)
					}
					uids[l] = true
				}
				if strings.HasPrefix(l, "DTSTART;TZID=") && !tzDefined {
					t.Error("a TZID is used before its VTIMEZONE")
				}
			}
		}
	}
	if len(stack) != 0 {
		t.Errorf("unclosed components %v", stack)
	}
	return events
}
