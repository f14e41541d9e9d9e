package watch

import "github.com/recordwatch/recordwatch/internal/record"

// Created answers a create request on every surface. It is the same
// whatever is known about the address.
type Created struct {
	Status string `json:"status"`
	// Understood is the watch as stored (or to be stored on
	// confirmation): its filter, scope, notes and cadence.
	Understood Understanding `json:"understood"`
	// Cadence is daily or weekly; Schedule says when digests go out.
	Cadence  string `json:"cadence"`
	Schedule string `json:"schedule"`
	Message  string `json:"message"`
	// MessageKey is message as a note (key and arguments).
	MessageKey record.Note `json:"message_key"`
	// Filter is understood.filter again, where the API's answers before
	// 2026-11-27 had it.
	//
	// Deprecated: read understood.filter (docs/api.md, Change log).
	Filter Filter `json:"filter" deprecated:"understood.filter"`
}

// Created is the outcome as a create request's answer; notes stand in
// for the outcome's when it has none (how the request was read).
func (o Outcome) Created(notes []string, keys record.Notes) Created {
	if len(o.Notes) > 0 {
		notes, keys = o.Notes, o.NoteKeys
	}
	return Created{Status: o.Status, Understood: Understanding{Filter: o.Filter, Scope: o.Scope, ScopeKey: o.ScopeKey, Notes: notes, NoteKeys: keys, Cadence: o.Cadence},
		Cadence: o.Cadence, Schedule: o.Schedule, Message: o.Message, MessageKey: o.MessageKey, Filter: o.Filter}
}
