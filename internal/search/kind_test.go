package search

import (
	"regexp"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/record"
)

// A versioned kind writes its layout version as a key on every record; an
// unversioned kind writes none, and the envelope Index built is not
// changed. (Moved from contracts_test.go, which read it off ContractKind.)
func TestKindVersionKey(t *testing.T) {
	type v struct{ ID string }
	keys := map[string][]string{"k": {"v"}}
	plain := Kind[v]{Name: "plain", Index: func(v) Record { return Record{ID: "1", Source: "s", Keys: keys} }}
	r, err := plain.Encode(v{})
	if err != nil || len(r.Keys) != 1 || plain.VersionKey() != "" {
		t.Errorf("unversioned kind keys %v %v", r.Keys, err)
	}
	v2 := plain
	v2.Version = 2
	if r, err = v2.Encode(v{}); err != nil || len(r.Keys[KeyKindVersion]) != 1 || r.Keys[KeyKindVersion][0] != "2" || v2.VersionKey() != "2" {
		t.Fatalf("version 2 keys %v %v", r.Keys, err)
	}
	v3 := plain
	v3.Version = 3
	if r, _ = v3.Encode(v{}); r.Keys[KeyKindVersion][0] != "3" || len(keys) != 1 {
		t.Errorf("version 3 keys %v, Index's map %v", r.Keys, keys)
	}
}

// Every record id keeps one rule (no markup, quotes, control or invisible
// characters, no surrounding space, bounded), and a kind may narrow it:
// values whose ids break either are refused at Encode with the reason,
// never stored unreachable.
func TestRecordIDsCheckedAtIngest(t *testing.T) {
	for _, id := range []string{"NYC_GOID_000002", "NYC_GOID_000002/principal-officer/2026-06-12", "legistar:22525", "CT100220268808241"} {
		if err := CheckRecordID(id); err != nil {
			t.Errorf("%q refused: %v", id, err)
		}
	}
	for _, id := range []string{"<b>NYC_GOID</b>", `say "hi"`, "a\\b", " padded", "zero\u200bwidth", "tab\tid", strings.Repeat("x", MaxRecordIDLen+1)} {
		if err := CheckRecordID(id); record.ErrorCode(err) != record.EINVALID {
			t.Errorf("%q accepted: %v", id, err)
		}
	}
	type row struct{ ID string }
	k := Kind[row]{Name: "test.slashless", ID: regexp.MustCompile(`^[^/]+$`),
		Index: func(r row) Record { return Record{ID: r.ID, Source: "test"} }}
	if _, err := k.Encode(row{"CT1/2"}); record.ErrorCode(err) != record.EINVALID || !strings.Contains(record.ErrorMessage(err), "CT1/2") {
		t.Errorf("an id the kind's routes cannot read: %v", err)
	}
	if _, err := k.Encode(row{"CT12"}); err != nil {
		t.Errorf("a good id: %v", err)
	}
}
