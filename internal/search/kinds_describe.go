package search

import (
	"strings"
	"sync"
)

// KindDescription says what a record kind's records are and how a set of
// them is counted and dated, for the surfaces that list what is served
// (Form 1 /stats). It is the one place these texts are written.
type KindDescription struct {
	// RecordType names one record ("registered contract row").
	RecordType string `json:"record_type"`
	// CountingRule says what one counted record is.
	CountingRule string `json:"counting_rule"`
	// EvidenceRule says what the set's evidence date (the latest date among
	// its records) is.
	EvidenceRule string `json:"evidence_date_rule"`
	// API is the path of the JSON read that serves the kind ("" when it
	// is served only inside other views).
	API string `json:"api,omitempty"`
}

var (
	describeMu sync.RWMutex
	// kindDescriptions are the descriptions by kind name (the record kind
	// as written, "entry.payment", "payroll" …).
	kindDescriptions = map[string]KindDescription{
		"contract": {
			RecordType:   "registered contract row",
			CountingRule: "one per contract row held (a version or sub-vendor line of one contract ID is its own row; several registrations sharing a PIN each count); each row is held once, and the contract entries of the entity views are these same records",
			EvidenceRule: "the latest registration date among the rows counted (rows without a registration date, such as pending contracts, are counted but do not date the set)",
			API:          "/api/contracts",
		},
		"entry.payment": {
			RecordType:   "payment (payments dataset transaction)",
			CountingRule: "one per payment transaction held, by its document id (a transaction without one by a hash of its fields)",
			EvidenceRule: "the latest check issue date among the payments counted",
		},
		"entry.payroll": {
			RecordType:   "payroll payment (payments dataset transaction)",
			CountingRule: "one per payroll transaction held (a pay date's gross pay for one title), by a hash of its fields",
			EvidenceRule: "the latest pay date among the transactions counted",
		},
		"entry.lot": {
			RecordType:   "tax lot location",
			CountingRule: "one per tax lot (BBL) location held",
			EvidenceRule: "lot locations carry no date of their own; the source's observation time says how recent they are",
		},
		"payroll": {
			RecordType:   "payroll row (person, agency, title and fiscal year)",
			CountingRule: "one per payroll row held, flagged rows (blank names, negative values, a start date after the fiscal year) included; identical rows are kept apart",
			EvidenceRule: "the end (June 30) of the latest fiscal year among the rows counted: the dataset dates a row by its fiscal year only",
			API:          "/api/payroll",
		},
	}
)

// DescribeKind registers the description of a kind (beside its Kind
// declaration: var _ = search.DescribeKind("meeting", …)); it returns true
// so it can initialize a package variable.
func DescribeKind(kind string, d KindDescription) bool {
	describeMu.Lock()
	defer describeMu.Unlock()
	kindDescriptions[kind] = d
	return true
}

// Describe is the description of a kind; a kind without one gets a default
// that names the kind and says its records are counted by id and dated by
// their own date.
func Describe(kind string) KindDescription {
	describeMu.RLock()
	d, ok := kindDescriptions[kind]
	describeMu.RUnlock()
	if ok {
		return d
	}
	name := strings.ReplaceAll(ScopeType(kind), "_", " ")
	return KindDescription{
		RecordType:   name,
		CountingRule: "one per " + name + " record held, by its record id",
		EvidenceRule: "the latest date among the records counted (each record's own date, as its date label says)",
	}
}
