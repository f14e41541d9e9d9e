package zap

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"testing/fstest"
	"time"

	"github.com/recordwatch/recordwatch/internal/fetch"
)

// Live endpoints of the land source. The SODA resources are NYC Open Data's
// ZAP projects (hgx4-8ukb) and project BBLs (2iga-a6mk); the portal is the
// ZAP API behind zap.planning.nyc.gov (one JSON:API answer per project id,
// the shape of the bundled portal files). The portal address is the one
// the portal's own front end called when last seen; it could not be
// checked from the development machine (no network).
const (
	ProjectsEndpoint = "https://data.cityofnewyork.us/resource/hgx4-8ukb.json"
	BBLsEndpoint     = "https://data.cityofnewyork.us/resource/2iga-a6mk.json"
	PortalEndpoint   = "https://zap-api-production.herokuapp.com/projects/"
	// DefaultLandPageSize is the SODA page size.
	DefaultLandPageSize = 1000
)

// LandFetcher reads the land tables live: every page of the Open Data
// projects and project BBLs ($order=project_id, $limit/$offset), then the
// portal answers of the project ids asked for. What it reads is laid out
// as files, as the bundled sample is, for ReadLand: one reader for both.
type LandFetcher struct {
	Client      *fetch.Client // nil: fetch.New()
	ProjectsURL string        // ProjectsEndpoint when empty (tests point these at httptest)
	BBLsURL     string        // BBLsEndpoint when empty
	PortalURL   string        // PortalEndpoint when empty
	AppToken    string        // sent as X-App-Token to SODA when set
	PageSize    int           // DefaultLandPageSize when 0
	// Portal lists the project ids whose portal answers are fetched (none:
	// the Open Data tables only).
	Portal []string
	// Progress, when set, is called after each page or answer.
	Progress func(what string, done int)
	// Now stamps the fetch (time.Now when nil).
	Now func() time.Time
}

// LiveFetch is what a live fetch read.
type LiveFetch struct {
	FS         fs.FS
	Dir        string
	Rows       int
	ObservedAt time.Time
}

// Fetch reads the tables and answers into an in-memory file system. It
// stops at the first error; a project id the portal does not know (404)
// is skipped with its error returned among the notes.
func (f *LandFetcher) Fetch(ctx context.Context) (LiveFetch, []error, error) {
	client := f.Client
	if client == nil {
		client = fetch.New()
	}
	now := time.Now
	if f.Now != nil {
		now = f.Now
	}
	out := LiveFetch{FS: fstest.MapFS{}, Dir: "live", ObservedAt: now()}
	files := out.FS.(fstest.MapFS)
	size := f.PageSize
	if size <= 0 {
		size = DefaultLandPageSize
	}
	var header http.Header
	if f.AppToken != "" {
		header = http.Header{"X-App-Token": {f.AppToken}}
	}
	for _, t := range []struct{ name, base, def string }{
		{"hgx4-8ukb_projects", f.ProjectsURL, ProjectsEndpoint},
		{"2iga-a6mk_project_bbls", f.BBLsURL, BBLsEndpoint},
	} {
		base := t.base
		if base == "" {
			base = t.def
		}
		page := 0
		err := fetch.SODA{Client: client, URL: base, Query: url.Values{"$order": {"project_id"}}, Size: size, Header: header}.Each(ctx, func(p fetch.SODAPage) (int, error) {
			var rows []json.RawMessage
			if err := json.Unmarshal(p.Body, &rows); err != nil {
				return 0, fmt.Errorf("page at offset %d is not a JSON array: %w", p.Offset, err)
			}
			if len(rows) > 0 {
				page++
				files[fmt.Sprintf("%s/%s_page_%04d.json", out.Dir, t.name, page)] = &fstest.MapFile{Data: bytes.Clone(p.Body)}
				out.Rows += len(rows)
				if f.Progress != nil {
					f.Progress(t.name, p.Offset+len(rows))
				}
			}
			return len(rows), nil
		})
		if err != nil {
			return out, nil, fmt.Errorf("land: %s: %w", t.name, err)
		}
	}
	base := f.PortalURL
	if base == "" {
		base = PortalEndpoint
	}
	var skipped []error
	for i, id := range f.Portal {
		if !ValidProjectID(id) {
			skipped = append(skipped, fmt.Errorf("land: %q is not a ZAP project id", id))
			continue
		}
		resp, err := client.Get(ctx, base+url.PathEscape(id), http.Header{"Accept": {"application/json"}})
		if err != nil {
			var se *fetch.StatusError
			if errors.As(err, &se) && se.StatusCode == http.StatusNotFound {
				skipped = append(skipped, fmt.Errorf("land: the portal holds no project %s", id))
				continue
			}
			return out, skipped, fmt.Errorf("land: fetching the portal answer of %s: %w", id, err)
		}
		files[out.Dir+"/zap_portal_api_project_"+id+".json"] = &fstest.MapFile{Data: bytes.Clone(resp.Body)}
		out.Rows++
		if f.Progress != nil {
			f.Progress("portal", i+1)
		}
	}
	return out, skipped, nil
}
