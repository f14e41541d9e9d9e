package api

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/recordwatch/recordwatch/internal/feed"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/record"
)

// calendar is the calendar of feed f built now for the query key: f's
// events revised against the calendar's record in the state store
// (feed.Revise: SEQUENCE and LAST-MODIFIED raised on each change of date,
// time, place or status the service sees), then the events withdrawn at
// the source within feed.CancelledKeep, as STATUS:CANCELLED. Without a
// state store, or when it cannot answer, f is served as built (SEQUENCE
// 0, nothing cancelled): a calendar is never refused for its revisions.
func (s *Server) calendar(ctx context.Context, key string, f feed.Feed) feed.Feed {
	if s.deps.Store == nil {
		return f
	}
	key = "ics|" + key
	raw, err := s.deps.Store.GetCalendar(ctx, key)
	var st feed.CalendarState
	if err == nil && raw != nil {
		err = json.Unmarshal(raw, &st)
	}
	if err != nil {
		s.deps.Logger.Warn("calendar revisions unavailable; served unrevised", "err", err)
		return f
	}
	withdrawn := map[string]bool{}
	for _, ref := range st.Absent(f) {
		if gone, err := s.withdrawn(ctx, ref); err == nil && gone {
			withdrawn[ref] = true
		}
	}
	refs := map[string]string{}
	items := append([]feed.Item{}, f.Items...)
	for i, it := range items {
		if it.Event != nil {
			e := *it.Event // f's events are shared with its other formats
			items[i].Event = &e
			refs[e.UID] = eventRef(e.UID)
		}
	}
	out := f
	out.Items = items
	var cancelled []feed.Item
	now := s.deps.Now()
	err = s.deps.Store.ReviseCalendar(ctx, key, now, func(old []byte) ([]byte, bool, error) {
		var st feed.CalendarState
		if old != nil {
			if err := json.Unmarshal(old, &st); err != nil {
				return nil, false, err
			}
		}
		var changed bool
		cancelled, changed = feed.Revise(&st, &out, refs, withdrawn, now)
		if !changed {
			return nil, false, nil
		}
		next, err := json.Marshal(st)
		return next, true, err
	})
	if err != nil {
		s.deps.Logger.Warn("calendar revisions not stored; served unrevised", "err", err)
		return f
	}
	out.Items = append(out.Items, cancelled...)
	return out
}

// eventRef is the record behind an event's UID: a notice's request id
// ("<request id>-due@host", "<request id>-event@host") or a meeting's id
// ("<meeting id>@recordwatch").
func eventRef(uid string) string {
	if i := strings.LastIndexByte(uid, '@'); i >= 0 {
		uid = uid[:i]
	}
	for _, suffix := range []string{"-due", "-event"} {
		if r, ok := strings.CutSuffix(uid, suffix); ok && !meeting.IsID(uid) {
			return r
		}
	}
	return uid
}

// withdrawn reports whether the record behind an event is no longer held
// (withdrawn or removed at the source).
func (s *Server) withdrawn(ctx context.Context, ref string) (bool, error) {
	var err error
	if meeting.IsID(ref) {
		if s.deps.Meetings == nil {
			return false, nil
		}
		_, err = s.deps.Meetings.Get(ctx, ref)
	} else {
		_, err = s.deps.Search.Get(ctx, ref)
	}
	if record.ErrorCode(err) == record.ENOTFOUND {
		return true, nil
	}
	return false, err
}
