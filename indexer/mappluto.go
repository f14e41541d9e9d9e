package indexer

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"time"

	"github.com/recordwatch/recordwatch/indexer/source/zap"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// plutoSource: MapPLUTO tax lots (NYC Open Data 64uk-42ks), fetched live
// for the BBLs held only. After the property-disposition notices and the
// land projects are loaded, its run collects the BBLs they hold that no
// lot location places yet (heldBBLsToLocate) and asks MapPLUTO for them
// (zap.PLUTOFetcher: batched, bounded, with the client's timeouts and
// retries); each lot found is stored as its centroid (the lot location
// the centroid file gives: "mappluto:lot:<bbl>", source mappluto, with
// method and confidence), each lot not found or whose request failed
// without geometry and with the reason, so the pages list it. Read reads
// saved MapPLUTO answers (JSON arrays of rows).
type plutoSource struct{}

func (plutoSource) Name() string  { return zap.CentroidSource }
func (plutoSource) Label() string { return zap.PLUTOLabel }
func (plutoSource) Holds() string { return HoldsRecords }
func (plutoSource) Read(fsys fs.FS, dir string) (Batch, []error) {
	lots, rows, errs := zap.ReadPLUTODir(fsys, dir, time.Time{})
	return Batch{Records: []RecordSet{Set[land.LotLocation]{Of: land.LotKind, Items: lots}}, Rows: rows}, errs
}

// Fetch asks MapPLUTO for the held BBLs without a lot location, in one
// batch. Nothing to ask is nothing new (a good run).
func (plutoSource) Fetch(ctx context.Context, _ Checkpoint, cfg LiveConfig, batch func(Batch, []error) error) error {
	if cfg.Held == nil {
		return errors.New("mappluto: the index held is not given: nothing to ask MapPLUTO for")
	}
	bbls, err := heldBBLsToLocate(ctx, cfg.Held)
	if err != nil {
		return fmt.Errorf("mappluto: reading the BBLs held: %w", err)
	}
	if len(bbls) == 0 {
		return batch(Batch{Windowed: true, Notes: []string{"every BBL held is placed at its lot already"}}, nil)
	}
	f := &zap.PLUTOFetcher{Client: cfg.Client, URL: cfg.PLUTOEndpoint, AppToken: cfg.SODAToken, Now: cfg.Now, Progress: cfg.Progress}
	got, errs, err := f.Fetch(ctx, bbls)
	if err != nil {
		return err
	}
	b := Batch{Records: []RecordSet{Set[land.LotLocation]{Of: land.LotKind, Items: append(got.Lots, got.Unresolved...)}},
		Rows: got.Rows, ObservedAt: got.ObservedAt, Windowed: true,
		Notes: []string{fmt.Sprintf("asked MapPLUTO for %d BBLs held: %d located, %d not", got.Asked, len(got.Lots), len(got.Unresolved))}}
	if got.Left > 0 {
		b.Notes = append(b.Notes, fmt.Sprintf("%d more BBLs held are left for the next run (at most %d a run)", got.Left, zap.DefaultPLUTOMax))
	}
	return batch(b, errs)
}

// Bounds of what heldBBLsToLocate reads: the newest property-disposition
// notices, and the land projects.
const (
	plutoMaxNotices  = 5000
	plutoMaxProjects = 20000
)

// heldBBLsToLocate are the BBLs of the property-disposition notices
// (land.NoticeBBLs: the rule the property-locations view places by) and
// of the land projects held that no held lot location places: first
// those never asked of MapPLUTO, then those it did not locate before
// (asked again: MapPLUTO is republished).
func heldBBLsToLocate(ctx context.Context, held search.NoticesAndRecords) ([]string, error) {
	var bbls []string
	add := func(bs ...string) {
		for _, b := range bs {
			if zap.ValidBBL(b) && !slices.Contains(bbls, b) {
				bbls = append(bbls, b)
			}
		}
	}
	q := search.Query{Sections: []string{record.SectionPropertyDisp}, Sort: search.SortNewest, Limit: 100}
	for read := 0; read < plutoMaxNotices; {
		res, err := held.Search(ctx, q)
		if err != nil {
			return nil, err
		}
		for _, h := range res.Hits {
			n := h.Notice
			if n.Raw == nil && n.Text == "" { // searches leave out the source fields
				if full, err := held.Get(ctx, n.RequestID); err == nil {
					n = full
				}
			}
			text, third := land.NoticeBBLs(n)
			add(text...)
			add(third...)
		}
		read += len(res.Hits)
		if res.NextCursor == "" || len(res.Hits) == 0 {
			break
		}
		q.Cursor = res.NextCursor
	}
	pq := search.RecordQuery{Limit: search.MaxRecordLimit}
	for read := 0; read < plutoMaxProjects; {
		page, err := search.Find(ctx, held, land.ProjectKind, pq)
		if err != nil {
			return nil, err
		}
		for _, p := range page.Items {
			add(p.BBLs()...)
		}
		read += len(page.Items)
		if page.NextCursor == "" || len(page.Items) == 0 {
			break
		}
		pq.Cursor = page.NextCursor
	}
	lots, _, err := land.LotsHeld(ctx, held, bbls)
	if err != nil {
		return nil, err
	}
	var fresh, again []string
	for _, b := range bbls {
		switch p := land.PlaceLot(b, lots[b], false, true); {
		case p.Kind == land.LocationLot:
		case !p.AskedAt.IsZero():
			again = append(again, b)
		default:
			fresh = append(fresh, b)
		}
	}
	return append(fresh, again...), nil
}
