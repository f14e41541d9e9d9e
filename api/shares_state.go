package api

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// ItemState is a pinned record's state as held here at one moment: when it
// was pinned (pinned_state, stored in the snapshot) or now (current_state,
// from /inv/<id>/changes). Every state says found, not_found or
// unavailable; each is checked on its own.
type ItemState struct {
	Status  record.Availability `json:"status"`
	Message string              `json:"message,omitempty"`

	// a notice
	Title            string   `json:"title,omitempty"`
	Section          string   `json:"section,omitempty"`
	NoticeType       string   `json:"notice_type,omitempty"`
	AgencyID         string   `json:"agency_id,omitempty"`
	Published        string   `json:"published,omitempty"`
	Due              string   `json:"due,omitempty"`
	DueRolling       bool     `json:"due_rolling,omitempty"`
	EventDate        string   `json:"event_date,omitempty"`
	AmountValid      *bool    `json:"amount_valid,omitempty"`
	Amount           *float64 `json:"amount,omitempty"`
	AmountSourceText string   `json:"amount_source_text,omitempty"`
	VendorStem       string   `json:"vendor_stem,omitempty"`
	PIN              string   `json:"pin,omitempty"`

	// a vendor or agency: the notices held that name it; a matter: the
	// records of its matter page (notices, registrations, payments)
	Name            string `json:"name,omitempty"`
	Records         *int   `json:"records,omitempty"`
	FirstPublished  string `json:"first_published,omitempty"`
	LastPublished   string `json:"last_published,omitempty"`
	LatestRequestID string `json:"latest_request_id,omitempty"`

	// ContentHash changes whenever what is held changes: for a notice, the
	// SHA-256 of the whole record as held; for a vendor, agency or matter,
	// of its record count and the ids of its newest notices (up to 100).
	ContentHash string `json:"content_hash,omitempty"`
}

// stateSetLimit bounds the notices read for a vendor, agency or matter.
const stateSetLimit = 100

// itemState reads the state of one pinned record through the search seam.
func (s *Server) itemState(ctx context.Context, it ShareItem) ItemState {
	if it.Kind == ShareKindNotice {
		n, err := s.deps.Search.Get(ctx, it.ID)
		if err != nil {
			return shareMissingState(err, "no notice with this request id is held here. The official City Record may still have it: "+record.OfficialURL(it.ID))
		}
		return shareNoticeState(n)
	}
	if it.Kind == ShareKindMatter {
		return s.matterState(ctx, it.ID)
	}
	if k, ok := shareRecordKindOf(it.Kind); ok {
		return s.recordState(ctx, it, k)
	}
	q := search.Query{Sort: search.SortNewest, Limit: stateSetLimit, ExactCount: true} // the state's count is exact
	var what string
	switch it.Kind {
	case ShareKindVendor:
		q.VendorStems, what = []string{it.ID}, "vendor stem"
	case ShareKindAgency:
		q.AgencyIDs, what = []string{it.ID}, "agency"
	}
	res, err := s.deps.Search.Search(ctx, q)
	if err != nil {
		return shareMissingState(err, "")
	}
	if res.Total == 0 {
		zero := 0
		return ItemState{Status: record.NotFound, Records: &zero,
			Message: "no notice held here names this " + what + ". No hits does not mean no record exists."}
	}
	st := ItemState{Status: record.Found, Records: &res.Total}
	newest := res.Hits[0].Notice
	st.LatestRequestID = newest.RequestID
	st.LastPublished = shareDay(newest.StartDate)
	switch it.Kind {
	case ShareKindVendor:
		st.Name = strings.TrimSpace(newest.VendorName)
	case ShareKindAgency:
		st.Name = newest.AgencyName
	}
	if res.Total <= len(res.Hits) {
		st.FirstPublished = shareDay(res.Hits[len(res.Hits)-1].Notice.StartDate)
	}
	h := sha256.New()
	h.Write([]byte(strconv.Itoa(res.Total)))
	for _, hit := range res.Hits {
		h.Write([]byte{0})
		h.Write([]byte(hit.Notice.RequestID))
	}
	st.ContentHash = "sha256:" + hex.EncodeToString(h.Sum(nil))
	return st
}

// shareMissingState is the state of a read that failed: not found, or
// unavailable (which never means missing).
func shareMissingState(err error, notFound string) ItemState {
	if record.ErrorCode(err) == record.ENOTFOUND && notFound != "" {
		return ItemState{Status: record.NotFound, Message: notFound}
	}
	return ItemState{Status: record.Unavailable,
		Message: "the index could not answer at this moment; this does not mean the record is missing"}
}

func shareNoticeState(n record.Notice) ItemState {
	valid := n.AmountValid
	st := ItemState{
		Status: record.Found, Title: n.Title, Section: n.Section, NoticeType: n.NoticeType, AgencyID: n.AgencyID,
		Published: shareDay(n.StartDate), DueRolling: n.DueRolling, AmountValid: &valid, AmountSourceText: n.AmountRaw,
		VendorStem: n.VendorStem, PIN: n.PIN,
	}
	if !n.DueRolling {
		st.Due = shareDay(n.DueDate)
	}
	if !n.EventDate.IsZero() {
		st.EventDate = n.EventDate.In(record.NewYork).Format(time.RFC3339)
	}
	if n.AmountValid {
		v := n.Amount
		st.Amount = &v
	}
	raw, _ := json.Marshal(n) // map keys are sorted: the same record hashes the same
	sum := sha256.Sum256(raw)
	st.ContentHash = "sha256:" + hex.EncodeToString(sum[:])
	return st
}

func shareDay(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.In(record.NewYork).Format("2006-01-02")
}

// diffStates lists the fields whose values differ, by JSON name.
func diffStates(a, b ItemState) []string {
	var ma, mb map[string]any
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	_ = json.Unmarshal(ja, &ma)
	_ = json.Unmarshal(jb, &mb)
	out := []string{}
	for k, v := range ma {
		if w, ok := mb[k]; !ok || !shareSameJSON(v, w) {
			out = append(out, k)
		}
	}
	for k := range mb {
		if _, ok := ma[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func shareSameJSON(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

// itemLinks are the addresses of a pinned record, in this form's shapes.
func (s *Server) itemLinks(it ShareItem, st ItemState) map[string]string {
	base := s.cfg.BaseURL
	if k, ok := shareRecordKindOf(it.Kind); ok {
		return s.recordLinks(it, k)
	}
	switch it.Kind {
	case ShareKindNotice:
		return map[string]string{"view": s.permalinks().Notice(it.ID), "json": s.permalinks().NoticeJSON(it.ID),
			"official": record.OfficialURL(it.ID)}
	case ShareKindVendor:
		return map[string]string{"view": s.permalinks().Vendor(it.ID, ""), "json": base + "/api/search?vendor=" + url.QueryEscape(it.ID)}
	case ShareKindAgency:
		return map[string]string{"view": s.permalinks().Agency(it.ID, st.Name), "json": base + "/api/search?agency=" + url.QueryEscape(it.ID)}
	default:
		return map[string]string{"view": s.permalinks().Matter(it.ID), "json": base + "/api/matters/" + url.PathEscape(it.ID)}
	}
}

// matterState is a pinned matter's state: the records its matter page
// shows (procure.Matter.Records, the one count of a matter), its newest
// notice, and a hash of every step.
func (s *Server) matterState(ctx context.Context, pin string) ItemState {
	m, err := s.procure().Matter(ctx, pin)
	if err != nil || m.Status == record.NotFound {
		if err == nil || record.ErrorCode(err) == record.ENOTFOUND {
			zero := 0
			return ItemState{Status: record.NotFound, Records: &zero,
				Message: "no notice, registration or payment held here carries this PIN. No hits does not mean no record exists."}
		}
		return shareMissingState(err, "")
	}
	n := m.Records()
	st := ItemState{Status: record.Found, Records: &n}
	h := sha256.New()
	h.Write([]byte(strconv.Itoa(n)))
	for _, step := range m.Steps {
		id := ""
		switch {
		case step.Notice != nil:
			id = step.Notice.RequestID
			if st.FirstPublished == "" {
				st.FirstPublished = shareDay(step.Notice.StartDate)
			}
			if d := shareDay(step.Notice.StartDate); d >= st.LastPublished {
				st.LastPublished, st.LatestRequestID, st.Name = d, step.Notice.RequestID, step.Notice.Title
			}
		case step.Row != nil:
			id = step.Row.ID
		}
		h.Write([]byte{0})
		h.Write([]byte(step.Record + ":" + id))
	}
	st.ContentHash = "sha256:" + hex.EncodeToString(h.Sum(nil))
	return st
}
