package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// A pin list takes contracts, land projects, meetings, people,
// organizations and payroll rows: each is pinned with its state as held
// (found, with a title or name and a content hash), its page and JSON twin
// answer, an id not held reads not_found, and /changes reads each
// unchanged.
func TestShareTypedRecordKinds(t *testing.T) {
	e := newEntityEnv(t, Config{})
	ctx := context.Background()
	type pin struct{ Kind, ID string }
	var pins []pin
	for _, k := range shareRecordKindList {
		id := "CT185020151429177"
		if k.kind != ShareKindContract {
			p, err := e.be.FindRecords(ctx, search.RecordQuery{Kinds: []string{k.engine}, Sort: search.RecordSortID, Limit: 1})
			if err != nil || len(p.Records) == 0 {
				t.Fatalf("%s: no %s record in the sample (%v)", k.kind, k.engine, err)
			}
			id = p.Records[0].ID
			if rid := p.Records[0].Keys["row_id"]; len(rid) == 1 { // roster rows are pinned by row, not release
				id = rid[0]
			}
		}
		pins = append(pins, pin{k.kind, id}, pin{k.kind, "not-held-" + k.kind})
	}
	var items []string
	for _, p := range pins {
		b, _ := json.Marshal(map[string]string{"kind": p.Kind, "id": p.ID})
		items = append(items, string(b))
	}
	created := mustCreateShare(t, e, "192.0.2.77", `{"title": "every kind", "items": [`+strings.Join(items, ",")+`]}`)
	_, b := get(t, e, "/inv/"+created.ID)
	snap := decode[Snapshot](t, b)
	if len(snap.Items) != len(pins) {
		t.Fatalf("%d items, want %d", len(snap.Items), len(pins))
	}
	for i, it := range snap.Items {
		held := i%2 == 0
		st := it.Pinned
		switch {
		case held && (st.Status != record.Found || st.ContentHash == "" || st.Title == "" && st.Name == ""):
			t.Errorf("%s %s: pinned %+v", it.Kind, it.ID, st)
		case !held && (st.Status != record.NotFound || st.Message == ""):
			t.Errorf("%s %s (not held): pinned %+v", it.Kind, it.ID, st)
		}
		if !held {
			continue
		}
		for _, which := range []string{"view", "json"} {
			u := it.Links[which]
			if !strings.HasPrefix(u, "http://rw.test/") {
				t.Fatalf("%s %s: %s link %q", it.Kind, it.ID, which, u)
			}
			if res, body := get(t, e, strings.TrimPrefix(u, "http://rw.test")); res.StatusCode != http.StatusOK {
				t.Errorf("%s %s: %s link %s answers %d %.200s", it.Kind, it.ID, which, u, res.StatusCode, body)
			}
		}
	}
	_, b = get(t, e, "/inv/"+created.ID+"/changes")
	ch := decode[ShareChanges](t, b)
	for i, c := range ch.Items {
		if want := map[bool]string{true: "unchanged", false: "unchanged"}[i%2 == 0]; c.Comparison != want {
			t.Errorf("%s %s: %s", c.Kind, c.ID, c.Comparison)
		}
	}
	if testing.Verbose() {
		fmt.Println(string(b))
	}
}
