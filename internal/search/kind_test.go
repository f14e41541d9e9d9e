package search

import "testing"

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
