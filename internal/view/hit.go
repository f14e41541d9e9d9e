package view

import (
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// NoticeHit is one notice in a result list, the one shape every surface
// renders (the API adds its links, MCP its route).
type NoticeHit struct {
	RequestID  string        `json:"request_id"`
	Title      string        `json:"title"`
	Section    string        `json:"section"`
	Lens       string        `json:"lens"`
	Lenses     []string      `json:"lenses"`
	NoticeType string        `json:"notice_type,omitempty"`
	Agency     string        `json:"agency"`
	AgencyID   string        `json:"agency_id"`
	AgencyRaw  string        `json:"agency_raw"`
	Published  string        `json:"published,omitempty"`
	Deadline   *DeadlineView `json:"deadline,omitempty"`
	Amount     *AmountView   `json:"amount,omitempty"`
	Vendor     string        `json:"vendor,omitempty"`
	// VendorFromText is the vendor read from the text of an award or
	// intent without a vendor field (method text, its confidence, whether
	// profiles count it), or why none is read (VendorFromText).
	VendorFromText *entity.VendorReading `json:"vendor_from_text,omitempty"`
	PIN            string                `json:"pin,omitempty"`
	EventDate      *time.Time            `json:"event_date,omitempty"`
	Summary        string                `json:"summary"`
	Flags          []Flag                `json:"flags"`
	// Score is the engine's relevance score, absent under a date or
	// amount order (HitScore).
	Score       float64 `json:"score,omitempty"`
	Permalink   string  `json:"permalink"`
	OfficialURL string  `json:"official_url"`
}

// Hit is how one notice is shown in a result list at now, with its
// relevance score (0 for none).
func (l Links) Hit(n record.Notice, score float64, now time.Time) NoticeHit {
	h := NoticeHit{
		RequestID: n.RequestID, Title: n.Title, Section: n.Section, Lens: n.Lens, Lenses: n.Lenses,
		NoticeType: n.NoticeType, Agency: n.AgencyName, AgencyID: n.AgencyID, AgencyRaw: n.AgencyRaw,
		Deadline: Deadline(n, now), Amount: Amount(n), Vendor: strings.TrimSpace(n.VendorName), PIN: n.PIN,
		Summary: Summary(n), Flags: Flags(n, now), Score: score, VendorFromText: VendorFromText(n),
		Permalink: l.Notice(n.RequestID), OfficialURL: n.OfficialURL,
	}
	if !n.StartDate.IsZero() {
		h.Published = n.StartDate.In(record.NewYork).Format("2006-01-02")
	}
	if !n.EventDate.IsZero() {
		e := n.EventDate
		h.EventDate = &e
	}
	return h
}

// HitScore is the score a search hit shows under the sort the query asked
// for: a score means nothing under a date or amount order, so it is 0
// unless relevance was asked.
func HitScore(h search.Hit, sort string) float64 {
	if sort != search.SortRelevance {
		return 0
	}
	return h.Score
}

// VendorFromText is the vendor read from the text of an award or intent
// that has no vendor field (nil for others).
func VendorFromText(n record.Notice) *entity.VendorReading {
	if !n.VendorInText() {
		return nil
	}
	r := entity.VendorFromText(n.NoticeType, n.Text)
	return &r
}

// Passage is one cited passage as every surface shows it: quoted text
// with its stable citation (<request_id>#p<n>), offsets into the source
// text, the source link and the notice's permalink.
type Passage struct {
	Citation  string  `json:"citation"`
	RequestID string  `json:"request_id"`
	Text      string  `json:"text"`
	Start     int     `json:"start"`
	End       int     `json:"end"`
	Title     string  `json:"title"`
	Published string  `json:"published,omitempty"`
	Source    string  `json:"source"`
	SourceURL string  `json:"source_url"`
	Permalink string  `json:"permalink"`
	Score     float64 `json:"score"`
}

// PassagePage is a page of cited passages with its scope.
type PassagePage struct {
	Passages   []Passage    `json:"passages"`
	Total      int          `json:"total"`
	NextCursor string       `json:"next_cursor,omitempty"`
	Scope      record.Scope `json:"scope"`
	Note       string       `json:"note"`
	// TotalRelation is "gte" when Total is a lower bound (exact_count).
	TotalRelation string `json:"total_relation,omitempty"`
}

// PassageNote is what a page of passages is and is not.
const PassageNote = "Quoted source passages only; no answer is written and no links are inferred. No hits do not mean no record exists."

// Passages is how a page of passages is shown.
func (l Links) Passages(res search.PassageResult) PassagePage {
	out := PassagePage{Passages: []Passage{}, Total: res.Total, TotalRelation: res.TotalRelation, NextCursor: res.NextCursor,
		Scope: res.Scope, Note: PassageNote}
	for _, h := range res.Passages {
		p := h.Passage
		pv := Passage{Citation: p.ID, RequestID: p.RequestID, Text: p.Text, Start: p.Start, End: p.End, Title: p.Title,
			Source: p.Source, SourceURL: p.SourceURL, Permalink: l.Notice(p.RequestID), Score: h.Score}
		if !p.StartDate.IsZero() {
			pv.Published = p.StartDate.In(record.NewYork).Format("2006-01-02")
		}
		out.Passages = append(out.Passages, pv)
	}
	return out
}

// NoticePage is a page of notice search results as every surface shows it
// (each adds its list of hits, the API its links, feeds and lens blocks).
type NoticePage struct {
	Total      int          `json:"total"`
	NextCursor string       `json:"next_cursor,omitempty"`
	Scope      record.Scope `json:"scope"`
	// TotalRelation is "gte" when Total is a lower bound (more than
	// record.CountLimit hits and no exact_count=true), left out when it
	// is exact; scope.matched_relation says the same.
	TotalRelation string `json:"total_relation,omitempty"`
	// Facets count the hits by lens, type, agency… when the engine
	// counted them.
	Facets map[string][]search.FacetCount `json:"facets,omitempty"`
	// SuggestedFilters are agency filters for short forms typed as
	// keywords ("HPD" finds only notices printing it; agency finds all of
	// the agency's), AgencySuggestions.
	SuggestedFilters []FilterSuggestion `json:"suggested_filters,omitempty"`
}

// Page is how a search result's page is shown, with the agency filters
// suggested for its keywords.
func Page(res search.Result, sugg []FilterSuggestion) NoticePage {
	return NoticePage{Total: res.Total, NextCursor: res.NextCursor, Scope: res.Scope, TotalRelation: res.TotalRelation,
		Facets: res.Facets, SuggestedFilters: sugg}
}
