package record

import "time"

// Link is one join between two records, found once by the indexer's link
// stage (indexer/link) and stored as a record of its own (the kind
// joins.Kind): a notice and a contract row, a contract and the
// payments naming its contract id, a hearing notice and a meeting, a
// notice and a land-use project. Readers (procure, dossiers, the site, the
// API and MCP) read these records; none of them applies a joining rule
// again.
//
// ID is stable ("<from kind>:<from id>→<to kind>:<to id>"), so linking the
// same records again replaces the link. Key is the value the two records
// share (a PIN, a base PIN, a contract id, a request id, a vendor stem);
// Method names the rule that made the join and Confidence how sure it is;
// SameProcurement says whether amounts of the two records may be added
// together; Evidence says in words what was compared, and EvidenceKey the
// same as a note (its key and arguments, for the site to say in the
// reader's language; nil on a link stored before the notes).
type Link struct {
	ID              string    `json:"id"`
	From            Ref       `json:"from"`
	To              Ref       `json:"to"`
	Key             string    `json:"key,omitempty"`
	Method          string    `json:"method"`
	Confidence      string    `json:"confidence"`
	SameProcurement bool      `json:"same_procurement"`
	Evidence        string    `json:"evidence,omitempty"`
	EvidenceKey     *Note     `json:"evidence_key,omitempty"`
	ObservedAt      time.Time `json:"observed_at,omitzero"`
}

// Ref names a record a link ties: its kind (Ref* constants) and id (a
// notice's request id, a contract row id, a payment id, a meeting id, a
// land project id).
type Ref struct {
	Kind string `json:"kind"`
	ID   string `json:"id"`
}

// String is the ref as a link record's key holds it ("contract:<id>").
func (r Ref) String() string { return r.Kind + ":" + r.ID }

// Kinds of records a link ties.
const (
	RefNotice      = "notice"
	RefContract    = "contract"
	RefPayment     = "payment"
	RefMeeting     = "meeting"
	RefLandProject = "land_project"
	// RefLandEvent is a land-use event of another publisher (a borough
	// president recommendation, a Council land-use item, a community
	// board's minutes), by its id.
	RefLandEvent = "land_event"
)

// Link methods that the link stage writes beside the PIN methods of the
// identity rules (exact, renewal, prefix …, internal/entity).
const (
	// LinkExactContractID: a payment names the contract id of a
	// registration held (high: the same contract).
	LinkExactContractID = "exact_contract_id"
)

// LinkID is the stable id of the link from one record to another.
func LinkID(from, to Ref) string { return from.String() + "→" + to.String() }

// NewLink is a link from one record to another with its stable id.
func NewLink(from, to Ref, key, method, confidence string, same bool, evidence string) Link {
	return Link{ID: LinkID(from, to), From: from, To: to, Key: key, Method: method, Confidence: confidence,
		SameProcurement: same, Evidence: evidence}
}

// Other is the end of l that is not r (and whether r is an end of l).
func (l Link) Other(r Ref) (Ref, bool) {
	switch r {
	case l.From:
		return l.To, true
	case l.To:
		return l.From, true
	}
	return Ref{}, false
}
