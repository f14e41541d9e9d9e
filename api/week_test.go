package api

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/notices"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// The previous working day of the New York calendar: Monday's is Friday.
func TestWeekPreviousWorkingDay(t *testing.T) {
	for day, want := range map[string]string{"2026-12-07": "2026-12-04", "2026-12-06": "2026-12-04", "2026-12-05": "2026-12-04",
		"2026-12-08": "2026-12-07", "2026-08-14": "2026-08-13"} {
		d, _ := time.ParseInLocation("2006-01-02", day, record.NewYork)
		if got := notices.PreviousWorkingDay(d.Add(23 * time.Hour)).Format("2006-01-02"); got != want {
			t.Errorf("%s: %s, want %s", day, got, want)
		}
	}
}

// This week on the bundled sample at the tests' fixed clock: each list's
// total is the total of its full search (/api/search, /api/meetings), the
// JSON twin is the service's answer, an empty list says why, and the home
// page shows the three lists' headings and links in both languages.
func TestWeekHome(t *testing.T) {
	e := newEntityEnv(t, Config{})
	w, err := e.srv.deps.Notices.Week(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if w.Today != "2026-08-14" || w.Since != "2026-08-13" || len(w.Lists) != 3 {
		t.Fatalf("week: %+v", w)
	}
	nonEmpty := 0
	for _, l := range w.Lists {
		var total int
		switch l.Key {
		case notices.WeekMeetings:
			var pg meeting.Page
			res, body := get(t, e, "/api/meetings?"+l.Query)
			if res.StatusCode != http.StatusOK || json.Unmarshal(body, &pg) != nil {
				t.Fatalf("%s: %d %s", l.Query, res.StatusCode, body)
			}
			total = pg.Total
			if len(l.Meetings) != min(total, notices.WeekLimit) {
				t.Errorf("meetings: %d listed of %d", len(l.Meetings), total)
			}
		default:
			var sr search.Result
			res, body := get(t, e, "/api/search?"+l.Query)
			if res.StatusCode != http.StatusOK || json.Unmarshal(body, &sr) != nil {
				t.Fatalf("%s: %d %s", l.Query, res.StatusCode, body)
			}
			total = sr.Total
			if len(l.Notices) != min(total, notices.WeekLimit) {
				t.Errorf("%s: %d listed of %d", l.Key, len(l.Notices), total)
			}
		}
		if l.Total != total {
			t.Errorf("%s: total %d, full search %d", l.Key, l.Total, total)
		}
		if total == 0 && (l.Scope.Empty == nil || l.Scope.Empty.Type == "") {
			t.Errorf("%s: empty without its absence: %+v", l.Key, l.Scope)
		}
		if total == 0 && l.NewestHeld == "" {
			t.Errorf("%s: empty without the newest held", l.Key)
		}
		if total > 0 {
			nonEmpty++
		}
	}

	res, body := get(t, e, "/api/week")
	var got notices.Week
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &got) != nil {
		t.Fatalf("/api/week: %d %s", res.StatusCode, body)
	}
	a, _ := json.Marshal(w)
	b, _ := json.Marshal(got)
	if string(a) != string(b) {
		t.Errorf("/api/week differs from the service's answer:\n%s\n%s", b, a)
	}
	var links WeekResponse
	json.Unmarshal(body, &links)
	for _, k := range []string{notices.WeekPublished, notices.WeekDue, notices.WeekMeetings} {
		if links.Links[k].View == "" || links.Links[k].JSON == "" {
			t.Errorf("%s: links %+v", k, links.Links[k])
		}
	}

	for lang, heads := range map[string][]string{
		"en": {"This week", "Published since 2026-08-13", "Due in the next 7 days", "Hearings and meetings in the next 7 days", "in the full search"},
		"es": {"Esta semana", "Publicado desde el 2026-08-13", "Vencen en los próximos 7 días", "Audiencias y reuniones en los próximos 7 días", "en la búsqueda completa"},
	} {
		res, body := get(t, e, "/?lang="+lang)
		html := string(body)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("home %s: %d", lang, res.StatusCode)
		}
		for _, h := range heads {
			if !strings.Contains(html, h) {
				t.Errorf("home %s lacks %q", lang, h)
			}
		}
		for _, l := range w.Lists {
			want := []string{`data-week="` + l.Key + `" data-total="` + strconv.Itoa(l.Total) + `"`}
			q := strings.ReplaceAll(l.Query, "&", "&amp;")
			if l.Key == notices.WeekMeetings {
				want = append(want, "/meetings?from="+l.From, "/meetings.ics?"+q)
			} else {
				want = append(want, "#search?"+q)
			}
			if l.Key == notices.WeekDue {
				if links.Links[l.Key].Feed == "" {
					t.Errorf("due: no feed on Form 1")
				}
				want = append(want, strings.ReplaceAll(strings.TrimPrefix(links.Links[l.Key].Feed, e.srv.cfg.BaseURL), "&", "&amp;"))
			}
			for _, s := range want {
				if !strings.Contains(html, s) {
					t.Errorf("home %s: list %s lacks %s", lang, l.Key, s)
				}
			}
		}
		if strings.Count(html, "<li><a") > 3*notices.WeekLimit+40 {
			t.Errorf("home %s: lists too long", lang)
		}
	}
	t.Logf("%d of 3 lists non-empty on the sample", nonEmpty)
}

// Where the sample holds nothing in the week (today after its data), each
// list is empty and says why (the typed absence) and what is newest held,
// on the home page too.
func TestWeekEmptySaysWhy(t *testing.T) {
	e := newEntityEnv(t, Config{})
	later := time.Date(2026, 12, 7, 9, 0, 0, 0, record.NewYork) // a Monday
	s := newServer(e.srv.cfg, Deps{Search: e.be, Store: e.st, Crosswalk: e.srv.deps.Crosswalk, Now: func() time.Time { return later }})
	w, err := s.deps.Notices.Week(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if w.Since != "2026-12-04" {
		t.Errorf("since %s, want the Friday before", w.Since)
	}
	empty := 0
	for _, l := range w.Lists {
		if l.Key == notices.WeekMeetings && l.Total > 0 {
			continue // the sample holds meetings scheduled this late
		}
		empty++
		if l.Total != 0 || l.Scope.Empty == nil || l.Scope.Empty.Type == "" || l.NewestHeld == "" || l.NewestHeld >= w.Today {
			t.Errorf("%s: total %d, empty %+v, newest held %q", l.Key, l.Total, l.Scope.Empty, l.NewestHeld)
		}
	}
	ts := httptest.NewServer(s)
	defer ts.Close()
	res, err := http.Get(ts.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	html := string(body)
	if empty < 2 {
		t.Fatalf("%d empty lists, want the notices' two", empty)
	}
	for _, l := range w.Lists {
		if l.Total > 0 {
			continue
		}
		if !strings.Contains(html, `data-absence="`+l.Scope.Empty.Type+`"`) || !strings.Contains(html, "Newest held: "+l.NewestHeld) {
			t.Errorf("home: list %s does not say why it is empty", l.Key)
		}
	}
}

// Form 2 serves no meeting records: the week's meetings list says so and
// links nowhere; the notices' lists are served as on Form 1.
func TestWeekForm2(t *testing.T) {
	e := newEntityEnv(t, Config{Form: 2})
	var got WeekResponse
	res, body := get(t, e, "/api/week")
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &got) != nil || len(got.Lists) != 3 {
		t.Fatalf("/api/week: %d %s", res.StatusCode, body)
	}
	for _, l := range got.Lists {
		_, linked := got.Links[l.Key]
		if (l.Key == notices.WeekMeetings) != (l.Unavailable != "") || linked == (l.Key == notices.WeekMeetings) {
			t.Errorf("%s: unavailable %q, linked %v", l.Key, l.Unavailable, linked)
		}
	}
	if _, body := get(t, e, "/"); !strings.Contains(string(body), "Meetings are not listed on this site.") {
		t.Errorf("home: the meetings list does not say it is not served")
	}
}
