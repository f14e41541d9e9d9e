package meeting

import (
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
)

// A meeting's evidence and notes are written when it is indexed, each as
// its English text (the published string field) and as a note (the key
// and arguments of its text in the message files, record.Note, stored
// beside it), so that a page says it in the reader's language from the
// note. The helpers below set both from the one note.

// NewFact is the fact state with its evidence n.
func NewFact(state string, n record.Note) Fact {
	return Fact{State: state, Evidence: n.String(), EvidenceKey: &n}
}

// NewObservation is an observation at at (date its New York day, "" when
// unknown) with its evidence n.
func NewObservation(at time.Time, date string, n record.Note) Observation {
	return Observation{At: at, Date: date, Evidence: n.String(), EvidenceKey: &n}
}

// NewNotice is a notice link in state with its evidence: the notes ns,
// said as the clauses of one sentence.
func NewNotice(state string, ns ...record.Note) NoticeLink {
	l := NoticeLink{State: state}
	l.Say(ns...)
	return l
}

// Say sets the link's evidence to the notes ns (clauses of one sentence).
func (l *NoticeLink) Say(ns ...record.Note) {
	l.EvidenceKeys = append(record.Notes(nil), ns...)
	l.Evidence = l.EvidenceKeys.Clauses("en")
}

// AddClause adds the note n to the link's evidence, as one more clause.
func (l *NoticeLink) AddClause(n record.Note) {
	l.Say(append(l.EvidenceKeys.Clone(), n)...)
}

// Say sets the when's note to n.
func (w *When) Say(n record.Note) { w.Note, w.NoteKey = n.String(), &n }

// Say sets the place's note to n.
func (p *Place) Say(n record.Note) { p.Note, p.NoteKey = n.String(), &n }

// Labelled is d labelled n.
func (d Document) Labelled(n record.Note) Document {
	d.Label, d.LabelKey = n.String(), &n
	return d
}

// NewLink is the link to url labelled n.
func NewLink(n record.Note, url string) Link {
	return Link{Label: n.String(), LabelKey: &n, URL: url}
}

// ReadBy is f read as the note n says (How).
func (f ParsedField) ReadBy(n record.Note) ParsedField {
	f.How, f.HowKey = n.String(), &n
	return f
}

// NotLinkedYet is the notice link's evidence of a meeting the link stage
// has not yet seen.
var NotLinkedYet = record.N("meet.notice.not_run")
