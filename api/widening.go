package api

import (
	"net/url"

	"github.com/recordwatch/recordwatch/internal/record"
)

// widenedURL is the page at path that shows a widening's records: the
// page's query q without the filter the widening leaves out (its name is
// the page's parameter), or, for a date window, the month of the nearest
// matching record; paging is dropped.
func (s *Server) widenedURL(path string, q url.Values, w *record.Widening) string {
	if w == nil {
		return ""
	}
	v := url.Values{}
	for k, vs := range q {
		v[k] = vs
	}
	v.Del("cursor")
	if w.Without == "window" {
		v.Del("from")
		v.Del("to")
		v.Del("month")
		if len(w.Nearest) >= len("2006-01") {
			v.Set("month", w.Nearest[:len("2006-01")])
		}
	} else {
		v.Del(w.Without)
	}
	if len(v) == 0 {
		return s.cfg.BaseURL + path
	}
	return s.cfg.BaseURL + path + "?" + v.Encode()
}
