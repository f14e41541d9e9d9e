package indexer

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/store"
)

// JobOf is the status of one scheduled job at now from its receipts (the
// latest n listed): its last run, last good run, next due time and
// whether it is late (record.Late, the one rule). Live jobs (JobStatuses)
// and the mailer's digest runs are read the same way.
func JobOf(ctx context.Context, rs store.Receipts, name, source string, every, maxAge time.Duration, feeds []string, n int, now time.Time) (record.JobStatus, error) {
	st := record.JobStatus{Job: name, Source: source, Every: every.String(), Feeds: feeds, Receipts: []record.Receipt{}}
	if maxAge > 0 {
		st.MaxAge = maxAge.String()
	}
	if st.Feeds == nil {
		st.Feeds = []string{}
	}
	recent, err := rs.Receipts(ctx, name, runsRead)
	if err != nil {
		return st, err
	}
	var last time.Time
	if len(recent) > 0 {
		st.LastRun, last = &recent[0], recent[0].Started
		st.NextDue = last.Add(every)
	}
	for i := range recent {
		if recent[i].Outcome == record.ReceiptOK {
			st.LastOK = &recent[i]
			break
		}
	}
	st.Late, st.LateNoteKey = record.LateKey(last, every, now)
	if st.LateNoteKey != nil {
		st.LateNote = st.LateNoteKey.String()
	}
	st.Lag = record.LagOf(recent, every)
	st.Receipts = append(st.Receipts, recent[:min(n, len(recent))]...)
	return st, nil
}

// Watchdog watches the scheduled jobs: a job that turns late (no run
// within record.LateAfter intervals) opens an incident, logged as an
// error and, when Alert is set, sent once (an operator mail); the
// incident closes when the job runs again (logged). One alert per
// incident, however long it lasts.
type Watchdog struct {
	Statuses func(ctx context.Context) ([]record.JobStatus, error)
	// Alert is called once when an incident opens (nil: logged only).
	Alert  func(ctx context.Context, subject, text string) error
	Logger *slog.Logger
	// Every is how often the jobs are checked (0: a minute).
	Every time.Duration

	open map[string]bool // job → incident open
}

func (w *Watchdog) log() *slog.Logger {
	if w.Logger != nil {
		return w.Logger
	}
	return slog.Default()
}

// Check reads the statuses once: it opens an incident for each job newly
// late (logged as an error, alerted once) and closes those of jobs no
// longer late. It returns the jobs whose incidents it opened.
func (w *Watchdog) Check(ctx context.Context) ([]string, error) {
	sts, err := w.Statuses(ctx)
	if err != nil {
		return nil, err
	}
	if w.open == nil {
		w.open = map[string]bool{}
	}
	var opened []string
	for _, st := range sts {
		switch {
		case st.Late && !w.open[st.Job]:
			w.open[st.Job] = true
			opened = append(opened, st.Job)
			w.log().Error("scheduled job is late", "job", st.Job, "every", st.Every, "note", st.LateNote)
			if w.Alert != nil {
				subject := fmt.Sprintf("Recordwatch: scheduled job %s is late", st.Job)
				text := fmt.Sprintf("The scheduled job %s (every %s) is late: %s.\n\nThe records held are served as they are, with their freshness stated. "+
					"This mail is sent once per incident; the job's receipts are at /api/sources.\n", st.Job, st.Every, st.LateNote)
				if err := w.Alert(ctx, subject, text); err != nil {
					w.log().Error("operator alert not sent", "job", st.Job, "err", err)
				}
			}
		case !st.Late && w.open[st.Job]:
			delete(w.open, st.Job)
			w.log().Info("scheduled job runs again: incident closed", "job", st.Job)
		}
	}
	return opened, nil
}

// Run checks the jobs every Every until ctx ends.
func (w *Watchdog) Run(ctx context.Context) {
	every := w.Every
	if every <= 0 {
		every = time.Minute
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if _, err := w.Check(ctx); err != nil && ctx.Err() == nil {
			w.log().Warn("watchdog: job statuses unreadable", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
