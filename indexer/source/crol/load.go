package crol

import (
	"bytes"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/indexer/link"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
)

// ReadFile reads one file by its extension (.psv, .json, .csv; a .csv whose
// header starts with Req_ID is the 2013 DCAS export, ReadDCASCSV, named
// with the code tables in lookups/ beside it). Rows that
// carry no observation time get the latest start date in the file.
func ReadFile(fsys fs.FS, name string) ([]Row, []error) {
	return ReadFileBefore(fsys, name, time.Time{})
}

// ReadFileBefore is ReadFile with a future cutoff (record.FutureCutoff;
// zero: none): rows that carry no observation time get the latest start
// date in the file before it, so one row dated 2099 does not make the
// file observed in 2099.
func ReadFileBefore(fsys fs.FS, name string, cutoff time.Time) ([]Row, []error) {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, []error{rowErr(name, 0, "%v", err)}
	}
	var rows []Row
	var errs []error
	switch strings.ToLower(path.Ext(name)) {
	case ".psv":
		rows, errs = ReadPSV(bytes.NewReader(data), name)
	case ".json":
		rows, errs = parseJSON(data, name)
	case ".csv":
		if !isDCASCSV(data) {
			rows, errs = ReadCSV(bytes.NewReader(data), name)
			break
		}
		lk, err := ReadDCASLookups(fsys, path.Join(path.Dir(name), "lookups"))
		if err != nil {
			return nil, []error{rowErr(name, 0, "a DCAS export needs its code tables in lookups/ beside it: %v", err)}
		}
		rows, errs = ReadDCASCSV(data, name, lk)
	default:
		return nil, []error{rowErr(name, 0, "unknown file type %q (want .psv, .json or .csv)", path.Ext(name))}
	}
	var latest time.Time
	for _, r := range rows {
		if t := record.ParseDate(r.Fields["startdate"]); t.After(latest) && (cutoff.IsZero() || t.Before(cutoff)) {
			latest = t
		}
	}
	for i := range rows {
		if rows[i].ObservedAt.IsZero() {
			rows[i].ObservedAt = latest
		}
	}
	return rows, errs
}

// FileReport says what one file contributed.
type FileReport struct {
	File       string    `json:"file"`
	Format     string    `json:"format"`
	Rows       int       `json:"rows"`
	Errors     int       `json:"errors"`
	ObservedAt time.Time `json:"observed_at,omitzero"`
	FirstStart string    `json:"first_start_date,omitempty"` // YYYY-MM-DD
	LastStart  string    `json:"last_start_date,omitempty"`
}

// Corpus is a loaded directory: one notice per request id.
type Corpus struct {
	Notices []record.Notice // sorted by RequestID
	Files   []FileReport
	// Merged counts rows that were folded into another observation of the
	// same request id (Rows summed over Files = len(Notices) + Merged +
	// rows that failed to normalize).
	Merged   int
	Coverage record.SourceCoverage
}

// LoadDir reads every .psv, .json and .csv file under dir (recursively,
// skipping lookups/ directories, README files and anything else), normalizes
// the rows and returns one notice per request id. See Scan for the rule
// applied when a request id appears more than once.
func LoadDir(fsys fs.FS, dir string, cw *entity.Crosswalk) ([]record.Notice, []error) {
	c, errs := Scan(fsys, dir, cw)
	return c.Notices, errs
}

// Scan is LoadDir with per-file counts and coverage: Read, then the link
// stage (indexer/link) with cw, for callers outside the indexer pipeline
// (which reads and links as two stages).
func Scan(fsys fs.FS, dir string, cw *entity.Crosswalk) (*Corpus, []error) {
	c, errs := Read(fsys, dir)
	link.Linker{Crosswalk: cw}.Notices(c.Notices)
	return c, errs
}

// Read reads every file under dir as LoadDir does into raw notices
// (NormalizeRaw: agency ids and vendor stems are the link stage's), with
// per-file counts and coverage.
//
// Rows change in place at the source, so a request id may appear in several
// files. Its observations are ordered by Row.ObservedAt (then file name,
// then line) and folded oldest to newest: a newer observation's values win,
// and a column the newer observation was not asked for (another $select)
// keeps the older value. A column the newer observation was asked for but
// does not have was emptied at the source and is dropped.
func Read(fsys fs.FS, dir string) (*Corpus, []error) {
	return ReadBefore(fsys, dir, time.Time{})
}

// ReadBefore is Read with a future cutoff for the files' observation
// times (ReadFileBefore).
func ReadBefore(fsys fs.FS, dir string, cutoff time.Time) (*Corpus, []error) {
	c := &Corpus{}
	var errs []error
	var all []Row
	walkErr := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			errs = append(errs, rowErr(p, 0, "%v", err))
			return nil
		}
		if d.IsDir() {
			if p != dir && strings.EqualFold(d.Name(), "lookups") {
				return fs.SkipDir
			}
			return nil
		}
		switch strings.ToLower(path.Ext(p)) {
		case ".psv", ".json", ".csv":
		default:
			return nil
		}
		rows, ferrs := ReadFileBefore(fsys, p, cutoff)
		errs = append(errs, ferrs...)
		rep := FileReport{File: p, Rows: len(rows), Errors: len(ferrs)}
		for _, r := range rows {
			rep.Format = r.Format
			if r.ObservedAt.After(rep.ObservedAt) {
				rep.ObservedAt = r.ObservedAt
			}
			if t := record.ParseDate(r.Fields["startdate"]); !t.IsZero() {
				d := t.Format(time.DateOnly)
				if rep.FirstStart == "" || d < rep.FirstStart {
					rep.FirstStart = d
				}
				if d > rep.LastStart {
					rep.LastStart = d
				}
			}
		}
		c.Files = append(c.Files, rep)
		all = append(all, rows...)
		return nil
	})
	if walkErr != nil {
		errs = append(errs, rowErr(dir, 0, "%v", walkErr))
	}

	merged, n := MergeRows(all)
	c.Merged = n
	var observed time.Time
	for _, r := range merged {
		note, err := NormalizeRaw(r)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		c.Notices = append(c.Notices, note)
		if r.ObservedAt.After(observed) {
			observed = r.ObservedAt
		}
	}
	for _, f := range c.Files {
		if f.ObservedAt.After(observed) {
			observed = f.ObservedAt
		}
	}
	c.Coverage = Coverage(c.Notices, observed)
	return c, errs
}

// MergeRows folds rows with the same request id into one row each, in the
// order described at Scan. Rows without a request id are passed through
// (Normalize reports them). It returns the rows sorted by request id and
// the number of rows folded away.
func MergeRows(rows []Row) ([]Row, int) {
	type obs struct {
		row Row
		seq int
	}
	byID := map[string][]obs{}
	var out []Row
	for i, r := range rows {
		id := strings.TrimSpace(r.Fields["requestid"])
		if id == "" {
			out = append(out, r)
			continue
		}
		byID[id] = append(byID[id], obs{r, i})
	}
	folded := 0
	ids := make([]string, 0, len(byID))
	for id := range byID {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		os := byID[id]
		sort.SliceStable(os, func(i, j int) bool {
			a, b := os[i].row, os[j].row
			if !a.ObservedAt.Equal(b.ObservedAt) {
				return a.ObservedAt.Before(b.ObservedAt)
			}
			if a.File != b.File {
				return a.File < b.File
			}
			return os[i].seq < os[j].seq
		})
		cur := os[0].row
		for _, o := range os[1:] {
			cur = fold(cur, o.row)
			folded++
		}
		out = append(out, cur)
	}
	return out, folded
}

// fold returns newer with the values it does not speak for taken from older.
func fold(older, newer Row) Row {
	f := make(map[string]string, len(older.Fields)+len(newer.Fields))
	for k, v := range older.Fields {
		if !newer.covers(k) {
			f[k] = v
		}
	}
	for k, v := range newer.Fields {
		f[k] = v
	}
	var d map[string]string
	if len(older.Defaults)+len(newer.Defaults) > 0 {
		d = map[string]string{}
		for k, v := range older.Defaults {
			d[k] = v
		}
		for k, v := range newer.Defaults {
			d[k] = v
		}
	}
	out := newer
	out.Fields, out.Defaults = f, d
	// The fold speaks for a column when either observation does.
	out.AllColumns = older.AllColumns || newer.AllColumns
	out.Columns = nil
	if !out.AllColumns {
		seen := map[string]bool{}
		for _, c := range append(append([]string(nil), older.Columns...), newer.Columns...) {
			if !seen[c] {
				seen[c] = true
				out.Columns = append(out.Columns, c)
			}
		}
	}
	return out
}

// Coverage summarizes notices as the crol source's coverage: first and last
// start dates, record and passage counts.
func Coverage(notices []record.Notice, observedAt time.Time) record.SourceCoverage {
	cov := record.SourceCoverage{
		Source:     record.SourceCROL,
		Label:      "City Record Online",
		RecordType: "notice",
		ObservedAt: observedAt,
		Records:    len(notices),
	}
	for _, n := range notices {
		cov.Passages += len(record.SplitPassages(n.RequestID, n.Body))
		if n.StartDate.IsZero() {
			continue
		}
		d := n.StartDate.Format(time.DateOnly)
		if cov.FirstSourceDate == "" || d < cov.FirstSourceDate {
			cov.FirstSourceDate = d
		}
		if d > cov.LastSourceDate {
			cov.LastSourceDate = d
		}
	}
	return cov
}
