package checkbook

import (
	"errors"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
)

// FuzzParseResponse: the Checkbook NYC XML reader never panics; it either
// refuses (no response) or returns a response whose transactions
// normalize without panicking, each to an entry or an error.
func FuzzParseResponse(f *testing.F) {
	f.Add([]byte("<response><status><result>success</result></status></response>"))
	f.Add([]byte("<html><body>Service unavailable</body></html>"))
	cw := entity.DefaultCrosswalk()
	observed := time.Date(2026, 8, 14, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := ParseResponse(data)
		if err != nil {
			if res != nil {
				t.Fatalf("error %v with a response", err)
			}
			return
		}
		if res == nil {
			t.Fatal("no response and no error")
		}
		entries, errs := NormalizeResponse(res, "fuzz", cw, observed)
		for _, e := range errs {
			if e == nil || errors.Unwrap(e) == nil && e.Error() == "" {
				t.Fatalf("empty error %v", e)
			}
		}
		_ = entries
		_, _ = ParseRequest(data)
	})
}
