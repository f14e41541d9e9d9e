package crol

import (
	"encoding/json"
	"github.com/recordwatch/recordwatch/internal/golden"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
)

// testCrosswalk links a few real short forms seen in testdata/raw to
// canonical names, so the golden files show both linked and own ids.
func testCrosswalk() *entity.Crosswalk {
	return entity.NewCrosswalk(
		[]string{
			"Department of Citywide Administrative Services",
			"Department of Design and Construction",
			"Department of Homeless Services",
			"Board of Standards and Appeals",
		},
		map[string]string{
			"Citywide Administrative Services": "Department of Citywide Administrative Services",
			"Design and Construction":          "Department of Design and Construction",
			"DEPT. OF HOMELESS SERVICES":       "Department of Homeless Services",
		},
	)
}

type goldenFile struct {
	File     string            `json:"file"`
	Rows     int               `json:"rows"`
	Notices  []record.Notice   `json:"notices"`
	Passages []record.Passage  `json:"passages"`
	Errors   []string          `json:"errors,omitempty"`
	Defaults map[string]string `json:"defaults,omitempty"`
}

// TestGolden normalizes the real raw rows in testdata/raw and compares the
// result with testdata/golden (go test -run TestGolden -update rewrites).
func TestGolden(t *testing.T) {
	names, err := filepath.Glob("testdata/raw/*")
	if err != nil || len(names) == 0 {
		t.Fatalf("no raw files: %v", err)
	}
	cw := testCrosswalk()
	for _, path := range names {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			rows, errs := ReadFile(os.DirFS("testdata/raw"), name)
			g := goldenFile{File: name, Rows: len(rows), Notices: []record.Notice{}, Passages: []record.Passage{}}
			for _, e := range errs {
				g.Errors = append(g.Errors, e.Error())
			}
			if len(rows) > 0 {
				g.Defaults = rows[0].Defaults
			}
			for _, r := range rows {
				n, err := Normalize(r, cw)
				if err != nil {
					g.Errors = append(g.Errors, err.Error())
					continue
				}
				g.Notices = append(g.Notices, n)
				g.Passages = append(g.Passages, Passages(n)...)
			}
			got, err := json.MarshalIndent(g, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden.Assert(t, filepath.Join("testdata", "golden", strings.TrimSuffix(name, filepath.Ext(name))+".golden.json"), got)
			if len(g.Errors) > 0 {
				t.Errorf("errors: %v", g.Errors)
			}
		})
	}
}
