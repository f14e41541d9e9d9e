package meeting

import (
	"context"
	"regexp"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Application is a land-use application (ULURP) number or a ZAP project
// id that a meeting's agenda or text names, as the source wrote it: what
// the link stage joins the meeting to land projects by (indexer/link).
// The joins themselves are link records (LandProjects).
type Application struct {
	// Number is the application number as written ("N 260156 ZRQ") and
	// Key its normalized key (land.ULURPKey, "260156ZRQ"); ProjectID is a
	// ZAP project id named instead ("2022M0258").
	Number    string `json:"number,omitempty"`
	Key       string `json:"ulurp_key,omitempty"`
	ProjectID string `json:"project_id,omitempty"`
	// Where says what names it (WhereAgendaItem, WhereText) and Text the
	// words that do, at most MaxApplicationText bytes (those around it in
	// a longer text, "…" marking what is left out).
	Where string `json:"where"`
	Text  string `json:"text"`
}

// Where an application is named.
const (
	// WhereAgendaItem: an item of the meeting's published agenda (a
	// Legistar agenda item's title or matter name).
	WhereAgendaItem = "agenda_item"
	// WhereText: the meeting's free text (its title, a calendar line).
	WhereText = "text"
)

// Bounds of what a meeting keeps of the applications it names.
const (
	MaxApplications    = 100
	MaxApplicationText = 300
)

// Record keys of the applications a meeting names.
const (
	KeyULURP       = land.KeyULURP  // the ULURP keys named
	KeyLandProject = "land_project" // the ZAP project ids named
)

var projectIDInText = regexp.MustCompile(`\bP?[0-9]{4}[MXKQRY][0-9]{4}\b`)

// ApplicationsIn are the application numbers (land.ULURPNumbersIn) and
// ZAP project ids (land.CheckID) that text names, each once, with where.
// The whole text is read, however long (a City Planning hearing notice
// names dozens of applications, far from its start); each application
// keeps as its Text the words around where it is first named, at most
// MaxApplicationText bytes.
func ApplicationsIn(where, text string) []Application {
	text = strings.Join(strings.Fields(text), " ")
	up := strings.ToUpper(text)
	words := text // the words kept, at the offsets found
	if len(up) != len(text) {
		words = up // offsets are the upper-case text's (land.ULURPNumbersIn)
	}
	var out []Application
	for _, n := range land.ULURPNumbersIn(text) {
		out = append(out, Application{Number: n.Number, Key: n.Key, Where: where, Text: around(words, n.At)})
	}
	seen := map[string]bool{}
	for _, m := range projectIDInText.FindAllStringIndex(up, -1) {
		if id, err := land.CheckID(up[m[0]:m[1]]); err == nil && !seen[id] {
			seen[id] = true
			out = append(out, Application{ProjectID: id, Where: where, Text: around(words, m[0])})
		}
	}
	return out
}

// around is the words of text around byte offset at: the whole text when
// it is at most MaxApplicationText bytes, else a window of that many bytes
// that starts up to a third of it before at, cut at spaces where it can,
// with "…" where text goes on.
func around(text string, at int) string {
	if len(text) <= MaxApplicationText {
		return text
	}
	start := max(0, at-MaxApplicationText/3)
	end := min(len(text), start+MaxApplicationText)
	start = max(0, end-MaxApplicationText)
	if start > 0 {
		if i := strings.IndexByte(text[start:at], ' '); i >= 0 {
			start += i + 1
		}
	}
	if end < len(text) {
		if i := strings.LastIndexByte(text[at:end], ' '); i > 20 { // past the number itself
			end = at + i
		}
	}
	s := strings.ToValidUTF8(text[start:end], "")
	if start > 0 {
		s = "…" + s
	}
	if end < len(text) {
		s += "…"
	}
	return s
}

// AddApplications adds to m the applications not yet named, up to
// MaxApplications.
func (m *Meeting) AddApplications(as ...Application) {
	for _, a := range as {
		if len(m.Applications) >= MaxApplications {
			return
		}
		dup := false
		for _, b := range m.Applications {
			if b.Key == a.Key && b.ProjectID == a.ProjectID {
				dup = true
				break
			}
		}
		if !dup {
			m.Applications = append(m.Applications, a)
		}
	}
}

// MeetingHearings are the hearings of a land project that the meetings
// joined to it record (land.HearingReader): each meeting of links
// (meeting → land_project) with its body, date, time as the source states
// it, place, status (held; not held reads cancelled) and the join's
// method, confidence and evidence. A meeting no longer held is left out.
func (s *Service) MeetingHearings(ctx context.Context, links []record.Link) ([]land.Hearing, error) {
	rs, err := s.records()
	if err != nil || len(links) == 0 {
		return nil, err
	}
	ids := make([]string, 0, len(links))
	for _, l := range links {
		ids = append(ids, l.From.ID)
	}
	byID := map[string]Meeting{}
	for start := 0; start < len(ids); start += search.MaxKeyValues {
		p, err := search.Find(ctx, rs, Kind, search.RecordQuery{IDs: ids[start:min(start+search.MaxKeyValues, len(ids))], Sort: search.RecordSortID, Limit: search.MaxRecordLimit})
		if err != nil {
			return nil, err
		}
		for _, m := range p.Items {
			byID[m.ID] = m
		}
	}
	var out []land.Hearing
	for _, l := range links {
		m, ok := byID[l.From.ID]
		if !ok {
			continue
		}
		h := land.Hearing{ID: "meeting:" + m.ID, Body: m.Body, Title: m.Title, Place: m.Place.Text, Status: land.HearingScheduled,
			Source: m.SourceLabel, SourceKind: record.RefMeeting, SourceID: m.ID, URL: m.SourceURL,
			LinkMethod: l.Method, LinkConfidence: l.Confidence, Evidence: []string{l.Evidence}}
		if l.EvidenceKey != nil {
			h.EvidenceKeys = record.Notes{l.EvidenceKey.Clone()}
		}
		switch { // the day is the source's (When.Date); a start only when the source states one
		case m.When.Start != nil && m.When.StartKnown:
			h.SetStart(*m.When.Start, true)
		case m.When.Date != "":
			if d, err := time.ParseInLocation("2006-01-02", m.When.Date, record.NewYork); err == nil {
				h.SetStart(d, false)
			}
		}
		switch m.Held.State {
		case Held:
			h.Status = land.HearingHeld
		case NotHeld:
			h.Status = land.HearingCancelled
		}
		if m.Notice.State == NoticeLinked && m.Notice.RequestID != "" { // the hearing a City Record notice announces
			h.ID, h.Notice = "notice:"+m.Notice.RequestID, m.Notice.RequestID
		}
		out = append(out, h)
	}
	return out, nil
}
