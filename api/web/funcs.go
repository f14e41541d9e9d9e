package web

import (
	"html/template"
	"net/url"
	"strconv"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
)

// funcs are the functions every page template may call.
var funcs = template.FuncMap{
	// day is a date in New York ("" for none).
	"day": func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.In(record.NewYork).Format("2006-01-02")
	},
	// clock is a time of day in New York ("" for none).
	"clock": func(t *time.Time) string {
		if t == nil {
			return ""
		}
		return t.In(record.NewYork).Format("3:04 PM")
	},
	// fy names a fiscal year (0: not registered).
	"fy": func(n int) string {
		if n == 0 {
			return "no fiscal year (not registered)"
		}
		return "FY" + strconv.Itoa(n)
	},
	// path escapes one path segment.
	"path": url.PathEscape,
}
