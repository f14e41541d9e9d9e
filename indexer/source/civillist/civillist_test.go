package civillist

import (
	"os"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/people"
)

// The real civil-service files: every exam and list row becomes a record
// with its date and source; exam numbers and title codes stay as printed;
// identical utilization rows are folded, differing rows of one list kept
// apart; OASys rows kept from an earlier fetch say so.
func TestReadRealCivilServiceRows(t *testing.T) {
	b, errs := ReadDir(os.DirFS("../../../testdata/sample"), "civillist")
	if len(errs) != 0 {
		t.Fatalf("errors: %v", errs)
	}
	by := map[string]int{}
	recs := map[string]people.CivilRecord{}
	for _, c := range b.Records {
		by[c.Dataset]++
		recs[c.ID] = c
		if c.Source != Source || c.SourceLabel == "" || (c.Date == "" && c.Dataset != "vx8i-nprf") {
			t.Fatalf("record without source or date: %+v", c)
		}
	}
	// 463 utilization rows hold 365 distinct rows
	if by["4ptz-hmtc"] != 104 || by["oasys"] != 18 || by["qjzt-ytn9"] != 365 || by["vx8i-nprf"] != 639 || b.Merged != 463-365 || b.Read != 104+18+463+639 {
		t.Fatalf("by dataset %v merged %d read %d", by, b.Merged, b.Read)
	}
	e := recs["4ptz-hmtc/7006/20210"]
	if e.Kind != "exam" || e.Title != "Assistant Civil Engineer" || e.Date != "2026-07-01" || e.End != "2026-07-21" || e.Category != "Open Competitive" {
		t.Fatalf("schedule row: %+v", e)
	}
	if a := recs["vx8i-nprf/0111"]; a.ExamNumber != "0111" || a.Date != "2022-09-07" || a.Fields["list_count"] != "301" {
		t.Fatalf("aggregate: %+v", a)
	}
	o := recs["oasys/9619"]
	if o.ExamNumber != "6125" || o.Date != "2026-06-15" || !strings.Contains(strings.Join(o.Notes, " "), "earlier fetch") {
		t.Fatalf("retained OASys row: %+v", o)
	}
	if o := recs["oasys/"+findOASys(b, "7006")]; o.Date != "2026-07-01" || strings.Contains(strings.Join(o.Notes, " "), "earlier fetch") {
		t.Fatalf("OASys row of the answer: %+v", o)
	}
	police := 0
	for _, c := range b.Records {
		if c.Dataset == "qjzt-ytn9" && c.ExamNumber == "7323" {
			police++
		}
		if c.Dataset == "4ptz-hmtc" && c.TitleCode == "4340" {
			if len(c.TitleCode) != 4 {
				t.Fatalf("title code padded: %+v", c)
			}
		}
	}
	if police == 0 {
		t.Fatal("the Police Officer list (exam 7323) is missing")
	}
}

func findOASys(b Batch, exam string) string {
	for _, c := range b.Records {
		if c.Dataset == "oasys" && c.ExamNumber == exam {
			return c.Fields["examId"]
		}
	}
	return ""
}
