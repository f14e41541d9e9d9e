package mailer

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/store"
	"github.com/recordwatch/recordwatch/internal/view"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// planFollow is plan for a follow watch: the object's followed fields are
// observed now and compared with the snapshot the watch holds; the fields
// that differ are the window's change mail (none: nothing is sent). The
// new snapshot is stored with the delivery, in one transaction, so each
// change is mailed once. A change mail still undelivered is folded in:
// a field changed twice is said once, from its first old value to its
// latest; a field changed back is not said.
func (m *Digests) planFollow(ctx context.Context, w watch.Watch, key string, now time.Time) (store.Delivery, int, error) {
	links := view.Links{Base: m.cfg.BaseURL, Form: m.cfg.Form}
	snap, err := m.readers().Observed(ctx, *w.Follow, links, w.Snapshot)
	if err != nil {
		return store.Delivery{}, 0, err
	}
	changes := watch.Diff(w.Snapshot, snap.Fields)
	var prev *store.Delivery
	if w.LastWindow != "" {
		if pd, ok, err := m.deps.Store.GetDelivery(ctx, w.ID, w.LastWindow); err != nil {
			return store.Delivery{}, 0, err
		} else if ok && pd.Kind == store.KindChange && (pd.State == store.DeliveryPlanned || pd.State == store.DeliveryFailed) {
			prev = &pd
		}
	}
	d := store.Delivery{WatchID: w.ID, Window: key, PlannedAt: now, State: store.DeliveryPlanned, Kind: store.KindChange,
		Cadence: w.CadenceOf(), Since: w.LastWindow, MessageID: m.messageID("change", w.ID+"."+key)}
	if prev != nil {
		changes = foldChanges(prev.Changes, changes)
		d.MergedFrom = append(append([]string{}, prev.MergedFrom...), prev.Window)
	}
	d.Changes, d.Matched = changes, []string{w.Follow.ID}
	next := w.Progress
	next.Snapshot = snap.Fields
	if len(changes) == 0 {
		d.State = store.DeliveryEmpty // an undelivered change undone since: nothing to say (prev is marked carried)
	} else {
		next.QuietSince = now
	}
	return m.storePlan(ctx, d, next, prev)
}

// foldChanges joins an undelivered change list with the next: one entry
// per field, from its earliest old value to its latest new one; a field
// back where it started is dropped.
func foldChanges(earlier, later []watch.Change) []watch.Change {
	out := append([]watch.Change{}, earlier...)
	for _, c := range later {
		i := slices.IndexFunc(out, func(o watch.Change) bool { return o.Field == c.Field })
		if i < 0 {
			out = append(out, c)
			continue
		}
		out[i].New = c.New
	}
	return slices.DeleteFunc(out, func(c watch.Change) bool { return c.Old == c.New })
}

// changeMessage is a follow watch's change mail: the object, each changed
// field old → new, and the manage and unsubscribe links.
func (m *Digests) changeMessage(w watch.Watch, d store.Delivery, manage, unsub string) Message {
	links := view.Links{Base: m.cfg.BaseURL, Form: m.cfg.Form}
	var fields []string
	for _, c := range d.Changes {
		fields = append(fields, c.Field)
	}
	subject := "Recordwatch: " + w.Follow.Noun() + " changed — " + oneLine(strings.Join(fields, ", "), 60)
	var b strings.Builder
	fmt.Fprintf(&b, "Recordwatch: a change to what you follow (%s)\n\n", d.Window)
	b.WriteString(wrap(mailSafe(w.Scope), 72, "") + "\n")
	b.WriteString(w.Follow.Link(links) + "\n\n")
	b.WriteString("What changed, as observed " + d.PlannedAt.In(record.NewYork).Format("Jan 2, 2006 3:04 PM") + " New York time (old → new):\n\n")
	for _, c := range d.Changes {
		b.WriteString(wrap(mailSafe(c.String()), 72, "  ") + "\n")
	}
	if len(d.MergedFrom) > 0 {
		b.WriteString("\n" + wrap("This mail also carries the changes observed since "+d.MergedFrom[0]+", whose mail could not be delivered then.", 72, "") + "\n")
	}
	b.WriteString("\n" + wrap("You get one mail per change observed: nothing for what the record held when you started following it. "+
		"The publisher's record stays authoritative.", 72, "") + "\n\n")
	b.WriteString("Changes are checked: " + m.schedule(w.CadenceOf()) + ".\n\n")
	b.WriteString("Manage this watch:  " + manage + "\n")
	b.WriteString("Unsubscribe (one click):  " + unsub + "\n\n-- \n" + footer + "\n")
	return Message{Kind: "change", To: w.Email, MessageID: d.MessageID, Unsubscribe: unsub, Bulk: true, Subject: subject, Text: b.String()}
}
