package joins_test

import (
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/joins"
)

// Every bound note says in English what BoundNote says of the joins it
// names, and in Spanish the message file's words with the bound.
func TestBoundNotesSayTheBound(t *testing.T) {
	for key, what := range map[string]string{
		joins.BoundMeetingLand:    "land project joins of this meeting",
		joins.BoundMatterLinks:    "links of this PIN group",
		joins.BoundMatterPayments: "payment links of these registrations",
	} {
		n := joins.Bound(key, 7)
		if got, want := n.String(), joins.BoundNote(what, 7); got != want {
			t.Errorf("%s in English: %q, want %q", key, got, want)
		}
		if es := n.In("es"); !strings.HasPrefix(es, "Incompleto: ") || !strings.Contains(es, " 7 ") || strings.Contains(es, what) {
			t.Errorf("%s in Spanish: %q", key, es)
		}
	}
}
