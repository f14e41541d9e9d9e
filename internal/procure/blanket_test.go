package procure_test

import (
	"testing"

	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
)

// A blanket chain is a run of award notices only: a solicitation or an
// intent to award on the PIN makes it one procurement (the intent is the
// step before one award, not a standing list). Notices shaped like the
// real DCAS salt awards of PIN 8571400452 (Morton Salt, Atlantic Salt …).
func TestBlanketChainRule(t *testing.T) {
	const pin = "8571400452"
	n := func(typ string, p string) record.Notice {
		return record.Notice{NoticeType: typ, Section: record.SectionProcurement, PIN: p}
	}
	awards := func(k int) []record.Notice {
		var out []record.Notice
		for i := 0; i < k; i++ {
			out = append(out, n("Award", pin))
		}
		return out
	}
	for _, tc := range []struct {
		name    string
		notices []record.Notice
		blanket bool
	}{
		{"six awards", awards(6), true},
		{"five awards", awards(5), false},
		{"six awards and an intent to award", append(awards(6), n("Intent to Award", pin)), false},
		{"an intent first", append([]record.Notice{n("Intent to Award", pin)}, awards(7)...), false},
		{"intents only", []record.Notice{n("Intent to Award", pin), n("Intent to Award", pin), n("Intent to Award", pin),
			n("Intent to Award", pin), n("Intent to Award", pin), n("Intent to Award", pin)}, false},
		{"six awards and a solicitation", append(awards(6), n("Solicitation", pin)), false},
	} {
		if got, _ := procure.Blanket(pin, tc.notices); got != tc.blanket {
			t.Errorf("%s: blanket %v, want %v", tc.name, got, tc.blanket)
		}
	}
}
