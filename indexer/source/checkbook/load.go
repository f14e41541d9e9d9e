package checkbook

import (
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
)

// FileReport says what one file contributed.
type FileReport struct {
	File         string `json:"file"`
	Source       string `json:"source"`
	TypeOfData   string `json:"type_of_data,omitempty"`
	RecordCount  int    `json:"record_count,omitempty"` // matches at the source, as the answer states
	Transactions int    `json:"transactions"`
	// Rejected counts the transactions that could not be read (each is
	// one of the read's errors, with its reason).
	Rejected   int       `json:"rejected,omitempty"`
	Rows       int       `json:"rows"`
	Errors     int       `json:"errors"`
	Repairs    []string  `json:"repairs,omitempty"`
	ObservedAt time.Time `json:"observed_at,omitzero"`
}

// Corpus is a read directory of Checkbook answers (and, through LoadDir,
// contract rows).
type Corpus struct {
	// Rows are sorted by id, one per id (the last file read wins).
	Rows
	Files []FileReport `json:"files"`
}

// ReadDir reads the Checkbook NYC API answers under dir (recursively):
// *.response.xml, or any .xml holding a response, and spending answers
// saved as JSON (*.json, ParseSpendingJSON); request documents and other
// files are skipped. Rows are raw (agency ids, vendor stems and
// base PINs are the link stage's). An answer carries no observation time,
// so its rows are stamped with the latest date among them (an answer
// cannot have been observed before its newest transaction).
func ReadDir(fsys fs.FS, dir string) (*Corpus, []error) {
	return readDir(fsys, dir)
}

// LoadDir reads dir as ReadDir does and links every row (indexer/link)
// with cw: for callers outside the indexer pipeline, which reads each
// source on its own and links once. Registered-contract rows (*.json) are
// the contracts source's (indexer/source/contracts).
func LoadDir(fsys fs.FS, dir string, cw *entity.Crosswalk) (*Corpus, []error) {
	c, errs := readDir(fsys, dir)
	c.Link(cw)
	return c, errs
}

func readDir(fsys fs.FS, dir string) (*Corpus, []error) {
	c := &Corpus{}
	var errs []error
	var names []string
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		lower := strings.ToLower(d.Name())
		switch {
		case strings.HasSuffix(lower, ".request.xml"):
		case strings.HasSuffix(lower, ".xml"), strings.HasSuffix(lower, ".json"):
			names = append(names, p)
		}
		return nil
	})
	if err != nil {
		return c, []error{fmt.Errorf("checkbook: %s: %w", dir, err)}
	}
	sort.Strings(names)
	contractsByID := map[string]record.Contract{}
	paymentsByID := map[string]procure.Payment{}
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		rep := FileReport{File: name}
		parse := ParseResponse
		if strings.HasSuffix(strings.ToLower(name), ".json") {
			parse = ParseSpendingJSON
		}
		res, err := parse(data)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
			continue
		}
		rep.Source, rep.TypeOfData, rep.RecordCount, rep.Repairs = Source, res.Request.TypeOfData, res.RecordCount, res.Repairs
		rep.Transactions, rep.Rejected = len(res.Transactions), len(res.Rejected)
		rows, ferrs := ReadResponse(res, name, time.Time{})
		observed := rows.latestDate()
		for _, c := range rows.Contracts {
			c.ObservedAt = observed
			contractsByID[c.ID] = c
		}
		for _, p := range rows.Payments {
			p.ObservedAt = observed
			paymentsByID[p.ID] = p
		}
		rep.ObservedAt, rep.Rows, rep.Errors = observed, rows.Len(), len(ferrs)
		errs = append(errs, ferrs...)
		c.Files = append(c.Files, rep)
	}
	for _, k := range slices.Sorted(maps.Keys(contractsByID)) {
		c.Contracts = append(c.Contracts, contractsByID[k])
	}
	for _, k := range slices.Sorted(maps.Keys(paymentsByID)) {
		c.Payments = append(c.Payments, paymentsByID[k])
	}
	return c, errs
}

// latestDate is the latest date of the rows (a contract's registration or
// received date, a payment's date), or zero.
func (r Rows) latestDate() time.Time {
	var t time.Time
	later := func(d time.Time) {
		if d.After(t) {
			t = d
		}
	}
	for _, c := range r.Contracts {
		later(c.RegisteredOn)
		later(c.ReceivedOn)
	}
	for _, p := range r.Payments {
		later(p.Date)
	}
	return t
}
