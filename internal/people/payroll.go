package people

import (
	"context"
	"net/url"
	"sort"
	"strconv"

	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Payroll positions (SPEC §2.10, issue 17 item 3): the Citywide Payroll
// rows of an agency read as positions held by title and fiscal year. A
// payroll row is a position, never a person row: nothing here creates,
// matches or infers a person from a payroll name, and the summary carries
// no names at all (the rows, with names only as the dataset prints them,
// are read through /api/payroll).

// Position summary bounds.
const (
	// MaxPositionYears is how many fiscal years (newest first) a summary
	// lists.
	MaxPositionYears = 3
	// MaxPositionTitles is how many titles one fiscal year lists.
	MaxPositionTitles = 25
)

// PositionsNote says what a position summary is and is not (PositionsKey
// in English).
var (
	PositionsKey  = record.N("people.positions.note")
	PositionsNote = PositionsKey.String()
)

// PositionTitle is one title in one fiscal year: how many payroll rows
// hold it and their regular gross paid.
type PositionTitle struct {
	Title        string        `json:"title"`
	Rows         int           `json:"rows"`
	ValidAmounts int           `json:"valid_amounts"`
	Excluded     int           `json:"excluded_amounts"`
	GrossPaid    procure.Money `json:"regular_gross_paid"`
	Browse       string        `json:"browse"`
}

// PositionYear is one fiscal year of an agency's positions.
type PositionYear struct {
	FiscalYear   int           `json:"fiscal_year"`
	Rows         int           `json:"rows"`
	ValidAmounts int           `json:"valid_amounts"`
	Excluded     int           `json:"excluded_amounts"`
	GrossPaid    procure.Money `json:"regular_gross_paid"`
	// Titles are the titles held, by regular gross paid then rows (at most
	// MaxPositionTitles); TitlesHeld counts every distinct title and
	// RowsNotListed the rows of the titles left out.
	Titles        []PositionTitle `json:"titles"`
	TitlesHeld    int             `json:"titles_held"`
	RowsNotListed int             `json:"rows_not_listed"`
	// RowsNoTitle counts rows whose title is blank as printed.
	RowsNoTitle int    `json:"rows_no_title"`
	Browse      string `json:"browse"`
}

// Positions is the payroll summary of one agency: state published when
// payroll rows are held for it; else unknown, displayed "no payroll held"
// (which does not mean the agency has no positions), or "unknown" when the
// row is tied to no crosswalk agency.
type Positions struct {
	AgencyID string `json:"agency_id,omitempty"`
	State    string `json:"state"`
	Display  string `json:"display"`
	Measure  string `json:"measure"`
	Note     string `json:"note"`
	// DisplayKey is display as a note when it says what is absent;
	// MeasureKey, NoteKeys and BoundsKey are measure, note and bounds as
	// notes (key and arguments).
	DisplayKey *record.Note `json:"display_key,omitempty"`
	MeasureKey record.Note  `json:"measure_key"`
	NoteKeys   record.Notes `json:"note_keys"`
	BoundsKey  record.Note  `json:"bounds_key"`
	// FiscalYearsHeld lists every fiscal year held (newest first); Years
	// summarizes the newest MaxPositionYears of them.
	FiscalYearsHeld []int          `json:"fiscal_years_held"`
	Years           []PositionYear `json:"years"`
	Bounds          string         `json:"bounds"`
	// Extent says how much of the payroll source the figures cover (the
	// rows held are an extract), in words (ExtentWords) shown next to
	// them; set by withExtent when the figures are published.
	Extent      []record.Extent `json:"extent,omitempty"`
	ExtentWords string          `json:"extent_words,omitempty"`
}

// withExtent sets the extent of the payroll rows held (search.Extents of
// record.ExtentPayroll) on published figures; unknown ones state no figure
// to qualify.
func (p *Positions) withExtent(es []record.Extent, words string) {
	if p.State == Published {
		p.Extent, p.ExtentWords = es, words
	}
}

// positionsBounds states the summary's bounds.
var positionsBounds = record.N("people.positions.bounds", MaxPositionYears, MaxPositionTitles)

// browsePayroll is the payroll JSON read of an agency, year and title.
func browsePayroll(agencyID string, fy int, title string) string {
	q := "/api/payroll?agency=" + url.QueryEscape(agencyID)
	if fy > 0 {
		q += "&fiscal_year=" + strconv.Itoa(fy)
	}
	if title != "" {
		q += "&title=" + url.QueryEscape(title)
	}
	return q
}

// Positions reads the payroll positions of a crosswalk agency (canonical
// id): per fiscal year the rows, per title the rows and regular gross paid
// (search.TotalsOf grouped by the title key). An empty agency id reads
// unknown. Errors: EUNAVAILABLE when the engine cannot answer.
func (s *Service) Positions(ctx context.Context, agencyID string) (Positions, error) {
	out := Positions{AgencyID: agencyID, Measure: procure.PayrollMeasure, Note: PositionsNote, Bounds: positionsBounds.String(),
		MeasureKey: procure.PayrollMeasureKey, NoteKeys: record.Notes{PositionsKey}, BoundsKey: positionsBounds,
		FiscalYearsHeld: []int{}, Years: []PositionYear{}}
	absent := func(display, why record.Note) {
		out.State, out.Display, out.DisplayKey = Unknown, display.String(), &display
		out.NoteKeys = record.Notes{why, PositionsKey}
		out.Note = out.NoteKeys.String()
	}
	if agencyID == "" {
		absent(record.N("people.positions.unknown"), record.N("people.positions.no_agency"))
		return out, nil
	}
	rs, err := s.records()
	if err != nil {
		return out, err
	}
	keys := func(fy int) map[string][]string {
		k := map[string][]string{search.KeyAgencyID: {agencyID}}
		if fy > 0 {
			k[search.KeyFiscalYear] = []string{strconv.Itoa(fy)}
		}
		return k
	}
	all, err := search.TotalsOf(ctx, rs, procure.PayrollKind, search.RecordQuery{Keys: keys(0)}, []string{search.KeyFiscalYear}, 0)
	if err != nil {
		return out, err
	}
	if all.Count == 0 {
		absent(procure.NoPayrollKey, record.N("people.positions.none"))
		return out, nil
	}
	out.State = Published
	m := procure.Sum{Records: all.Count, ValidAmounts: all.ValidAmounts, Amount: all.Amount, Absent: procure.NoPayrollKey}.Money()
	out.Display, out.DisplayKey = m.Display, m.DisplayKey
	for _, b := range all.Groups[search.KeyFiscalYear] {
		if y, err := strconv.Atoi(b.Value); err == nil {
			out.FiscalYearsHeld = append(out.FiscalYearsHeld, y)
		}
	}
	sort.Sort(sort.Reverse(sort.IntSlice(out.FiscalYearsHeld)))
	for i, fy := range out.FiscalYearsHeld {
		if i == MaxPositionYears {
			break
		}
		t, err := search.TotalsOf(ctx, rs, procure.PayrollKind, search.RecordQuery{Keys: keys(fy)}, []string{procure.KeyPayrollTitle}, 0)
		if err != nil {
			return out, err
		}
		y := PositionYear{FiscalYear: fy, Rows: t.Count, ValidAmounts: t.ValidAmounts, Excluded: t.Count - t.ValidAmounts,
			GrossPaid: procure.Sum{Records: t.Count, ValidAmounts: t.ValidAmounts, Amount: t.Amount, Absent: procure.NoPayrollKey}.Money(),
			Titles:    []PositionTitle{}, Browse: browsePayroll(agencyID, fy, "")}
		titles := t.Groups[procure.KeyPayrollTitle]
		y.TitlesHeld = len(titles)
		y.RowsNotListed = t.Other[procure.KeyPayrollTitle] // beyond the engine's group bound
		inTitles := 0
		for j, b := range titles {
			inTitles += b.Count
			if j >= MaxPositionTitles {
				y.RowsNotListed += b.Count
				continue
			}
			y.Titles = append(y.Titles, PositionTitle{Title: b.Value, Rows: b.Count, ValidAmounts: b.ValidAmounts, Excluded: b.Count - b.ValidAmounts,
				GrossPaid: procure.Sum{Records: b.Count, ValidAmounts: b.ValidAmounts, Amount: b.Amount, Absent: procure.NoPayrollKey}.Money(),
				Browse:    browsePayroll(agencyID, fy, b.Value)})
		}
		y.RowsNoTitle = max(0, t.Count-inTitles-t.Other[procure.KeyPayrollTitle])
		out.Years = append(out.Years, y)
	}
	out.withExtent(search.Extents(ctx, rs, record.ExtentPayroll))
	return out, nil
}

// Money is the summary's display as a sum reads (its amount, or what is
// absent).
func (p Positions) Money() procure.Money {
	return procure.Money{Display: p.Display, DisplayKey: p.DisplayKey}
}
