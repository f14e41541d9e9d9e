package land

import (
	"strconv"

	"github.com/recordwatch/recordwatch/internal/record"
)

// The decision path's fixed sentences as notes (record.Note, their text in
// the message files, record/locale): the reasons a stage's state is given,
// the notes of observations and of the path. The path publishes each note
// beside its English (reason_keys, note_key, note_keys,
// procedure_note_key); the English strings below are the notes' English,
// for the code and the tests that compare them.
var (
	NReasonHappened   = record.N("land.path.reason.happened")
	NReasonInProgress = record.N("land.path.reason.in_progress")
	NReasonCurrent    = record.N("land.path.reason.current")
	NReasonNotStarted = record.N("land.path.reason.not_started")
	NReasonAbsent     = record.N("land.path.reason.absent")
	NReasonUnknown    = record.N("land.path.reason.unknown")
	// NLater is the clause of an absent or unknown stage before the
	// latest recorded one (LaterReason).
	NLater = record.N("land.path.later")

	NNoteAdHoc = record.N("land.path.note.ad_hoc")
	// NNoteAdHocOnRequest is the note of an ad-hoc milestone of a stage
	// that happens only on request (Stage.OnRequest).
	NNoteAdHocOnRequest = record.N("land.path.note.ad_hoc_on_request")
	NNoteUnmapped       = record.N("land.path.note.unmapped")
	NNoteApprovalDate   = record.N("land.path.note.approval_date")
	NNoteClosing        = record.N("land.path.note.closing")
	NNoteCompleted      = record.N("land.path.note.completed")
	NNoteLayers         = record.N("land.path.note.layers")
)

// The notes' English.
var (
	ReasonHappened   = NReasonHappened.String()
	ReasonInProgress = NReasonInProgress.String()
	ReasonCurrent    = NReasonCurrent.String()
	ReasonNotStarted = NReasonNotStarted.String()
	ReasonAbsent     = NReasonAbsent.String()
	ReasonUnknown    = NReasonUnknown.String()

	NoteAdHoc          = NNoteAdHoc.String()
	NoteAdHocOnRequest = NNoteAdHocOnRequest.String()
	NoteUnmapped       = NNoteUnmapped.String()
	NoteApprovalDate   = NNoteApprovalDate.String()
	NoteClosing        = NNoteClosing.String()
	NoteCompleted      = NNoteCompleted.String()
	NoteLayers         = NNoteLayers.String()
)

// ProcedureNotStated is the path's note when no held source states the
// project's review procedure.
var ProcedureNotStated = record.N("land.path.procedure.not_stated")

// ProcedureNote is the note of a path with no reviewed procedure: the
// procedure as written (record text), or, when none is, ProcedureNotStated.
func ProcedureNote(written string) record.Note {
	if written == "" {
		return ProcedureNotStated
	}
	return record.N("land.path.procedure.unreviewed", written)
}

// NoteOutside is the note of a milestone outside the procedure: the
// procedure's note of it (OutsideMilestone.NoteKey) as the clause of
// "not a stage of the procedure: …".
func NoteOutside(o OutsideMilestone) record.Note {
	n := record.N("land.path.note.outside")
	n.Inner = []record.Part{record.PartOf(o.NoteKey)}
	return n
}

// HearingNote is a recommendation's public hearing: its day and time, and
// its location when one is given (record text).
func HearingNote(when, at string) record.Note {
	if at == "" {
		return record.N("land.path.hearing", when)
	}
	return record.N("land.path.hearing_at", when, at)
}

// MinutesNote is the note of a community board's minutes naming an
// application: the link method and the line that names it (record text,
// quoted).
func MinutesNote(method, line string) record.Note {
	if method == "text" {
		return record.N("land.path.minutes.text", line)
	}
	return record.N("land.path.minutes", method, line)
}

// ReasonNotes is a stage's reason as clauses (record.Notes.Clauses): the
// reason, the stage's condition when it applies only under one, and
// whether a later stage is recorded.
func ReasonNotes(reason record.Note, condition *record.Note, later bool) record.Notes {
	out := record.Notes{reason}
	if condition != nil {
		c := record.N("land.path.conditional")
		c.Inner = []record.Part{record.PartOf(*condition)}
		out = append(out, c)
	}
	if later {
		out = append(out, NLater)
	}
	return out
}

// quote is a value as %q writes it, for an error's note.
func quote(s string) string { return strconv.Quote(s) }

// The notes of an event's date (Event.DateNoteKey), written when the
// event is read from its source.
var (
	NEventNoDate      = record.N("land.event.date.none")
	NEventPassedDate  = record.N("land.event.date.passed")
	NEventMinutesDate = record.N("land.event.date.minutes")
)

// EventEpochDate is the note of a row whose date is an epoch placeholder
// (the date as written).
func EventEpochDate(written string) record.Note { return record.N("land.event.date.epoch", written) }

// SetDateNote sets the note of e's date and its English.
func (e *Event) SetDateNote(n record.Note) { e.DateNote, e.DateNoteKey = n.String(), &n }

// The evidence of a notice's link to a project (indexer/link), as notes:
// stored with the link (record.Link.EvidenceKey: JoinEvidence) and read
// back with each notice link (NoticeLink.EvidenceKeys).

// JoinEventDate is the evidence that a notice's event day is the day of
// a hearing the project records (hearing: what is its body) or of one of
// its milestones (what).
func JoinEventDate(day, what string, hearing bool) record.Note {
	if hearing {
		return record.N("land.join.event_date.hearing", day, what)
	}
	return record.N("land.join.event_date.milestone", day, what)
}

// JoinNamed is the evidence that a notice names the project and its event
// day is the day of a hearing or milestone the project records
// (JoinEventDate).
func JoinNamed(name, day, what string, hearing bool) record.Note {
	if hearing {
		return record.N("land.join.named.hearing", name, day, what)
	}
	return record.N("land.join.named.milestone", name, day, what)
}

// JoinEvidence is the evidence of a link as one note: its pieces as
// clauses (their English joined by EvidenceSep, the link record's
// Evidence).
func JoinEvidence(pieces record.Notes) record.Note {
	n := record.N("land.join.evidence")
	for _, p := range pieces {
		n.Inner = append(n.Inner, record.PartOf(p))
	}
	return n
}

// JoinPieces are the pieces of a link's evidence note (JoinEvidence);
// none for a note of another kind or none (a link an older index stored).
func JoinPieces(n *record.Note) record.Notes {
	if n == nil || n.Key != "land.join.evidence" {
		return nil
	}
	out := make(record.Notes, 0, len(n.Inner))
	for _, p := range n.Inner {
		out = append(out, record.Note{Key: p.Key, Args: append([]string(nil), p.Args...)})
	}
	return out
}
