package api

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/record"
)

// watchNoteEnglish are English words of the watch's scope and notes: none may
// be left in their Spanish once the arguments (record values, the
// requester's own words) are set aside.
var watchNoteEnglish = regexp.MustCompile(`\b(the|and|from|of at least|of at most|mentioning|naming|records?|notices?|awards?|Kind of record|you said|digests?|daily|weekly|Procurement|followed|category|amount|due|published|within|Monday)\b`)

var quoted = regexp.MustCompile(`"[^"]*"`)

// A Spanish reader who previews or creates a watch reads its scope and
// how its words were read in Spanish: the answer's scope_key and
// note_keys say in English exactly its scope and notes, and in Spanish,
// from keys both message files hold, no English is left.
func TestWatchPreviewInSpanish(t *testing.T) {
	type understood struct {
		Scope    string       `json:"scope"`
		ScopeKey record.Note  `json:"scope_key"`
		Notes    []string     `json:"notes"`
		NoteKeys record.Notes `json:"note_keys"`
	}
	all := record.Locales()
	check := func(where string, u understood, notes bool) {
		t.Helper()
		if u.ScopeKey.IsZero() || u.ScopeKey.String() != u.Scope {
			t.Errorf("%s: scope_key says %q, scope %q", where, u.ScopeKey.String(), u.Scope)
		}
		if len(u.NoteKeys) == 0 && notes || len(u.NoteKeys) != len(u.Notes) {
			t.Fatalf("%s: %d note keys for %d notes", where, len(u.NoteKeys), len(u.Notes))
		}
		for i, n := range append(record.Notes{u.ScopeKey}, u.NoteKeys...) {
			if i > 0 && n.String() != u.Notes[i-1] {
				t.Errorf("%s: note %s says %q, notes %q", where, n.Key, n.String(), u.Notes[i-1])
			}
			var keys []string
			var walk func(n record.Note)
			walk = func(n record.Note) {
				keys = append(keys, n.Key)
				for _, p := range n.Inner {
					walk(p.Note())
				}
			}
			walk(n)
			for _, k := range keys {
				if all["en"].Notes[k] == "" || all["es"].Notes[k] == "" {
					t.Errorf("%s: note %s is not in both message files", where, k)
				}
			}
			// the words the parser reads ("weekly", "awards") are quoted as said
			bare := quoted.ReplaceAllString(record.SayNote(all, "es", n, func(string) string { return "·" }), "·")
			if strings.Contains(bare, "[[") || watchNoteEnglish.MatchString(bare) {
				t.Errorf("%s: %s in Spanish leaves English: %q", where, n.Key, bare)
			}
		}
	}
	for _, form := range []int{1, 2} {
		e := newWatchEnv(t, form, nil)
		for _, text := range []string{
			"construction awards over $100k from Parks in Brooklyn",
			"M/WBE goods bids due in the next 3 months from DOT, not snow removal",
			"weekly hearings this year about bike lanes",
		} {
			body, _ := json.Marshal(map[string]string{"text": text})
			res, out := httpDo(t, "POST", e.ts.URL+"/api/watches/preview", "application/json", string(body))
			if res.StatusCode != 200 {
				t.Fatalf("form %d preview %q: %d %s", form, text, res.StatusCode, out)
			}
			var v struct {
				Understood understood `json:"understood"`
			}
			if err := json.Unmarshal([]byte(out), &v); err != nil {
				t.Fatal(err)
			}
			check("preview "+text, v.Understood, true)
		}
		body, _ := json.Marshal(map[string]any{"email": "lector@example.com", "text": "construction awards over $100k from Parks or DOT"})
		if form == 1 { // Form 1 creates from the fields
			body, _ = json.Marshal(map[string]any{"email": "lector@example.com", "lens": "money", "agency": []string{"Parks", "DOT"}, "min": "100k",
				"category": []string{"construction"}, "awards": true})
		}
		res, out := httpDo(t, "POST", e.ts.URL+"/api/watches", "application/json", string(body))
		if res.StatusCode != 202 && res.StatusCode != 201 {
			t.Fatalf("form %d create: %d %s", form, res.StatusCode, out)
		}
		var c struct {
			Understood understood `json:"understood"`
		}
		if err := json.Unmarshal([]byte(out), &c); err != nil {
			t.Fatal(err)
		}
		check("create", c.Understood, form == 2) // a structured watch (Form 1's) has no words read
		if form == 1 {
			continue // a structured watch from the site is active at once
		}
		// the mail keeps the English; the confirmation pages opened in
		// Spanish say the scope in Spanish, its record values verbatim
		mail := readMail(t, e.outboxFiles("confirm.")[0]).Text
		if !strings.Contains(flat(mail), c.Understood.Scope) {
			t.Errorf("form %d: the confirmation mail does not state the English scope %q:\n%s", form, c.Understood.Scope, mail)
		}
		link := linkWith(t, mail, "/confirm/") + "?lang=es"
		for _, method := range []string{"GET", "POST"} {
			res, page := httpDo(t, method, link, "", "")
			if res.StatusCode != 200 || !strings.Contains(page, "Adjudicaciones de contratos e intenciones de adjudicar de <span data-verbatim>") ||
				strings.Contains(page, c.Understood.Scope) {
				t.Errorf("form %d: %s confirm in Spanish: %d\n%s", form, method, res.StatusCode, page)
			}
		}
		if es := c.Understood.ScopeKey.In("es"); !strings.HasPrefix(es, "Adjudicaciones de contratos e intenciones de adjudicar de ") ||
			!strings.Contains(es, " o ") || !strings.Contains(es, ", de al menos $100,000") {
			t.Errorf("form %d: the scope in Spanish: %q", form, es)
		}
	}
}

// A watch refused for its input says why in the reader's language: each
// error carries its note (message_key), whose English is the message and
// which both message files hold; the word script serves it to the watch
// form (ScriptNote), which says it from the key.
func TestWatchErrorsInSpanish(t *testing.T) {
	e := newWatchEnv(t, 1, nil)
	for _, c := range []struct{ path, body, key string }{
		{"/api/watches/preview", `{"text": "   "}`, "watch.error.needs_lens"},
		{"/api/watches/preview", `{"text": "awards", "lens": "money"}`, "watch.error.text_or_filter"},
		{"/api/watches/preview", `{"lens": "money", "min": 500, "max": 100}`, "watch.error.max_below_min"},
		{"/api/watches/preview", `{"lens": "money", "borough": ["Atlantis"]}`, "watch.error.borough"},
		{"/api/watches/preview", `{"lens": "meetings", "category": ["goods"]}`, "watch.error.category_money"},
		{"/api/watches/preview", `{"text": "weekly"}`, "watch.error.nothing"},
		{"/api/watches/preview", `{"email": "a@example.org", "text": "construction awards"}`, "watch.error.preview_email"},
		{"/api/watches", `{"email": "not an address", "lens": "money"}`, "watch.error.email"},
		{"/api/watches", `{"email": "a@example.org", "lens": "money", "cadence": "hourly"}`, "watch.error.cadence"},
	} {
		res, out := httpDo(t, "POST", e.ts.URL+c.path, "application/json", c.body)
		keyedError(t, c.path+" "+c.body, res, []byte(out), c.key)
	}
}
