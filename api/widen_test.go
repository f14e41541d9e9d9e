package api

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/api/web"
	"github.com/recordwatch/recordwatch/internal/record"
)

// An empty answer helps (issue 49, item 4): the open solicitations of an
// agency with none open say why (the scope's typed empty answer) and what
// the same search holds without its due-date window, counted as the
// search without it counts; the feed of the same question says both in
// itself.
func TestEmptyAnswerOffersTheNearestWidening(t *testing.T) {
	const q = "lens=money&agency=design-and-construction"
	var open struct {
		Total int `json:"total"`
		Scope struct {
			Empty *struct{ Type, Note string } `json:"empty"`
		} `json:"scope"`
		Widening *struct {
			Without string `json:"without"`
			Matched int    `json:"matched"`
			Note    string `json:"note"`
		} `json:"widening"`
	}
	_, b := get(t, shared, "/api/search?open=true&"+q)
	if err := json.Unmarshal(b, &open); err != nil {
		t.Fatal(err)
	}
	var all struct {
		Total int `json:"total"`
	}
	// open is the one rule of watch.Open: solicitations due today or later;
	// without its due-date window, the solicitations of the search
	_, b2 := get(t, shared, "/api/search?exact_count=true&type=Solicitation&"+q)
	if err := json.Unmarshal(b2, &all); err != nil {
		t.Fatal(err)
	}
	if open.Total != 0 || open.Scope.Empty == nil || open.Scope.Empty.Note == "" {
		t.Fatalf("open solicitations: total %d, empty %+v: the test needs an empty answer that says why", open.Total, open.Scope.Empty)
	}
	if all.Total == 0 || open.Widening == nil || open.Widening.Without != "due" || open.Widening.Matched != all.Total ||
		!strings.Contains(open.Widening.Note, "without the due-date window") {
		t.Errorf("widening %+v, want due with the %d notices the search holds without it", open.Widening, all.Total)
	}
	// a search that holds something offers no widening
	if strings.Contains(string(b2), `"widening"`) {
		t.Errorf("a non-empty answer carries a widening: %.300s", b2)
	}

	var f struct {
		Description string            `json:"description"`
		Items       []json.RawMessage `json:"items"`
		Scope       struct {
			AbsenceNote string `json:"absence_note"`
			Widening    string `json:"widening"`
		} `json:"_recordwatch"`
	}
	// the money lens's feed is its open solicitations
	_, fb := get(t, shared, "/feed.json?"+q)
	if err := json.Unmarshal(fb, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Items) != 0 || f.Scope.Widening != open.Widening.Note || !strings.Contains(f.Description, f.Scope.AbsenceNote) ||
		!strings.Contains(f.Description, open.Widening.Note) {
		t.Errorf("empty feed: %d items, widening %q, description %q", len(f.Items), f.Scope.Widening, f.Description)
	}
	if _, xb := get(t, shared, "/feed.xml?"+q); !strings.Contains(string(xb), "without the due-date window") {
		t.Errorf("the Atom feed does not say what the search holds without its window: %.400s", xb)
	}
}

// The notice search's widening is the shared rule's (record.Widening) and
// is published as a note beside its English (note_key): the search page
// says it from the key in the reader's language (the word script serves
// its keys), the API, MCP and the feeds keep the English note as before.
func TestNoticeWideningIsANote(t *testing.T) {
	var open struct {
		Widening *struct {
			Without string      `json:"without"`
			Matched int         `json:"matched"`
			Newest  string      `json:"newest"`
			Note    string      `json:"note"`
			NoteKey record.Note `json:"note_key"`
		} `json:"widening"`
	}
	_, b := get(t, shared, "/api/search?open=true&lens=money&agency=design-and-construction")
	if err := json.Unmarshal(b, &open); err != nil || open.Widening == nil {
		t.Fatalf("no widening: %v %.300s", err, b)
	}
	w := open.Widening
	want := "Nothing matches this search in what is held; without the due-date window (closed solicitations included) it matches " +
		record.Thousands(w.Matched) + " notice(s)"
	if w.Newest != "" {
		want += ", the newest published " + w.Newest
	}
	if want += "."; w.Note != want || w.NoteKey.String() != w.Note {
		t.Errorf("the widening's note %q (its key says %q), want %q", w.Note, w.NoteKey.String(), want)
	}
	es := web.NoteIn("es", w.NoteKey)
	if !strings.Contains(es, "sin el plazo de vencimiento") || !strings.Contains(es, record.Thousands(w.Matched)+" aviso(s)") ||
		strings.Contains(es, "without") || strings.Contains(es, "matches") {
		t.Errorf("the widening in Spanish: %q", es)
	}
	// the Spanish word script holds every key the note is said with
	script := string(web.Script("es"))
	keys := []string{w.NoteKey.Key}
	for _, p := range w.NoteKey.Inner {
		keys = append(keys, p.Key)
	}
	for _, k := range keys {
		if !strings.Contains(script, `"`+k+`"`) {
			t.Errorf("the word script lacks %s: the search page cannot say the widening in Spanish", k)
		}
	}
}
