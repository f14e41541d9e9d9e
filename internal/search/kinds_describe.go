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
	// as written, "payment.payroll", "meeting" …), each registered beside
	// its Kind (DescribeKind).
	kindDescriptions = map[string]KindDescription{}
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
