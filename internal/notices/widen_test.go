package notices

import (
	"testing"

	"github.com/recordwatch/recordwatch/internal/record"
)

// Every constraint a notice search's widening may leave out is said from
// its key, in English as the step's words; the note's four shapes keep
// the English the search published before it was a note.
func TestEveryWideningStepIsSaid(t *testing.T) {
	for _, st := range widenings {
		k, ok := withoutKeys[st.Without]
		if n := (record.Note{Key: k}); !ok || n.String() != st.Words || n.In("es") == st.Words {
			t.Errorf("widening %q: key %q says %q / %q, its words %q", st.Without, k, n.String(), n.In("es"), st.Words)
		}
	}
	for _, c := range []struct {
		w    Widening
		want string
	}{
		{Widening{Matched: 12}, "Nothing matches this search in what is held; without the vendor it matches 12 notice(s)."},
		{Widening{Matched: 1200, Newest: "2026-08-14"}, "Nothing matches this search in what is held; without the vendor it matches 1,200 notice(s), the newest published 2026-08-14."},
		{Widening{Matched: 10000, MatchedRelation: record.CountAtLeast}, "Nothing matches this search in what is held; without the vendor it matches at least 10,000 notices."},
		{Widening{Matched: 10000, MatchedRelation: record.CountAtLeast, Newest: "2026-08-14"}, "Nothing matches this search in what is held; without the vendor it matches at least 10,000 notices, the newest published 2026-08-14."},
	} {
		w := c.w
		widenNote(widenings[5], &w)
		if w.Note != c.want || w.NoteKey.String() != c.want {
			t.Errorf("%q / %q, want %q", w.Note, w.NoteKey.String(), c.want)
		}
	}
}
