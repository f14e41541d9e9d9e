// Package followtest picks, for tests, one held object of each kind a
// watch can follow (issue 34) from an engine over the bundled sample.
// Production code never imports it.
package followtest

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// Held are the objects picked: a solicitation with a PIN and a due date
// (its notice and its matter), a contract, a land project and a meeting.
type Held struct {
	Notice   record.Notice
	Contract record.Contract
	Project  land.Project
	Meeting  meeting.Meeting
}

// Pick reads one held object of each followable kind from e.
func Pick(ctx context.Context, e search.Engine) (Held, error) {
	var h Held
	q := search.Query{Lenses: []string{record.LensMoney}, NoticeTypes: []string{"Solicitation"}, Limit: search.MaxLimit}
	for h.Notice.RequestID == "" {
		res, err := e.Search(ctx, q)
		if err != nil {
			return h, err
		}
		for _, hit := range res.Hits {
			if hit.Notice.PIN != "" && !hit.Notice.DueDate.IsZero() && !entity.JunkPIN(hit.Notice.PIN) {
				h.Notice = hit.Notice
				break
			}
		}
		if h.Notice.RequestID == "" && res.NextCursor == "" {
			return h, errors.New("the sample holds no solicitation with a PIN and a due date")
		}
		q.Cursor = res.NextCursor
	}
	cs, err := search.Find(ctx, e, procure.ContractKind, search.RecordQuery{Limit: 1})
	if err != nil || len(cs.Items) == 0 {
		return h, fmt.Errorf("no contract held: %v", err)
	}
	ps, err := search.Find(ctx, e, land.ProjectKind, search.RecordQuery{Limit: 1})
	if err != nil || len(ps.Items) == 0 {
		return h, fmt.Errorf("no land project held: %v", err)
	}
	ms, err := search.Find(ctx, e, meeting.Kind, search.RecordQuery{Limit: 1})
	if err != nil || len(ms.Items) == 0 {
		return h, fmt.Errorf("no meeting held: %v", err)
	}
	h.Contract, h.Project, h.Meeting = cs.Items[0], ps.Items[0], ms.Items[0]
	return h, nil
}

// Change changes each held object in place in e, as a publisher would,
// and returns the line each change mail must carry, by follow kind: the
// notice's due date moves 14 days; an award to vendor joins its matter
// (request id awardID, dated at); the contract's amount is amended; the
// land project's public status becomes status; the meeting moves to place.
func Change(ctx context.Context, e search.Engine, h Held, at time.Time, awardID, vendor, status, place string) (map[string]string, error) {
	n, k, p, m := h.Notice, h.Contract, h.Project, h.Meeting
	oldDue, newDue := n.DueDate, n.DueDate.AddDate(0, 0, 14)
	n2 := n
	n2.DueDate = newDue
	award := n
	award.RequestID, award.NoticeType, award.VendorName, award.Title = awardID, "Award", vendor, "Award: "+n.Title
	award.DueDate, award.StartDate, award.EndDate = time.Time{}, at, at
	if err := e.Upsert(ctx, []search.Doc{{Notice: n2}, {Notice: award}}); err != nil {
		return nil, err
	}
	k.Amount, k.AmountValid, k.AmountRaw = k.Amount+54321, true, ""
	oldStatus := p.PublicStatus
	p.PublicStatus = status
	m.Place.Text = place
	if err := search.Put(ctx, e, procure.ContractKind, []record.Contract{k}); err != nil {
		return nil, err
	}
	if err := search.Put(ctx, e, land.ProjectKind, []land.Project{p}); err != nil {
		return nil, err
	}
	if err := search.Put(ctx, e, meeting.Kind, []meeting.Meeting{m}); err != nil {
		return nil, err
	}
	if err := e.Refresh(ctx); err != nil {
		return nil, err
	}
	day := func(t time.Time) string { return t.In(record.NewYork).Format("2006-01-02") }
	return map[string]string{
		watch.FollowNotice:      "due date: " + day(oldDue) + " → " + day(newDue),
		watch.FollowMatter:      "award: (none) → award to " + vendor,
		watch.FollowContract:    "registered amount: ",
		watch.FollowLandProject: "public status: " + oldStatus + " → " + status,
		watch.FollowMeeting:     "→ " + place,
	}, nil
}
