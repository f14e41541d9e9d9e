package web

import (
	"html/template"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/view"
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
	// sourceRef is a row's reference as its source gives it: the part of
	// a stored id after its source and kind ("checkbook:payment:X" → X)
	"sourceRef": func(id string) string {
		if parts := strings.SplitN(id, ":", 3); len(parts) == 3 {
			return parts[2]
		}
		return id
	},
	// rowsPage is the site's table of a row list's JSON address
	// (/api/rows?… → /rows?…).
	"rowsPage": func(u string) string { return strings.Replace(u, "/api/rows?", "/rows?", 1) },
	// months lays meetings out as month grids (calendar.go)
	"months": Months,
	// evening reports a meeting starting at 5 PM or later
	"evening": Evening,
	// money is a dollar amount as the site prints it
	"money": view.Money,
	// num is a number as a data attribute carries it
	"num": Num,
	// hasLabel is whether a label table holds a value (else the value is
	// the source's own word, shown as published)
	"hasLabel": HasLabel,
	// list builds a slice for a shared part
	"list": func(v ...string) []string { return v },
	// siteSearch turns an /api/search address into the site's search
	// view with the same parameters
	"siteSearch": func(api string) string {
		if i := strings.Index(api, "/api/search?"); i >= 0 {
			return "/#search?" + api[i+len("/api/search?"):]
		}
		return api
	},
	// dict builds a map for a shared part: dict "Line" x "Rules" y
	"dict": func(kv ...any) map[string]any {
		m := map[string]any{}
		for i := 0; i+1 < len(kv); i += 2 {
			if k, ok := kv[i].(string); ok {
				m[k] = kv[i+1]
			}
		}
		return m
	},
}
