package record

import (
	"context"
	"fmt"
)

// Widening is the nearest non-empty answer to an empty one (issue 49, item
// 4): the same question without one of its constraints, tried in a fixed
// order, and how many records that holds. It is given only when the
// answer is empty and one constraint less matches something; it never
// stands for the empty answer's type, which the scope keeps.
type Widening struct {
	// Without names the constraint left out (each list documents its
	// own: due, published, agency… for notices; time, attendance, body,
	// window… for meetings; status, stage, borough… for land projects).
	Without string `json:"without"`
	// Matched counts the records the question matches without it (a
	// lower bound when matched_relation is gte).
	Matched         int    `json:"matched"`
	MatchedRelation string `json:"matched_relation,omitempty"`
	// Newest is the newest day among them (New York): a notice's
	// publication, a project's last milestone, a meeting's date.
	Newest string `json:"newest,omitempty"`
	// Nearest is, for a widening of a date window (without "window"),
	// the day of the matching record nearest the window.
	Nearest string `json:"nearest,omitempty"`
	Note    string `json:"note"`
	// NoteKey is note as a note (key and arguments), when the list says
	// its widening as one (WidenSaid): a page says it in the reader's
	// language.
	NoteKey Note `json:"note_key,omitzero"`
}

// WideningStep is one constraint a widening may leave out: its name, how
// the note says it ("without the body"), and the question without it (ok
// false when the question does not have it).
type WideningStep[Q any] struct {
	Without string
	Words   string
	Drop    func(Q) (Q, bool)
}

// Drop is the widening step that leaves out one field of a question (had
// says whether the question has it: a value set, a list not empty).
func Drop[Q, V any](without, words string, field func(*Q) *V, had func(V) bool) WideningStep[Q] {
	return WideningStep[Q]{Without: without, Words: words, Drop: func(q Q) (Q, bool) {
		v := field(&q)
		has := had(*v)
		var zero V
		*v = zero
		return q, has
	}}
}

// Set and Listed say whether a string or a list field is set (Drop).
func Set(s string) bool       { return s != "" }
func Listed(vs []string) bool { return len(vs) > 0 }

// WideningCount is what one try of a widening finds: how many records
// match (a lower bound when AtLeast), the newest day among them and, for
// a window, the nearest day.
type WideningCount struct {
	Matched         int
	AtLeast         bool
	Newest, Nearest string
}

// MaxWidenings bounds the searches one empty answer spends on its
// widening (one per constraint the question has, at most this many).
const MaxWidenings = 4

// Widen is the widening of an empty answer to q: each step q has, in
// order, at most MaxWidenings of them, counted by count (one bounded
// search each); the first that matches something, said in a note
// ("Nothing matches … in what is held; without the body it matches 12
// meeting(s), the newest on …"). nil when none does. noun names the
// records ("meeting(s)", "land project(s)").
func Widen[Q any](ctx context.Context, q Q, steps []WideningStep[Q], noun string, count func(context.Context, Q) (WideningCount, error)) (*Widening, error) {
	return WidenSaid(ctx, q, steps, count, func(st WideningStep[Q], w *Widening) {
		at := ""
		if w.MatchedRelation == CountAtLeast {
			at = "at least "
		}
		w.Note = fmt.Sprintf("Nothing matches this question in what is held; %s it matches %s%s %s", st.Words, at, Thousands(w.Matched), noun)
		switch {
		case w.Nearest != "":
			w.Note += ", the nearest on " + w.Nearest
		case w.Newest != "":
			w.Note += ", the newest on " + w.Newest
		}
		w.Note += "."
	})
}

// WidenSaid is Widen with the widening's note said by say (which sets
// Note, and NoteKey when the list says it as a note) from the step that
// matched and what it found.
func WidenSaid[Q any](ctx context.Context, q Q, steps []WideningStep[Q], count func(context.Context, Q) (WideningCount, error), say func(WideningStep[Q], *Widening)) (*Widening, error) {
	tries := 0
	for _, st := range steps {
		wq, ok := st.Drop(q)
		if !ok {
			continue
		}
		if tries++; tries > MaxWidenings {
			break
		}
		c, err := count(ctx, wq)
		if err != nil {
			return nil, err
		}
		if c.Matched == 0 {
			continue
		}
		out := &Widening{Without: st.Without, Matched: c.Matched, Newest: c.Newest, Nearest: c.Nearest}
		if c.AtLeast {
			out.MatchedRelation = CountAtLeast
		}
		say(st, out)
		return out, nil
	}
	return nil, nil
}
