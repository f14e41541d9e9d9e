package mcp

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/record"
)

type browseCivilIn struct {
	Kind       string `json:"kind,omitempty"`
	ExamNumber string `json:"exam_number,omitempty"`
	TitleCode  string `json:"title_code,omitempty"`
	Agency     string `json:"agency,omitempty"`
	Limit      int    `json:"limit,omitempty"`
	Cursor     string `json:"cursor,omitempty"`
}

// browseCivilService is GET /api/civil-service as a tool: the same
// service call (people.Service.Civil), the same filters.
func browseCivilService(d *Deps) Tool {
	t := newTool(d, "browse_civil_service", "Browse civil-service exams and eligible lists", ClassRead,
		"Bounded pages of DCAS civil-service rows, newest first: exams (the annual exam schedule and the exams open "+
			"for filing in OASys) and eligible lists (their use as the annual Local Law 50 report prints it, and their size "+
			"from exam-level aggregates), each with its date, the date's label, its dataset and source. Filters are exact: "+
			"kind (exam or list), exam_number and title_code as printed (never padded: 0111 is not 111), agency (a "+
			"crosswalk agency the row names; citywide lists name none). Rows are exam-level and list-level only: no "+
			"per-candidate civil-service list is held, so no tool answers where a person stands on a list. scope gives "+
			"the sources held and their dates; follow next_cursor for the rest. No rows never proves no such exam or list exists.",
		[]int{1},
		func(s *jsonschema.Schema) {
			p := prop(s, "kind")
			p.Enum = []any{"exam", "list"}
			p.Description = "exam or list (both when omitted)."
			bounded(s, "exam_number", 16, "Exam number exactly as printed (\"7006\", \"0111\").")
			bounded(s, "title_code", 16, "Civil-service title code exactly as printed (4 to 6 characters).")
			bounded(s, "agency", record.MaxNameLen, "Agency label, name or canonical id (GET /agencies lists them).")
			limitProp(s, people.MaxLimit)
			cursorProp(s)
		},
		func(ctx context.Context, d *Deps, in browseCivilIn) (people.CivilPage, error) {
			svc, err := d.people()
			if err == nil && svc == nil {
				err = record.Errorf(record.EUNAVAILABLE, "civil-service rows are not available on this deployment")
			}
			if err != nil {
				return people.CivilPage{}, err
			}
			return svc.Civil(ctx, people.CivilFilter{Kind: in.Kind, ExamNumber: in.ExamNumber, TitleCode: in.TitleCode, Agency: in.Agency},
				in.Cursor, limitOr(in.Limit, people.DefaultLimit))
		})
	t.Limits = []string{"limit: at most 100 rows per page (default 20); follow next_cursor for the rest", "exam-level and list-level rows only: no per-candidate list"}
	t.Examples = []Example{{"The eligible lists that name the Police Department", map[string]any{"kind": "list", "agency": "police-department"}},
		{"One exam in the schedule and in OASys", map[string]any{"exam_number": "7006"}}}
	return t
}
