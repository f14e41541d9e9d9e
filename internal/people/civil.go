package people

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Civil-service records (DCAS): exams and eligible lists, kept beside the
// organizations they concern. They are exam-level and list-level rows,
// never candidates: no per-candidate list is held.

// Civil record kinds.
const (
	CivilFamily = "civil"
	CivilExam   = "civil.exam" // an exam: scheduled (4ptz-hmtc) or open for filing (OASys)
	CivilList   = "civil.list" // an eligible list: its use (qjzt-ytn9) or its size (vx8i-nprf aggregates)
)

// Keys of civil records.
const (
	KeyExamNumber = "exam_number" // as printed ("0111", "7006")
	KeyTitleCode  = "title_code"  // as printed: 4, 5 or 6 characters, never padded
	KeyDataset    = "dataset"
)

// CivilRecord is one exam or eligible-list row as a source printed it.
type CivilRecord struct {
	Kind        string    `json:"kind"` // exam | list
	ID          string    `json:"id"`
	Dataset     string    `json:"dataset"`
	Source      string    `json:"source"`
	SourceLabel string    `json:"source_label"`
	ObservedAt  time.Time `json:"observed_at,omitzero"`
	ExamNumber  string    `json:"exam_number,omitempty"`
	TitleCode   string    `json:"title_code,omitempty"`
	Title       string    `json:"title,omitempty"`
	// Category is open competitive or promotional, as printed.
	Category string `json:"category,omitempty"`
	// Date (YYYY-MM-DD) and its label: application or filing start, list
	// established; End the end of a filing window or a list extension.
	Date      string `json:"date,omitempty"`
	DateLabel string `json:"date_label,omitempty"`
	End       string `json:"end,omitempty"`
	EndLabel  string `json:"end_label,omitempty"`
	// AgencyCode is the agency code as printed; AgencyID the crosswalk
	// agency the printed agency name resolves to (empty when the row names
	// none: a citywide list), with the method.
	AgencyCode   string `json:"agency_code,omitempty"`
	AgencyName   string `json:"agency_name,omitempty"`
	AgencyID     string `json:"agency_id,omitempty"`
	AgencyMethod string `json:"agency_method,omitempty"`
	URL          string `json:"url,omitempty"`
	// Repeats counts identical rows folded into this one.
	Repeats int               `json:"repeats,omitempty"`
	Notes   []string          `json:"notes,omitempty"`
	Fields  map[string]string `json:"source_fields"`
}

// CivilKind is the typed kind of civil-service records.
var CivilKind = search.Kind[CivilRecord]{
	Name:    CivilFamily,
	Members: []string{CivilExam, CivilList},
	Index: func(c CivilRecord) search.Record {
		keys := map[string][]string{}
		set := func(k, v string) {
			if v != "" {
				keys[k] = []string{v}
			}
		}
		set(KeyExamNumber, c.ExamNumber)
		set(KeyTitleCode, c.TitleCode)
		set(KeyDataset, c.Dataset)
		set(KeyAgencyID, c.AgencyID)
		r := search.Record{Kind: CivilFamily + "." + c.Kind, ID: c.ID, Source: c.Source, SourceLabel: c.SourceLabel,
			ObservedAt: c.ObservedAt, Keys: keys, Title: c.Title}
		if d, err := time.ParseInLocation("2006-01-02", c.Date, record.NewYork); err == nil {
			r.Date, r.DateLabel = d, c.DateLabel
		}
		return r
	},
}

// CivilFilter narrows civil records: every set field matches exactly.
type CivilFilter struct {
	Kind       string // exam | list
	ExamNumber string
	TitleCode  string
	Agency     string
}

// CivilPage is a bounded page of civil-service records, newest first.
type CivilPage struct {
	Records    []CivilRecord `json:"records"`
	Total      int           `json:"total"`
	NextCursor string        `json:"next_cursor,omitempty"`
	Scope      record.Scope  `json:"scope"`
	Note       string        `json:"note"`
	NoteKey    record.Note   `json:"note_key"` // Note as a note
}

// CivilNote says what civil records are and are not (CivilNoteKey in
// English).
var CivilNote = CivilNoteKey.String()

// CivilNoteKey is CivilNote as a note.
var CivilNoteKey = record.N("people.civil.note")

// Civil reads a bounded page of civil-service records. Errors: EINVALID
// for a bad filter, limit or cursor; EUNAVAILABLE when the engine cannot
// answer.
func (s *Service) Civil(ctx context.Context, f CivilFilter, cursor string, limit int) (CivilPage, error) {
	if limit == 0 {
		limit = DefaultLimit
	}
	if limit < 1 || limit > MaxLimit {
		return CivilPage{}, record.InvalidNote("limit", "param.limit", "limit", MaxLimit)
	}
	q := search.RecordQuery{Keys: map[string][]string{}, Sort: search.RecordSortDateDesc, Limit: limit, Cursor: cursor}
	switch k := strings.TrimSpace(f.Kind); k {
	case "":
	case "exam", "list":
		q.Kinds = []string{CivilFamily + "." + k}
	default:
		return CivilPage{}, record.InvalidNote("kind", "param.civil_kind", strconv.Quote(f.Kind))
	}
	if v := strings.TrimSpace(f.ExamNumber); v != "" {
		q.Keys[KeyExamNumber] = []string{v}
	}
	if v := strings.TrimSpace(f.TitleCode); v != "" {
		q.Keys[KeyTitleCode] = []string{v}
	}
	if a := strings.TrimSpace(f.Agency); a != "" {
		ids, _, err := s.Crosswalk.ResolveNames("agency", []string{a})
		if err != nil {
			return CivilPage{}, err
		}
		q.Keys[KeyAgencyID] = ids
	}
	if len(q.Keys) == 0 {
		q.Keys = nil
	}
	rs, err := s.records()
	if err != nil {
		return CivilPage{}, err
	}
	var notices search.CoverageReader
	if s.Search != nil {
		notices = s.Search
	}
	p, err := search.Find(ctx, search.WithScope(rs, notices), CivilKind, q)
	if err != nil {
		return CivilPage{}, err
	}
	out := CivilPage{Records: p.Items, Total: p.Total, NextCursor: p.NextCursor, Scope: p.Scope, Note: CivilNote, NoteKey: CivilNoteKey}
	if out.Records == nil {
		out.Records = []CivilRecord{}
	}
	out.Scope.Searched.Kind = "civil_service"
	return out, nil
}
