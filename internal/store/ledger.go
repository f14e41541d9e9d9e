package store

import (
	"slices"
	"sort"

	"github.com/recordwatch/recordwatch/internal/watch"
)

// LedgerOf is a watch's deliveries as its ledger lists them, newest first.
func LedgerOf(ds []Delivery) []watch.LedgerEntry {
	sort.SliceStable(ds, func(i, j int) bool {
		if ds[i].Window != ds[j].Window {
			return ds[i].Window > ds[j].Window
		}
		return ds[i].PlannedAt.After(ds[j].PlannedAt)
	})
	out := make([]watch.LedgerEntry, 0, len(ds))
	for _, d := range ds {
		e := watch.LedgerEntry{Window: d.Window, PlannedAt: d.PlannedAt, Kind: d.Kind, Matched: d.Matched, MessageID: d.MessageID,
			Subject: d.Subject, Body: d.Body, Attempts: d.Attempts, SentAt: d.SentAt, MergedInto: d.MergedInto}
		if e.Kind == KindDigest {
			e.Kind = "digest"
		}
		for _, id := range d.RequestIDs {
			if slices.Contains(d.Updates, id) {
				e.Changed = append(e.Changed, id)
			} else {
				e.New = append(e.New, id)
			}
		}
		for _, c := range d.Changes {
			e.Fields = append(e.Fields, c.String())
		}
		switch d.State {
		case DeliveryEmpty:
			e.Outcome, e.MessageID = watch.OutcomeNothingNew, ""
		case DeliverySent:
			e.Outcome = watch.OutcomeOutbox
			if d.Transport == "relay" {
				e.Outcome = watch.OutcomeRelay
			}
		case DeliveryFailed:
			e.Outcome, e.Reason = watch.OutcomeFailed, d.LastError
		case DeliveryDropped:
			e.Outcome, e.Reason = watch.OutcomeDropped, d.LastError
		case DeliveryMerged:
			e.Outcome = watch.OutcomeMerged
		case DeliverySending:
			e.Outcome = watch.OutcomeSending
		default:
			e.Outcome = watch.OutcomePlanned
			if d.Deferred != "" {
				e.Outcome, e.Reason = watch.OutcomeDeferred, d.Deferred
			}
		}
		if e.Outcome != watch.OutcomeRelay && e.Outcome != watch.OutcomeOutbox {
			e.MessageID = "" // planned ids of mail that never left are not shown as sent
		}
		out = append(out, e)
	}
	return out
}
