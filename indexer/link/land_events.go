package link

import (
	"context"
	"fmt"
	"slices"

	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/record"
)

// Land event ↔ land project joins. An event of another publisher (a
// borough president recommendation, a Council land-use item, a community
// board's minutes) that names one of a project's application (ULURP)
// numbers is joined to the project, method ulurp_number: the same ULURP
// key (land.ULURPKey), so "N 260156 ZRQ" never joins 260156ZRM. The
// confidence is high when the event's publisher states the number in a
// field of its own (a Council item, a borough president row) and the
// event's own confidence when it was read from free text (minutes: method
// text). The evidence names the event, the number and the project. The
// joins are found from either end (an event written after its project, or
// a project after its events) by the same rule, JoinEventsLand.
const MethodEventULURP = "ulurp_number"

// JoinEventsLand finds the joins between land events and land projects:
// one link from each event to each project one of whose application
// numbers it names, sorted by id.
func JoinEventsLand(es []land.Event, ps []land.Project) []record.Link {
	byKey := map[string][]int{}
	for i, p := range ps {
		for _, k := range p.ULURPKeys() {
			if !slices.Contains(byKey[k], i) {
				byKey[k] = append(byKey[k], i)
			}
		}
	}
	best := map[string]record.Link{}
	for _, e := range es {
		for j, k := range e.ULURPKeys {
			num := k
			if j < len(e.ULURPNumbers) {
				num = e.ULURPNumbers[j]
			}
			for _, i := range byKey[k] {
				p := ps[i]
				conf := "high"
				if e.Method != "" && e.Confidence != "" {
					conf = e.Confidence
				}
				ev := EventLinkNote(e, num, p)
				l := record.NewLink(record.Ref{Kind: record.RefLandEvent, ID: e.ID}, record.Ref{Kind: record.RefLandProject, ID: p.ID},
					k, MethodEventULURP, conf, false, ev.String())
				l.EvidenceKey = &ev
				if _, ok := best[l.ID]; ok {
					continue // the first number that joins them says it
				}
				best[l.ID] = l
			}
		}
	}
	return sortedLinks(best)
}

// EventLinkNote is the evidence of the join of event e to project p by
// application number num: the event states the number in a field of its
// own, or names it in its text (e.Method), quoting the line (e.Evidence)
// when it keeps one.
func EventLinkNote(e land.Event, num string, p land.Project) record.Note {
	args := []any{e.Name, e.SourceLabel, num, p.ID, p.Name}
	keys := [2]string{"land.event.link.states", "land.event.link.states.quoted"}
	switch e.Method {
	case "":
	case "text":
		keys = [2]string{"land.event.link.text", "land.event.link.text.quoted"}
	default:
		keys = [2]string{"land.event.link.method", "land.event.link.method.quoted"}
		args = []any{e.Name, e.SourceLabel, e.Method, num, p.ID, p.Name}
	}
	if e.Evidence != "" {
		return record.N(keys[1], append(args, e.Evidence)...)
	}
	return record.N(keys[0], args...)
}

// LandEvents is the link function of the pipeline's sets of land events:
// it keeps the joins of the events to the land projects held that they
// name (JoinEventsLand). With no records held (env.Records nil) none is
// kept.
func LandEvents(ctx context.Context, env Env, es []land.Event) []error {
	if env.Links == nil || env.Records == nil || len(es) == 0 {
		return nil
	}
	var keys []string
	for _, e := range es {
		keys = append(keys, e.ULURPKeys...)
	}
	ps, err := heldRecords(ctx, env.Records, land.ProjectKind, land.KeyULURP, keys)
	if err != nil {
		return []error{fmt.Errorf("land events: joins to the land projects held not found: %w", err)}
	}
	env.Links.Add(JoinEventsLand(es, ps)...)
	return nil
}

// landEventLinks keeps the joins of land projects to the events held that
// name them.
func landEventLinks(ctx context.Context, env Env, ps []land.Project) error {
	if env.Links == nil || env.Records == nil {
		return nil
	}
	var keys []string
	for _, p := range ps {
		keys = append(keys, p.ULURPKeys()...)
	}
	es, err := heldRecords(ctx, env.Records, land.EventKind, land.KeyULURP, keys)
	if err != nil {
		return err
	}
	env.Links.Add(JoinEventsLand(es, ps)...)
	return nil
}
