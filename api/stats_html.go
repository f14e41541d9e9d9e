package api

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/api/web"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/record"
)

// /stats for a browser: the same figures as the JSON (which stays the
// default for every client that does not ask for HTML first), as a page —
// record sets by source, their counts as a bar chart with the table beside
// it, their dates, and the JSON twin linked (web/templates/stats.html).

// wantsHTML reports whether a request asks for HTML before JSON (a
// browser's Accept header); clients that send no Accept, */* or JSON get
// JSON.
func wantsHTML(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept"), ",") {
		switch strings.TrimSpace(strings.SplitN(part, ";", 2)[0]) {
		case "text/html", "application/xhtml+xml":
			return true
		case "application/json", "*/*":
			return false
		}
	}
	return false
}

type statsPageData struct {
	JSON     string
	Coverage *CoverageStats
	Usage    *UsageStats
	Chart    web.BarChart
	Rules    record.Notes
	// DigestRuns is the scheduled digest runs' misses (stats_digestruns.go).
	DigestRuns *DigestRunStats
}

// statsPage renders /stats as a page.
func (s *Server) statsPage(c *gin.Context) {
	lang := c.GetString(langKey)
	d := statsPageData{JSON: s.cfg.BaseURL + "/stats", Rules: record.AbsenceRuleNotes}
	now := s.deps.Now()
	if s.cfg.Form == 2 {
		u, err := s.usageStats(c.Request.Context(), now)
		if err != nil {
			writeError(c, err)
			return
		}
		d.Usage, d.DigestRuns = &u, u.DigestRuns
	} else {
		v, err := s.coverageStats(c.Request.Context(), now)
		if err != nil {
			writeError(c, err)
			return
		}
		d.Coverage, d.DigestRuns = &v, v.DigestRuns
		d.Chart = web.BarChart{ID: "stats-sets", Title: web.Word(lang, "stats.chart.title"),
			Desc: web.Word(lang, "stats.chart.desc")}
		kinds := map[string]int{} // sets per record kind: a kind's list answers one set only when it is the kind's only set
		for _, r := range v.RecordSets {
			kinds[r.RecordKind]++
		}
		for _, r := range v.RecordSets {
			b := web.Bar{Label: recordSetLabel(lang, r), Value: float64(r.Records), Display: itoaComma(r.Records)}
			b.URL = s.recordSetPage(r, r.RecordKind == "" || kinds[r.RecordKind] == 1)
			if lang == "es" && r.Section != "" { // the section's name alone, as published
				b.Label, b.Verbatim = r.Section, true
			}
			d.Chart.Bars = append(d.Chart.Bars, b)
		}
		d.Chart.Desc += " " + web.Word(lang, "stats.chart.nolink")
	}
	addVary(c.Writer.Header(), "Accept")
	writeHTML(c, http.StatusOK, web.Page{Kind: web.Stats, Title: web.Word(lang, "nav.stats"), Home: s.cfg.BaseURL + "/", JSON: d.JSON,
		Crumbs: crumbs(c, web.Link{Label: web.Word(lang, "nav.stats")}), Data: d}, now)
}

// recordSetLabel names a record set for a reader: the notices of a
// section, or the record type held from a source (its name in lang).
func recordSetLabel(lang string, r RecordSet) string {
	if r.Section != "" {
		return r.Section + " notices"
	}
	return web.Label(lang, "stats_record_type", r.RecordType) + " · " + web.SourceTitle(lang, r.Source, r.TitleType(), r.SourceLabel)
}

// TitleType is the record type a set's source is titled by (the
// source_title labels, "<source>/<record type>" as the sources list
// names them): the last part of its record kind ("people.organization" →
// organization), notice for the notices.
func (r RecordSet) TitleType() string {
	if r.RecordKind == "" {
		return "notice"
	}
	return r.RecordKind[strings.LastIndex(r.RecordKind, ".")+1:]
}

// recordSetPage is the page listing the records a set counts: a section's
// notices are the search of that section (its JSON twin is the set's
// "search" link); a record kind's list page (land projects) when the set
// is the kind's only one (alone); a source's meetings, the calendar of
// that source over the set's dates, when those fit one calendar window;
// "" for a set no page lists alone (notices naming no section, a kind with
// no page of its own, meetings over more than a window).
// TestPictureMarksLeadToTheirRecords holds every link to its count.
func (s *Server) recordSetPage(r RecordSet, alone bool) string {
	if api := r.Links["search"]; api != "" {
		return strings.Replace(api, s.cfg.BaseURL+"/api/search?", s.cfg.BaseURL+"/#search?", 1)
	}
	switch r.RecordKind {
	case land.ProjectKind.Name:
		if alone {
			return s.cfg.BaseURL + "/land-projects"
		}
	case meeting.Kind.Name:
		from, err1 := time.Parse(time.DateOnly, r.FirstSourceDate)
		to, err2 := time.Parse(time.DateOnly, r.EvidenceDate)
		if err1 == nil && err2 == nil && !to.Before(from) && meeting.WindowFits(from, to) {
			return s.cfg.BaseURL + "/meetings?" + url.Values{"source": {r.Source}, "from": {r.FirstSourceDate}, "to": {r.EvidenceDate}}.Encode()
		}
	}
	return ""
}
