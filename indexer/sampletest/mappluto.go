package sampletest

import (
	"encoding/json"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// PLUTOReplay answers as NYC Open Data's MapPLUTO (64uk-42ks) answers a
// `$where=bbl in (…)` request, from the rows of a replay file
// (testdata/mappluto): the rows whose BBL is asked, in BBL order, paged
// by $limit and $offset. A request without that $where is a 400, as a
// malformed query is at the source. Asked counts the BBLs asked.
type PLUTOReplay struct {
	rows []map[string]any
	mu   sync.Mutex
	// Asked are the BBLs asked, in order; Requests how many requests came.
	Asked    []string
	Requests int
}

var plutoWhereRE = regexp.MustCompile(`^bbl in \(([0-9,]+)\)$`)

// NewPLUTOReplay reads a replay file.
func NewPLUTOReplay(file string) (*PLUTOReplay, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	r := &PLUTOReplay{}
	if err := json.Unmarshal(data, &r.rows); err != nil {
		return nil, err
	}
	return r, nil
}

// AskedBBLs is a copy of the BBLs asked so far.
func (r *PLUTOReplay) AskedBBLs() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.Asked...)
}

func (r *PLUTOReplay) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	q := req.URL.Query()
	m := plutoWhereRE.FindStringSubmatch(q.Get("$where"))
	if m == nil {
		http.Error(w, `{"message":"query must be $where=bbl in (…)"}`, http.StatusBadRequest)
		return
	}
	asked := strings.Split(m[1], ",")
	r.mu.Lock()
	r.Requests++
	r.Asked = append(r.Asked, asked...)
	r.mu.Unlock()
	want := map[string]bool{}
	for _, b := range asked {
		want[b] = true
	}
	out := []map[string]any{}
	for _, row := range r.rows {
		bbl, _ := row["bbl"].(string)
		if i := strings.IndexByte(bbl, '.'); i >= 0 {
			bbl = bbl[:i]
		}
		if want[bbl] {
			out = append(out, row)
		}
	}
	off, _ := strconv.Atoi(q.Get("$offset"))
	lim, err := strconv.Atoi(q.Get("$limit"))
	if err != nil || lim <= 0 {
		lim = 1000
	}
	out = out[min(off, len(out)):min(off+lim, len(out))]
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(out)
}
