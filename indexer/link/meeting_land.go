package link

import (
	"context"
	"sort"
	"strconv"

	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Meeting ↔ land project joins. A meeting (a Council or City Planning
// Commission agenda, a community board's calendar) that names one of a
// project's application (ULURP) numbers, or the project's ZAP id, is
// joined to the project:
//
//   - method ulurp_number: the same ULURP key (land.ULURPKey: six digits
//     and three letters, a modification's "(A)" kept), so "N 260156 ZRQ"
//     never joins 260156ZRM, nor 260156ZRQ(A);
//   - method project_id: the project's ZAP id;
//
// with confidence high when an item of the published agenda names it and
// medium when the meeting's free text does. The evidence says which
// meeting, where and in which words. The joins are found from either end
// (a meeting written after its projects, or a project after its
// meetings) by the same rule, JoinMeetingsLand.
const (
	MethodMeetingULURP     = "ulurp_number"
	MethodMeetingProjectID = "project_id"
)

// JoinMeetingsLand finds the joins between meetings and land projects:
// one link from each meeting to each project it names (the strongest way
// it names it), sorted by id.
func JoinMeetingsLand(ms []meeting.Meeting, ps []land.Project) []record.Link {
	byKey := map[string][]int{}
	byID := map[string]int{}
	for i, p := range ps {
		byID[p.ID] = i
		for _, k := range p.ULURPKeys() {
			byKey[k] = append(byKey[k], i)
		}
	}
	best := map[string]record.Link{}
	for _, m := range ms {
		for _, a := range m.Applications {
			var hits []int
			method, key := MethodMeetingULURP, a.Key
			if a.Key != "" {
				hits = byKey[a.Key]
			} else if i, ok := byID[a.ProjectID]; ok {
				hits, method, key = []int{i}, MethodMeetingProjectID, a.ProjectID
			}
			conf := meeting.Medium
			if a.Where == meeting.WhereAgendaItem {
				conf = meeting.High
			}
			for _, i := range hits {
				p := ps[i]
				var ev record.Note
				switch {
				case a.Where == meeting.WhereAgendaItem && method == MethodMeetingProjectID:
					ev = record.N("meet.land.agenda.project", m.Body, m.When.Date, strconv.Quote(a.Text), p.ID, p.Name)
				case a.Where == meeting.WhereAgendaItem:
					ev = record.N("meet.land.agenda.application", m.Body, m.When.Date, strconv.Quote(a.Text), a.Number, p.ID, p.Name)
				case method == MethodMeetingProjectID:
					ev = record.N("meet.land.text.project", m.Body, m.When.Date, strconv.Quote(a.Text), p.ID, p.Name)
				default:
					ev = record.N("meet.land.text.application", m.Body, m.When.Date, strconv.Quote(a.Text), a.Number, p.ID, p.Name)
				}
				l := record.NewLink(record.Ref{Kind: record.RefMeeting, ID: m.ID}, record.Ref{Kind: record.RefLandProject, ID: p.ID},
					key, method, conf, false, ev.String())
				l.EvidenceKey = &ev
				if old, ok := best[l.ID]; ok && (old.Confidence == meeting.High || conf != meeting.High) {
					continue
				}
				best[l.ID] = l
			}
		}
	}
	return sortedLinks(best)
}

// meetingLandLinks keeps the joins of meetings to the land projects held
// that they name.
func meetingLandLinks(ctx context.Context, env Env, ms []meeting.Meeting) error {
	if env.Links == nil || env.Records == nil {
		return nil
	}
	var keys, ids []string
	for _, m := range ms {
		for _, a := range m.Applications {
			keys = append(keys, a.Key)
			ids = append(ids, a.ProjectID)
		}
	}
	if len(keys)+len(ids) == 0 {
		return nil
	}
	ps, err := heldRecords(ctx, env.Records, land.ProjectKind, land.KeyULURP, keys)
	if err != nil {
		return err
	}
	byID, err := heldByID(ctx, env.Records, land.ProjectKind, ids)
	if err != nil {
		return err
	}
	env.Links.Add(JoinMeetingsLand(ms, append(ps, byID...))...)
	return nil
}

// landMeetingLinks keeps the joins of land projects to the meetings held
// that name them.
func landMeetingLinks(ctx context.Context, env Env, ps []land.Project) error {
	if env.Links == nil || env.Records == nil {
		return nil
	}
	var keys, ids []string
	for _, p := range ps {
		keys = append(keys, p.ULURPKeys()...)
		ids = append(ids, p.ID)
	}
	ms, err := heldRecords(ctx, env.Records, meeting.Kind, meeting.KeyULURP, keys)
	if err != nil {
		return err
	}
	more, err := heldRecords(ctx, env.Records, meeting.Kind, meeting.KeyLandProject, ids)
	if err != nil {
		return err
	}
	env.Links.Add(JoinMeetingsLand(append(ms, more...), ps)...)
	return nil
}

// heldByID reads the records of kind k held with one of ids.
func heldByID[T any](ctx context.Context, rs search.RecordReader, k search.Kind[T], ids []string) ([]T, error) {
	var out []T
	err := chunks(procure.UniqueNonEmpty(ids), search.MaxKeyValues, func(vs []string) error {
		p, err := search.Find(ctx, rs, k, search.RecordQuery{IDs: vs, Sort: search.RecordSortID, Limit: search.MaxRecordLimit})
		out = append(out, p.Items...)
		return err
	})
	return out, err
}

// sortedLinks are the links of a map by link id, sorted by id.
func sortedLinks(best map[string]record.Link) []record.Link {
	out := make([]record.Link, 0, len(best))
	for _, l := range best {
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
