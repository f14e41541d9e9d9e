package land

// The decision path's fixed sentences: the reasons a stage's state is
// given, the notes of observations and of the path. They are named here so
// that the site's Spanish list says each one (api/web words_es_land.go,
// whose test enumerates them); the JSON keeps them in English.
const (
	ReasonHappened   = "completed according to the evidence"
	ReasonInProgress = "started and not completed according to the evidence"
	ReasonCurrent    = "named as the current milestone by the Open Data row"
	ReasonNotStarted = "listed by the portal as Not Started; the planned date is a plan, not an observation"
	ReasonAbsent     = "no milestone of this stage in the portal's milestone list"
	ReasonUnknown    = "no milestone list is held for this project"

	NoteAdHoc   = "ad-hoc milestone: listed by the portal although it may never happen; not evidence of a procedure stage"
	NoteOutside = "not a stage of the procedure: " // + the procedure's note of the milestone
	// NoteAdHocOnRequest is the note of an ad-hoc milestone of a stage
	// that happens only on request (Stage.OnRequest).
	NoteAdHocOnRequest = "ad-hoc milestone of a stage that happens only when someone asks for it: the portal lists it on projects the stage may apply to, so a milestone not started says only that no request is recorded"
	NoteUnmapped       = "not mapped to a stage of the procedure definition"
	NoteApprovalDate   = "the publisher does not say which body's approval this date is; it is not tied to a stage"
	NoteClosing        = "the project's closing; not a procedure stage"
	NoteCompleted      = "The project is Completed according to its public status; stages after the last recorded one are not recorded by the held sources, and this path does not infer them."
	NoteLayers         = "Observed and normative layers are kept apart: a stage names its evidence by observation id only. This path reports recorded facts and the procedure's rules; it does not predict outcomes."

	// ProcedureNoteFormat is the note of a path with no reviewed
	// procedure (the procedure as written, or ProcedureNotStated).
	ProcedureNoteFormat = "review procedure %s: no reviewed procedure definition is held for it, so the normative layer is unknown"
	ProcedureNotStated  = "not stated by any held source"
	// HearingNoteFormat is a recommendation's public hearing (its day and
	// time), HearingAtFormat its location when one is given.
	HearingNoteFormat = "public hearing %s"
	HearingAtFormat   = " at %s"
	// MinutesNoteFormat is the note of a community board's minutes naming
	// an application (the link method, the line that names it).
	MinutesNoteFormat = "the board's minutes name the application (method %s, read from the text: %s); a mention is not the board's recommendation and is tied to no stage"
)

// ConditionalReason is a stage's reason with its condition: a stage that
// applies only under it.
func ConditionalReason(reason, condition string) string {
	return reason + "; a conditional stage (" + condition + ")"
}

// LaterReason is the reason of an absent or unknown stage before the
// latest recorded one.
func LaterReason(reason string) string {
	return reason + "; a later stage is recorded"
}
