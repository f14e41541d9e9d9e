package api

import (
	"context"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/store"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// DigestRunStats is /stats' part on the scheduled digest runs (issue 34,
// item 3): how many watches have a missed run now (watch.MissedRun: the
// window opened, its grace passed, no run in the ledger) and how many due
// watches a run left without a ledger entry over the last StatsWindowDays
// (store.CounterDigestRunMissed). Counts only, never an address.
type DigestRunStats struct {
	MissedNow        watch.MissedRuns `json:"missed_now"`
	MissedRecentDays int              `json:"missed_recent_days"`
	MissedRecent     int              `json:"missed_recent"`
	Note             string           `json:"note"`
}

const digestRunsNote = "missed_now: active watches whose scheduled digest run was due more than the grace ago and left no entry in their ledger " +
	"(each watch's manage page shows it as missed); missed_recent: due watches a digest run could not plan over the last missed_recent_days days. " +
	"Either is an operator error: the digest job is not running or cannot write the state store."

// digestRunStats is the DigestRuns part of /stats (nil when the service
// runs no watches or judges no schedule).
func (s *Server) digestRunStats(ctx context.Context) (*DigestRunStats, error) {
	if s.deps.Watches == nil {
		return nil, nil
	}
	missed, ok, err := s.deps.Watches.MissedRuns(ctx)
	if err != nil {
		s.deps.Logger.Error("stats: missed digest runs", "err", err)
		return nil, &record.Error{Code: record.EUNAVAILABLE, Message: "the state store could not answer"}
	}
	if !ok {
		return nil, nil
	}
	out := &DigestRunStats{MissedNow: missed, MissedRecentDays: StatsWindowDays, Note: digestRunsNote}
	if s.deps.Store != nil {
		days := store.Days(s.deps.Now(), StatsWindowDays)
		per, err := s.deps.Store.Counts(ctx, store.CounterDigestRunMissed, days[0], days[len(days)-1])
		if err != nil {
			s.deps.Logger.Error("stats: missed digest runs counter", "err", err)
			return nil, &record.Error{Code: record.EUNAVAILABLE, Message: "the state store could not answer"}
		}
		for _, n := range per {
			out.MissedRecent += n
		}
	}
	return out, nil
}
