package api

import (
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/record"
)

func wantInvalid(t *testing.T, path string, status int, b []byte, param string) {
	t.Helper()
	if status != 400 {
		t.Errorf("%s: status %d, want 400: %s", path, status, b)
		return
	}
	e := decode[errorBody](t, b).Error
	if e.Code != record.EINVALID || e.Param != param {
		t.Errorf("%s: error %+v, want invalid naming %s", path, e, param)
	}
}

// Days the index cannot represent are bad input naming the parameter, not
// an unavailable index, on every date-taking endpoint.
func TestDatesOutOfRangeAreInvalid(t *testing.T) {
	for _, tc := range []struct{ path, param string }{
		{"/api/search?from=1600-01-01", "from"},
		{"/api/search?to=2300-01-01", "to"},
		{"/api/search?from=1677-12-31", "from"},
		{"/api/search?to=2262-01-01", "to"},
		{"/api/search?due_from=1600-01-01", "due_from"},
		{"/api/search?due_to=2300-01-01", "due_to"},
		{"/api/search?event_from=1600-01-01", "event_from"},
		{"/api/search?event_to=2300-01-01", "event_to"},
		{"/api/search?q=construction&lens=money&to=9999-12-31", "to"},
		{"/api/search?from=0000-01-01", "from"},
		{"/api/passages?q=contract&from=1600-01-01", "from"},
		{"/api/passages?q=contract&to=2300-01-01", "to"},
		// feeds take no dates: a date parameter is an unknown one, still 400
		{"/feed.xml?lens=money&from=1600-01-01", "from"},
		{"/feed.json?lens=meetings&to=2300-01-01", "to"},
		{"/feed.ics?lens=meetings&event_from=1600-01-01", "event_from"},
	} {
		res, b := get(t, shared, tc.path)
		wantInvalid(t, tc.path, res.StatusCode, b, tc.param)
		if strings.Contains(string(b), "index") {
			t.Errorf("%s: the message blames the index: %s", tc.path, b)
		}
	}
	// the first and last accepted days answer
	for _, path := range []string{"/api/search?from=" + record.FirstDay + "&to=" + record.LastDay,
		"/api/search?due_from=" + record.FirstDay + "&due_to=" + record.LastDay,
		"/api/search?event_from=" + record.FirstDay + "&event_to=" + record.LastDay,
		"/api/passages?q=contract&from=" + record.FirstDay + "&to=" + record.LastDay} {
		if res, b := get(t, shared, path); res.StatusCode != 200 {
			t.Errorf("%s: status %d: %s", path, res.StatusCode, b)
		}
	}
}
