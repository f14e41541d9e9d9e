package record_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
)

// A parameter the service cannot read is an EINVALID error whose message
// is a note: its English as before, its Spanish from the message file
// with the parameter and the values as given.
func TestParamErrorsAreNotes(t *testing.T) {
	_, bad := record.ParseDay("from", "2026-13-01")
	far := record.CheckDay("to", time.Date(1600, 1, 1, 0, 0, 0, 0, time.UTC))
	long := record.CheckLen("q", strings.Repeat("x", 50), 10)
	for _, c := range []struct {
		err    error
		en, es string
	}{
		{bad, "from must be a date as YYYY-MM-DD", "from debe ser una fecha con el formato AAAA-MM-DD"},
		{far, "to must be a date from " + record.FirstDay + " to " + record.LastDay, "to debe ser una fecha del " + record.FirstDay + " al " + record.LastDay},
		{long, "q is longer than 10 characters", "q tiene más de 10 caracteres"},
	} {
		var e *record.Error
		if !errors.As(c.err, &e) || e.Code != record.EINVALID || e.Message != c.en || e.MessageKey.String() != c.en || e.MessageKey.In("es") != c.es {
			t.Errorf("%v: %+v; want %q / %q", c.err, e, c.en, c.es)
		}
	}
}
