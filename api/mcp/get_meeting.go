package mcp

import (
	"context"
	"regexp"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/record"
)

type getMeetingIn struct {
	ID string `json:"id"`
}

// MeetingOut is one meeting read: found, not_found or unavailable,
// explicitly.
type MeetingOut struct {
	Status  record.Availability `json:"status"`
	ID      string              `json:"id"`
	Message string              `json:"message,omitempty"`
	Meeting *meeting.Meeting    `json:"meeting,omitempty"`
	Absence []string            `json:"absence_rules"`
	// Empty says why nothing is held on not_found (record.RecordAbsence).
	Empty *record.EmptyAnswer `json:"empty,omitempty"`
	// Sources are, on a found answer, the sources it is built from, each
	// with its coverage and freshness (state fresh, stale, failing or
	// never_loaded; since when; observed_at; newest source date;
	// schedule), as every search scope's sources state them.
	Sources []record.SourceCoverage `json:"sources,omitempty"`
}

// maxMeetingID bounds a meeting id argument.
const maxMeetingID = 160

// meetings is the meeting service.
func (d *Deps) meetings() (*meeting.Service, error) { return d.Meetings, nil }

func getMeeting(d *Deps) Tool {
	t := newTool(d, "get_meeting", "Get one source meeting", ClassRead,
		"Read one source meeting by its exact id, source:source_id (legistar:22525 for a Council event, "+
			"cityrecord-hearings:<request id> for a City Record hearing notice, cb-calendar:<board>-<date>-<name> for a "+
			"community-board calendar entry, cb-minutes:<board>-<date>-<name> for a meeting read from a community board's "+
			"minutes; browse_meetings returns ids, and every id it returns is answered here). Returns status found, not_found or unavailable "+
			"explicitly. A found meeting carries its body (and agency via the crosswalk), date and start in "+
			"America/New_York (start_known false when the source gives no time), place, attendance and remote links, "+
			"documents (agenda, minutes, video) with links, and four facts kept apart, each with its evidence: held "+
			"(held / not_held as recorded, e.g. deferred / unknown), observed (when the source was seen), minutes "+
			"(published / not_published) and notice (City Record notice linked / not_linked / unknown, with method and "+
			"confidence). Unpublished minutes or an unlinked notice never mean the meeting did not exist. Calendar "+
			"entries carry parsed_fields: the confidence of each field read from the board's text.",
		[]int{1},
		func(s *jsonschema.Schema) {
			bounded(s, "id", maxMeetingID, "Exact meeting id: source:source_id.")
			prop(s, "id").Pattern = meetingIDPattern()
			prop(s, "id").MinLength = ptr(1)
		},
		func(ctx context.Context, d *Deps, in getMeetingIn) (MeetingOut, error) {
			out := MeetingOut{ID: in.ID, Absence: record.AbsenceRules}
			svc, err := d.meetings()
			if err == nil {
				var r meeting.Read
				if r, err = svc.Read(ctx, in.ID); err == nil {
					out.Status, out.Meeting, out.Sources = record.Found, &r.Meeting, r.Sources
					return out, nil
				}
			}
			switch record.ErrorCode(err) {
			case record.ENOTFOUND:
				out.Status = record.NotFound
				out.Message = "No meeting with this exact id is held by this service; that does not mean no such meeting took place."
				out.Empty = d.absent(ctx, in.ID, meeting.Kind.Name)
				return out, nil
			case record.EUNAVAILABLE:
				out.Status = record.Unavailable
				out.Message = "The meeting could not be read right now; this does not mean it is missing. Try again later."
				return out, nil
			}
			return out, err
		})
	t.Examples = []Example{{"A Council subcommittee meeting that was deferred although its minutes show Draft", map[string]any{"id": "legistar:22525"}}}
	return t
}

// meetingIDPattern is the shape of a meeting id (meeting.IsID): one of
// meeting.IDSources, a colon, the source's own id.
func meetingIDPattern() string {
	src := make([]string, len(meeting.IDSources))
	for i, s := range meeting.IDSources {
		src[i] = regexp.QuoteMeta(s)
	}
	return "^(" + strings.Join(src, "|") + "):.+$"
}
