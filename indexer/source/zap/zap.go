// Package zap reads the NYC Department of City Planning's land-use records
// (Zoning Application Portal projects, and the MapPLUTO centroids of their
// lots). Today it reads map locations of tax lots (BBLs: borough, block
// and lot) into lot locations (land.LotLocation), so the property-locations view can put
// extracted BBLs on a map "where available":
//
//   - MapPLUTO centroids ({"<bbl>": {"lat": …, "lon": …}}, as materialized
//     by cityscroll from the DCP PLUTO file for ZAP project lots): one Point
//     per BBL, source "mappluto";
//   - ZAP portal project answers (JSON:API, data.attributes.bbls and
//     bbl-featurecollection): the project's lots as one MultiPolygon, which
//     the portal gives for the project as a whole, not per lot; every BBL of
//     the project gets that geometry, source "zap", labelled with the
//     project.
//
// Only lots some bundled file locates are covered; a BBL without a location
// is shown without geometry. MapPLUTO stays here rather than in a package
// of its own: the centroids bundled are those of ZAP project lots, as
// cityscroll materialized them for the projects, and they are read from
// the same directory. Lot ids and sources ("mappluto:lot:<bbl>",
// "zap:lot:<project>:<bbl>") are those the lots package wrote.
package zap

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/record"
)

// Sources and labels.
const (
	CentroidSource = "mappluto"
	CentroidLabel  = "MapPLUTO lot centroids of ZAP project lots (DCP PLUTO, as materialized by cityscroll)"
	ZAPSource      = "zap"
	ZAPLabel       = "ZAP portal project lot geometry (NYC Department of City Planning)"
)

var bblRE = regexp.MustCompile(`^[1-5][0-9]{9}$`)

// ValidBBL reports whether s is a 10-digit BBL with a borough code 1–5.
func ValidBBL(s string) bool { return bblRE.MatchString(s) }

// ReadCentroids reads a MapPLUTO centroid lookup.
func ReadCentroids(data []byte, file string) ([]land.LotLocation, []error) {
	var m map[string]struct {
		Lat *float64 `json:"lat"`
		Lon *float64 `json:"lon"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, []error{fmt.Errorf("%s: not a BBL centroid lookup: %w", file, err)}
	}
	var out []land.LotLocation
	var errs []error
	for bbl, p := range m {
		if !ValidBBL(bbl) || p.Lat == nil || p.Lon == nil {
			errs = append(errs, fmt.Errorf("%s: %q is not a BBL with a latitude and longitude", file, bbl))
			continue
		}
		geom, _ := json.Marshal(map[string]any{"type": "Point", "coordinates": []float64{*p.Lon, *p.Lat}})
		out = append(out, land.LotLocation{
			ID: CentroidSource + ":lot:" + bbl, Source: CentroidSource, SourceLabel: CentroidLabel,
			BBL: bbl, Geometry: geom, Title: "lot centroid", Raw: map[string]string{"file": file},
		})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, errs
}

// ReadZAPProject reads a ZAP portal project answer.
func ReadZAPProject(data []byte, file string) ([]land.LotLocation, []error) {
	var doc struct {
		Data struct {
			ID         string `json:"id"`
			Attributes struct {
				Name0       string          `json:"dcp-name"`
				Name        string          `json:"dcp-projectname"`
				Borough     string          `json:"dcp-borough"`
				BBLs        []string        `json:"bbls"`
				Features    json.RawMessage `json:"bbl-featurecollection"`
				LastMileStn string          `json:"dcp-lastmilestonedate"`
			} `json:"attributes"`
		} `json:"data"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, []error{fmt.Errorf("%s: not a ZAP portal project: %w", file, err)}
	}
	a := doc.Data.Attributes
	id := doc.Data.ID // the project id (2024Q0292); dcp-projectid is a CRM GUID
	if id == "" {
		id = a.Name0
	}
	var fc struct {
		Features []struct {
			Geometry json.RawMessage `json:"geometry"`
		} `json:"features"`
	}
	_ = json.Unmarshal(a.Features, &fc)
	var geom json.RawMessage
	if len(fc.Features) == 1 {
		geom = fc.Features[0].Geometry
	}
	observed := record.ParseDate(strings.TrimSuffix(a.LastMileStn, "Z"))
	if t, err := time.Parse(time.RFC3339, a.LastMileStn); err == nil {
		observed = t
	}
	var out []land.LotLocation
	var errs []error
	for _, bbl := range a.BBLs {
		if !ValidBBL(bbl) {
			errs = append(errs, fmt.Errorf("%s: %q is not a BBL", file, bbl))
			continue
		}
		out = append(out, land.LotLocation{
			ID: ZAPSource + ":lot:" + id + ":" + bbl, Source: ZAPSource, SourceLabel: ZAPLabel,
			BBL: bbl, Geometry: geom, Title: strings.TrimSpace(a.Name), Status: "project " + id, ObservedAt: observed,
			URL: "https://zap.planning.nyc.gov/projects/" + id,
			Raw: map[string]string{"file": file, "project_id": id, "borough": a.Borough, "geometry_scope": "all lots of the project"},
		})
	}
	return out, errs
}

// LoadDir reads every centroid lookup (a JSON object keyed by BBL) and ZAP
// portal project (a JSON:API document) under dir.
func LoadDir(fsys fs.FS, dir string) ([]land.LotLocation, []error) {
	var out []land.LotLocation
	errs := eachJSON(fsys, dir, func(p string, data []byte) []error {
		var probe map[string]json.RawMessage
		if json.Unmarshal(data, &probe) != nil {
			return nil // not an object: not a lot file
		}
		var es []land.LotLocation
		var ferrs []error
		switch {
		case probe["data"] != nil:
			es, ferrs = ReadZAPProject(data, p)
		case probe["File"] != nil || probe["History"] != nil:
			return nil // a Council land-use item (ReadLand): no lot location
		default:
			es, ferrs = ReadCentroids(data, p)
		}
		out = append(out, es...)
		return ferrs
	})
	return out, errs
}

// eachJSON gives read each .json file under dir with its path and bytes,
// and gathers the errors it returns, a file's that cannot be read and
// the walk's own.
func eachJSON(fsys fs.FS, dir string, read func(p string, data []byte) []error) []error {
	var errs []error
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(strings.ToLower(p), ".json") {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		errs = append(errs, read(p, data)...)
		return nil
	})
	if err != nil {
		errs = append(errs, err)
	}
	return errs
}
