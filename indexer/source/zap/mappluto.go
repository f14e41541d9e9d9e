package zap

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/fetch"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/record"
)

// MapPLUTO live: NYC Open Data's MapPLUTO (64uk-42ks), one row per tax
// lot, asked for the BBLs held only (those no lot location places yet),
// in batches of `$where=bbl in (…)`. Each row found is the lot's centroid
// (its latitude and longitude), stored as the lot location the centroid
// file gives ("mappluto:lot:<bbl>", source mappluto), with method and
// confidence; a BBL asked for and not answered is stored without
// geometry, with the reason (land.LotNotInPLUTO), so the pages list it.
const (
	PLUTOEndpoint = "https://data.cityofnewyork.us/resource/64uk-42ks.json"
	PLUTOLabel    = "MapPLUTO tax lots (NYC Open Data 64uk-42ks, NYC Department of City Planning)"
	// PLUTOSelect are the columns asked for.
	PLUTOSelect = "bbl,latitude,longitude,borough,block,lot,cd,address"
	// DefaultPLUTOBatch is how many BBLs one request asks for (the
	// request's address stays well under URL limits: 11 characters a
	// BBL); DefaultPLUTOMax bounds the BBLs one run asks for.
	DefaultPLUTOBatch = 100
	DefaultPLUTOMax   = 2000
)

// PLUTOFetcher asks MapPLUTO for BBLs.
type PLUTOFetcher struct {
	Client   *fetch.Client // nil: fetch.New() (timeouts, retries with backoff)
	URL      string        // PLUTOEndpoint when empty (tests point it at httptest)
	AppToken string        // sent as X-App-Token when set
	Batch    int           // BBLs per request: DefaultPLUTOBatch when 0
	Max      int           // BBLs per run: DefaultPLUTOMax when 0
	Now      func() time.Time
	Progress func(what string, done int)
}

// PLUTOFetch is what one run read: the lots located, the lots asked for
// and not located (each with its reason), how many BBLs were asked, how
// many rows answered, and how many BBLs were left for a later run (past
// Max).
type PLUTOFetch struct {
	Lots       []land.LotLocation
	Unresolved []land.LotLocation
	Asked      int
	Rows       int
	Left       int
	ObservedAt time.Time
}

// Fetch asks MapPLUTO for bbls (valid BBLs only, each once, at most Max),
// a batch at a time. A batch that fails after the client's retries
// leaves its BBLs unresolved with the failure as the reason, and the run
// goes on; every batch failing is the run's error.
func (f *PLUTOFetcher) Fetch(ctx context.Context, bbls []string) (PLUTOFetch, []error, error) {
	client := f.Client
	if client == nil {
		client = fetch.New()
	}
	now := time.Now
	if f.Now != nil {
		now = f.Now
	}
	batch, max := f.Batch, f.Max
	if batch <= 0 {
		batch = DefaultPLUTOBatch
	}
	if max <= 0 {
		max = DefaultPLUTOMax
	}
	base := f.URL
	if base == "" {
		base = PLUTOEndpoint
	}
	out := PLUTOFetch{ObservedAt: now()}
	var errs []error
	var ask []string
	seen := map[string]bool{}
	for _, b := range bbls {
		switch {
		case !ValidBBL(b):
			errs = append(errs, fmt.Errorf("mappluto: %q is not a BBL; not asked", b))
		case !seen[b]:
			seen[b] = true
			ask = append(ask, b)
		}
	}
	if len(ask) > max {
		out.Left = len(ask) - max
		ask = ask[:max]
	}
	header := http.Header{"Accept": {"application/json"}}
	if f.AppToken != "" {
		header.Set("X-App-Token", f.AppToken)
	}
	failed, batches := 0, 0
	for start := 0; start < len(ask); start += batch {
		part := ask[start:min(start+batch, len(ask))]
		batches++
		out.Asked += len(part)
		found := map[string]land.LotLocation{}
		q := url.Values{"$select": {PLUTOSelect}, "$where": {"bbl in (" + strings.Join(part, ",") + ")"}, "$order": {"bbl"}}
		// one row per lot at most: a page one larger than the batch is its whole answer
		err := fetch.SODA{Client: client, URL: base, Query: q, Size: batch + 1, Header: header}.Each(ctx, func(p fetch.SODAPage) (int, error) {
			lots, n, rerrs := ReadPLUTORows(p.Body, p.URL, out.ObservedAt)
			if n < 0 {
				return 0, rerrs[0]
			}
			errs = append(errs, rerrs...)
			for _, l := range lots {
				found[l.BBL] = l
			}
			out.Rows += n
			return n, nil
		})
		if err != nil {
			if ctx.Err() != nil {
				return out, errs, ctx.Err()
			}
			failed++
			why := land.LotNoAnswerNote(failure(err))
			errs = append(errs, fmt.Errorf("mappluto: BBLs %s to %s: %w", part[0], part[len(part)-1], err))
			for _, b := range part {
				out.Unresolved = append(out.Unresolved, unresolvedLot(b, why, out.ObservedAt))
			}
			continue
		}
		for _, b := range part {
			if l, ok := found[b]; ok {
				out.Lots = append(out.Lots, l)
			} else {
				out.Unresolved = append(out.Unresolved, unresolvedLot(b, land.NLotNotInPLUTO, out.ObservedAt))
			}
		}
		if f.Progress != nil {
			f.Progress("mappluto", out.Asked)
		}
	}
	if failed > 0 && failed == batches {
		return out, errs, fmt.Errorf("mappluto: every request failed (%d): %w", failed, errors.Join(errs...))
	}
	return out, errs, nil
}

// failure is a short reason for a failed request (its status, or the
// transport's error), for the page that lists the lot.
func failure(err error) string {
	var se *fetch.StatusError
	if errors.As(err, &se) {
		return "HTTP " + strconv.Itoa(se.StatusCode)
	}
	return "the request failed"
}

func unresolvedLot(bbl string, why record.Note, at time.Time) land.LotLocation {
	return land.LotLocation{ID: CentroidSource + ":lot:" + bbl, Source: CentroidSource, SourceLabel: PLUTOLabel, BBL: bbl,
		Title: "lot not located", Unresolved: why.String(), UnresolvedKey: &why, AskedAt: at, ObservedAt: at}
}

// ReadPLUTORows reads one MapPLUTO answer (a JSON array of rows): each
// row with a BBL and a latitude and longitude in New York is a lot
// centroid; a row without them is rejected with the reason (the lot is
// then unresolved). n is the rows read, -1 when the answer is not a JSON
// array (errs holds why).
func ReadPLUTORows(data []byte, where string, observed time.Time) (lots []land.LotLocation, n int, errs []error) {
	var rows []map[string]any
	if err := json.Unmarshal(data, &rows); err != nil {
		return nil, -1, []error{fmt.Errorf("mappluto: %s: not a JSON array of rows: %w", where, err)}
	}
	for _, r := range rows {
		bbl := plutoBBL(str(r["bbl"]))
		lat, errLat := strconv.ParseFloat(str(r["latitude"]), 64)
		lon, errLon := strconv.ParseFloat(str(r["longitude"]), 64)
		switch {
		case !ValidBBL(bbl):
			errs = append(errs, fmt.Errorf("mappluto: %s: a row's bbl %q is not a BBL", where, str(r["bbl"])))
			continue
		case errLat != nil || errLon != nil || lat < 40.4 || lat > 41 || lon < -74.3 || lon > -73.6:
			errs = append(errs, fmt.Errorf("mappluto: %s: BBL %s has no latitude and longitude in New York City (%q, %q)", where, bbl, str(r["latitude"]), str(r["longitude"])))
			continue
		}
		geom, _ := json.Marshal(map[string]any{"type": "Point", "coordinates": []float64{lon, lat}})
		raw := map[string]string{"request": where}
		for _, k := range []string{"borough", "block", "lot", "cd", "address"} {
			if v := strings.TrimSpace(str(r[k])); v != "" {
				raw[k] = v
			}
		}
		lots = append(lots, land.LotLocation{ID: CentroidSource + ":lot:" + bbl, Source: CentroidSource, SourceLabel: PLUTOLabel, BBL: bbl,
			Geometry: geom, Title: "lot centroid", ObservedAt: observed, AskedAt: observed, Raw: raw,
			Method: land.LotMethodCentroid, Confidence: "high"})
	}
	return lots, len(rows), errs
}

// plutoBBL is a MapPLUTO bbl as 10 digits: the column is a number,
// answered as "1000730008.00000000".
func plutoBBL(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '.'); i >= 0 && strings.Trim(s[i+1:], "0") == "" {
		s = s[:i]
	}
	return s
}

// ReadPLUTODir reads saved MapPLUTO answers (JSON arrays of rows, *.json)
// under dir: the lots they locate (a file load cannot know which BBLs
// were asked, so it records none unresolved).
func ReadPLUTODir(fsys fs.FS, dir string, observed time.Time) ([]land.LotLocation, int, []error) {
	var out []land.LotLocation
	rows := 0
	errs := eachJSON(fsys, dir, func(p string, data []byte) []error {
		lots, n, rerrs := ReadPLUTORows(data, p, observed)
		if n > 0 {
			rows += n
		}
		out = append(out, lots...)
		return rerrs
	})
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, rows, errs
}
