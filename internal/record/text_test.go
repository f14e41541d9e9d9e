package record

import (
	"strings"
	"testing"
)

// PassageAt renders a passage from its place alone as SplitPassages cut
// it, for plain and HTML bodies with entities, several paragraphs and
// non-ASCII runes; a paragraph SplitPassages cut at a space inside it is
// the case it may not render alike (callers compare before relying on
// it); a place outside the body renders nothing.
func TestPassageAt(t *testing.T) {
	long := strings.Repeat("The contractor shall provide café services, à la carte. ", 40)
	bodies := []string{
		"NOTICE IS HEREBY GIVEN that a hearing will be held.\r\n\r\nThe hearing is on the budget &amp; the plan of the Department.",
		"<p>Public <strong>hearing</strong> on the <u>zoning</u> map</p><p>Borough of Queens &ndash; Community District 7</p>" + strings.Repeat("<p>Item of the calendar, with words enough to fill a passage of its own.</p>", 30),
		strings.Repeat("Paragraph of a notice, in plain words, about a contract awarded to a vendor.\n\n", 40),
		long + "\n\n" + long,
	}
	same, all := 0, 0
	for i, body := range bodies {
		for _, p := range SplitPassages("x", body) {
			all++
			got := PassageAt(body, p.Start, p.End)
			if got == p.Text {
				same++
			} else if i != 3 {
				t.Errorf("body %d passage %d: PassageAt\n%q\nwant\n%q", i, p.Seq, got, p.Text)
			}
		}
	}
	if same < all-4 || all < 10 {
		t.Errorf("%d of %d passages render alike from their place", same, all)
	}
	n := len([]rune(bodies[0]))
	for _, r := range [][2]int{{-1, 5}, {5, 5}, {6, 2}, {n + 1, n + 5}} {
		if got := PassageAt(bodies[0], r[0], r[1]); got != "" {
			t.Errorf("PassageAt(%d, %d) = %q, want nothing", r[0], r[1], got)
		}
	}
	if got := PassageAt(bodies[0], 0, n); got == "" {
		t.Error("the whole body rendered nothing")
	}
}
