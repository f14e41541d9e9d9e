// Package civillist reads DCAS civil-service exam and list rows: the
// annual exam schedule (NYC Open Data 4ptz-hmtc, SODA JSON), OASys active
// exams (GetActiveExams answers), eligible-list utilization (qjzt-ytn9,
// Local Law 50 annual report rows, in a cityscroll wrapper) and exam-level
// civil-service list aggregates (cityscroll's SoQL group-by over
// vx8i-nprf). Values are kept as printed (exam numbers and title codes
// are never padded); no per-candidate row is read.
package civillist

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/people"
)

// Source names civil-service records.
const (
	Source = "civillist"
	Label  = "DCAS civil-service exams and eligible lists (NYC Open Data 4ptz-hmtc, qjzt-ytn9, vx8i-nprf aggregates; OASys active exams)"
)

// Dataset labels.
var datasetLabels = map[string]string{
	"4ptz-hmtc": "DCAS annual exam schedule (NYC Open Data 4ptz-hmtc)",
	"oasys":     "DCAS OASys active exams (GetActiveExams)",
	"qjzt-ytn9": "Annual City Council report on eligible list utilization, Local Law 50 of 2004 (NYC Open Data qjzt-ytn9), via cityscroll",
	"vx8i-nprf": "Civil service list exam-level aggregates (cityscroll's group-by over NYC Open Data vx8i-nprf)",
}

// Batch is what a read gives.
type Batch struct {
	Records []people.CivilRecord
	Read    int
	Merged  int
}

// ReadDir reads every civil-service file under dir, recognised by its
// dataset prefix; a bad row is rejected with its reason.
func ReadDir(fsys fs.FS, dir string) (Batch, []error) {
	var out Batch
	var errs []error
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return out, []error{err}
	}
	seen := map[string]int{} // id → index in out.Records
	add := func(c people.CivilRecord) {
		c.Source = Source
		c.SourceLabel = datasetLabels[c.Dataset]
		if i, ok := seen[c.ID]; ok {
			out.Records[i].Repeats++
			out.Merged++
			return
		}
		seen[c.ID] = len(out.Records)
		out.Records = append(out.Records, c)
	}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".json") {
			continue
		}
		data, err := fs.ReadFile(fsys, path.Join(dir, name))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		var n int
		var ferrs []error
		switch {
		case strings.HasPrefix(name, "4ptz-hmtc"):
			n, ferrs = readSchedule(data, name, add)
		case strings.HasPrefix(name, "oasys"):
			n, ferrs = readOASys(data, name, add)
		case strings.HasPrefix(name, "qjzt-ytn9"):
			n, ferrs = readUtilization(data, name, add)
		case strings.HasPrefix(name, "vx8i-nprf"):
			n, ferrs = readAggregates(data, name, add)
		default:
			continue
		}
		out.Read += n
		errs = append(errs, ferrs...)
	}
	return out, errs
}

// fields reads a JSON object's values as printed: strings as they are,
// other values as their JSON text (null left out).
func fields(o map[string]json.RawMessage) map[string]string {
	out := map[string]string{}
	for k, v := range o {
		var s string
		if json.Unmarshal(v, &s) == nil {
			out[k] = s
			continue
		}
		if t := string(bytes.TrimSpace(v)); t != "null" {
			var c bytes.Buffer
			if json.Compact(&c, v) == nil {
				t = c.String()
			}
			out[k] = t
		}
	}
	return out
}

// day reads a SODA floating timestamp or a date ("2026-07-01T00:00:00.000",
// "2026-07-01T00:00:00", "2026-07-01") as its calendar day.
func day(s string) string {
	s = strings.TrimSpace(s)
	if len(s) < 10 {
		return ""
	}
	if _, err := time.Parse("2006-01-02", s[:10]); err != nil {
		return ""
	}
	return s[:10]
}

func objects(data []byte) ([]map[string]json.RawMessage, error) {
	var rows []map[string]json.RawMessage
	err := json.Unmarshal(data, &rows)
	return rows, err
}

// readSchedule reads 4ptz-hmtc rows: one exam per exam number and title.
func readSchedule(data []byte, name string, add func(people.CivilRecord)) (int, []error) {
	rows, err := objects(data)
	if err != nil {
		return 0, []error{fmt.Errorf("%s: %w", name, err)}
	}
	var errs []error
	for i, o := range rows {
		f := fields(o)
		if f["exam_number"] == "" {
			errs = append(errs, fmt.Errorf("%s row %d rejected: no exam_number", name, i+1))
			continue
		}
		c := people.CivilRecord{Kind: "exam", Dataset: "4ptz-hmtc", ID: "4ptz-hmtc/" + f["exam_number"] + "/" + f["title_code"],
			ExamNumber: f["exam_number"], TitleCode: f["title_code"], Title: f["exam_title"], Category: f["open_competitive_promotion"],
			Date: day(f["application_period_start"]), DateLabel: "application period starts",
			End: day(f["application_period_end_date"]), EndLabel: "application period ends", Fields: f}
		if d := day(f["data_current_as_of"]); d != "" {
			c.Notes = append(c.Notes, "the schedule says its data is current as of "+d)
		}
		add(c)
	}
	return len(rows), errs
}

// readOASys reads a GetActiveExams answer in cityscroll's wrapper; rows
// cityscroll kept from an earlier fetch (retained_prior_mapped, the short
// key set) say so.
func readOASys(data []byte, name string, add func(people.CivilRecord)) (int, []error) {
	var w struct {
		FetchedAtUTC string                       `json:"fetched_at_utc"`
		Retained     bool                         `json:"retained_prior_mapped"`
		Payload      []map[string]json.RawMessage `json:"payload"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return 0, []error{fmt.Errorf("%s: %w", name, err)}
	}
	at, _ := time.Parse(time.RFC3339, w.FetchedAtUTC)
	var errs []error
	for i, o := range w.Payload {
		f := fields(o)
		if f["examId"] == "" || f["examNumber"] == "" {
			errs = append(errs, fmt.Errorf("%s row %d rejected: no examId or examNumber", name, i+1))
			continue
		}
		cat := "Open Competitive"
		if f["isPromotional"] == "true" {
			cat = "Promotional"
		}
		c := people.CivilRecord{Kind: "exam", Dataset: "oasys", ID: "oasys/" + f["examId"], ExamNumber: f["examNumber"], Title: f["title"],
			Category: cat, Date: day(f["filingStart"]), DateLabel: "filing starts", End: day(f["filingEnd"]), EndLabel: "filing ends",
			URL: f["noeUrl"], ObservedAt: at, Fields: f}
		c.Notes = append(c.Notes, "examId "+f["examId"]+" is OASys's id, not the DCAS exam number")
		if _, full := o["updatedOn"]; w.Retained && !full {
			c.Notes = append(c.Notes, "kept by the publisher of this file from an earlier fetch, not from the answer of "+day(w.FetchedAtUTC))
		}
		add(c)
	}
	return len(w.Payload), errs
}

// readUtilization reads qjzt-ytn9 rows in cityscroll's wrapper. The
// annual report re-lists a list each year with no report year in the row:
// rows of one list that differ are kept apart (id: the list and a hash of
// the row), identical rows are folded (Repeats).
func readUtilization(data []byte, name string, add func(people.CivilRecord)) (int, []error) {
	var rows []struct {
		ExamNumber string                     `json:"exam_number"`
		Row        map[string]json.RawMessage `json:"source_row"`
	}
	if err := json.Unmarshal(data, &rows); err != nil {
		return 0, []error{fmt.Errorf("%s: %w", name, err)}
	}
	var errs []error
	for i, r := range rows {
		f := fields(r.Row)
		if f["exam_no"] == "" {
			errs = append(errs, fmt.Errorf("%s row %d rejected: no exam_no", name, i+1))
			continue
		}
		c := people.CivilRecord{Kind: "list", Dataset: "qjzt-ytn9",
			ID:         "qjzt-ytn9/" + f["exam_no"] + "/" + f["list_title_code"] + "/" + f["list_agency_code"] + "/" + day(f["list_est_date"]) + "/" + rowHash(f),
			ExamNumber: f["exam_no"], TitleCode: f["list_title_code"], Title: f["title_description"], Category: f["o_c_or_prom"],
			Date: day(f["list_est_date"]), DateLabel: "list established", AgencyCode: f["list_agency_code"], AgencyName: f["agency_desc"], Fields: f,
			Notes: []string{"an annual report row: the report year is not printed, so rows of one list from several reports are kept apart"}}
		add(c)
	}
	return len(rows), errs
}

// rowHash is a short hash of a row's fields, in key order.
func rowHash(f map[string]string) string {
	keys := make([]string, 0, len(f))
	for k := range f {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	h := sha256.New()
	for _, k := range keys {
		fmt.Fprintf(h, "%s\x00%s\x00", k, f[k])
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// readAggregates reads cityscroll's exam-level list aggregates.
func readAggregates(data []byte, name string, add func(people.CivilRecord)) (int, []error) {
	rows, err := objects(data)
	if err != nil {
		return 0, []error{fmt.Errorf("%s: %w", name, err)}
	}
	var errs []error
	for i, o := range rows {
		f := fields(o)
		if f["exam_number"] == "" {
			errs = append(errs, fmt.Errorf("%s row %d rejected: no exam_number", name, i+1))
			continue
		}
		c := people.CivilRecord{Kind: "list", Dataset: "vx8i-nprf", ID: "vx8i-nprf/" + f["exam_number"], ExamNumber: f["exam_number"],
			Date: day(f["established_date"]), DateLabel: "list established", End: day(f["extension_date"]), EndLabel: "list extended to", Fields: f,
			Notes: []string{"an aggregate derived by a third party (cityscroll) from the active civil-service list: list_count candidates, not the candidates"}}
		if c.Date == "" {
			c.DateLabel = ""
		}
		if c.End == "" {
			c.EndLabel = ""
		}
		add(c)
	}
	return len(rows), errs
}
