package main

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/indexer/source/crol"
	"github.com/recordwatch/recordwatch/indexer/source/meetings"
	"github.com/recordwatch/recordwatch/internal/record"
)

// Live meetings window: from 30 days ago to 180 days ahead.
const (
	meetingsLiveBack  = 30
	meetingsLiveAhead = 180
)

// liveBatch is a source whose batch was fetched live: the pipeline (link,
// encode, write, report) runs on it as on files.
type liveBatch struct {
	indexer.Source
	b    indexer.Batch
	errs []error
}

func (l liveBatch) Read(fs.FS, string) (indexer.Batch, []error) { return l.b, l.errs }

// runMeetingsLive fetches Council events (Legistar Web API; token from
// RECORDWATCH_LEGISTAR_TOKEN) and City Record hearing notices with event
// dates (SODA) live, and community-board calendars from the addresses in
// RECORDWATCH_CB_CALENDAR_URLS (comma-separated; each must answer the
// calendar's text: boards publish PDFs and no PDF text is extracted
// here), then links and writes them as meetings.
func runMeetingsLive(ctx context.Context, cfg Config, ix *indexer.Indexer, src indexer.Source, logger *slog.Logger) error {
	return repeat(ctx, cfg.Every, logger, "meetings", func() error {
		n := time.Now().In(record.NewYork)
		day := time.Date(n.Year(), n.Month(), n.Day(), 0, 0, 0, 0, record.NewYork)
		from, to := day.AddDate(0, 0, -meetingsLiveBack), day.AddDate(0, 0, meetingsLiveAhead)
		progress := func(what string) func(int) {
			return func(done int) { logger.Info("meetings live", "source", what, "rows", done) }
		}
		lf := &meetings.LegistarFetcher{Token: os.Getenv("RECORDWATCH_LEGISTAR_TOKEN"), Progress: progress(meetings.LegistarSource)}
		council, nc, rejC, errC := lf.Fetch(ctx, from, to)
		hearings, nh, rejH, errH := meetings.FetchHearings(ctx, crol.Fetcher{BaseURL: cfg.SODAEndpoint, AppToken: cfg.SODAToken, Progress: progress(meetings.HearingSource)}, from)
		if err := errors.Join(errC, errH); err != nil && len(council)+len(hearings) == 0 {
			return err
		} else if err != nil {
			logger.Error("meetings live: one source failed; the other is written", "err", err)
		}
		var urls []string
		for _, u := range strings.Split(os.Getenv("RECORDWATCH_CB_CALENDAR_URLS"), ",") {
			if u = strings.TrimSpace(u); u != "" {
				urls = append(urls, u)
			}
		}
		cf := &meetings.CalendarFetcher{URLs: urls, Progress: progress(meetings.CalendarSource)}
		boards, nb, rejB := cf.Fetch(ctx)
		ms := append(append(hearings, council...), boards...)
		b := indexer.Batch{Rows: nc + nh + nb, Records: indexer.MeetingSets(ms)}
		_, err := ix.Load(ctx, liveBatch{Source: src, b: b, errs: append(append(rejC, rejH...), rejB...)}, nil, "live")
		return err
	})
}
