package crol

import (
	"bytes"
	"errors"
	"testing"

	"github.com/recordwatch/recordwatch/internal/entity"
)

// checkRows: a reader never panics, every error it reports names its file
// (a *RowError), and every row it returns normalizes without panicking,
// to a notice or a *RowError.
func checkRows(t *testing.T, rows []Row, errs []error) {
	t.Helper()
	for _, err := range errs {
		var re *RowError
		if !errors.As(err, &re) || re.File != "fuzz" || re.Err == nil {
			t.Fatalf("error %v (%T) is not a *RowError naming the file", err, err)
		}
	}
	cw := entity.DefaultCrosswalk()
	for _, r := range rows {
		if _, err := Normalize(r, cw); err != nil {
			var re *RowError
			if !errors.As(err, &re) {
				t.Fatalf("normalize: error %v (%T) is not a *RowError", err, err)
			}
		}
	}
	if _, merged := MergeRows(rows); merged < 0 {
		t.Fatal("negative merge count")
	}
}

// FuzzReadPSV: the DCAS pipe-separated export reader.
func FuzzReadPSV(f *testing.F) {
	f.Add([]byte("RequestID|StartDate\n20141010018|2014-10-20 00:00:00\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, errs := ReadPSV(bytes.NewReader(data), "fuzz")
		checkRows(t, rows, errs)
	})
}

// FuzzReadJSON: the Socrata JSON reader (arrays and wrapped exports).
func FuzzReadJSON(f *testing.F) {
	f.Add([]byte(`[{"request_id":"20141010018","start_date":"2014-10-20T00:00:00.000"}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, errs := ReadJSON(bytes.NewReader(data), "fuzz")
		checkRows(t, rows, errs)
	})
}

// FuzzReadCSV: the Socrata CSV export reader.
func FuzzReadCSV(f *testing.F) {
	f.Add([]byte("RequestID,StartDate\n20141010018,10/20/2014\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, errs := ReadCSV(bytes.NewReader(data), "fuzz")
		checkRows(t, rows, errs)
	})
}
