package watch

import (
	"slices"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/view"

	"github.com/recordwatch/recordwatch/internal/record"
)

// Open is the one meaning of "open" (README, "What open means"): a
// solicitation whose due date is from the start of today (New York) or
// whose deadline is rolling. /api/search?open=true (and so the site's
// "Open solicitations only"), MCP search_notices open=true, and the money
// lens of watches and feeds (Filter.Compile) all narrow their query here.
// It refuses, on param, a query that already sets due_from or asks for
// other notice types only.
func Open(param string, q *search.Query, now time.Time) error {
	if !q.DueFrom.IsZero() {
		return record.InvalidNote(param, "watch.error.open_due")
	}
	if len(q.NoticeTypes) > 0 && !slices.ContainsFunc(q.NoticeTypes, func(t string) bool { return strings.EqualFold(t, view.OpenNoticeType) }) {
		return record.InvalidNote(param, "watch.error.open_type", strings.Join(q.NoticeTypes, ", "))
	}
	q.NoticeTypes = []string{view.OpenNoticeType}
	q.DueFrom = view.OpenFrom(now)
	q.IncludeRolling = true
	return nil
}
