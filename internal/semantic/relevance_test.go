package semantic_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/semantic"
)

// A subset's means are taken again over its own queries, by phrasing too;
// the first set is q01-q60 and nothing after it.
func TestJudgedWhereRecomputesMeans(t *testing.T) {
	q := func(id, phrasing, who string) semantic.JudgedQuery {
		return semantic.JudgedQuery{ID: id, Phrasing: phrasing, Who: who}
	}
	ms := semantic.ModeScore{Mode: semantic.ModeHybrid, PerQuery: []semantic.QueryScore{
		{Query: q("q01", "keyword", "vendor"), Recall: 1, NDCG: 1},
		{Query: q("q60", "paraphrase", "resident"), Recall: 0, NDCG: 0.5},
		{Query: q("q61", "keyword", "reporter"), Recall: 0.5, NDCG: 0.25},
		{Query: q("q62", "paraphrase", "reporter"), Recall: 0, NDCG: 0},
	}}
	first := semantic.Where([]semantic.ModeScore{ms}, semantic.InFirstSet)
	if len(first) != 1 || first[0].Queries != 2 || first[0].NDCG != 0.75 || first[0].Recall != 0.5 {
		t.Fatalf("first set: %+v", first)
	}
	if first[0].ByPhrasing["keyword"] != [2]float64{1, 1} || first[0].ByPhrasing["paraphrase"] != [2]float64{0, 0.5} {
		t.Errorf("first set by phrasing: %v", first[0].ByPhrasing)
	}
	added := semantic.Where([]semantic.ModeScore{ms}, func(q semantic.JudgedQuery) bool { return !semantic.InFirstSet(q) })
	if len(added) != 1 || added[0].Queries != 2 || added[0].NDCG != 0.125 || added[0].Worst[0] != "q62: 0.00" {
		t.Errorf("added: %+v", added)
	}
	if none := semantic.Where([]semantic.ModeScore{ms}, func(semantic.JudgedQuery) bool { return false }); len(none) != 0 {
		t.Errorf("no query kept, still %d modes", len(none))
	}
	tab := semantic.TableByAsker([]semantic.ModeScore{ms})
	if !strings.Contains(tab, "| hybrid | 1 | 0.000 | 0.500 | 2 | 0.250 | 0.125 | 1 | 1.000 | 1.000 |") {
		t.Errorf("by asker:\n%s", tab)
	}
}

// A judged set with a repeated id, an unknown asker or phrasing, or a rule
// that does not compile is refused on load.
func TestLoadJudgedRefusesBadQueries(t *testing.T) {
	dir := t.TempDir()
	good := `{"id":"q01","phrasing":"keyword","who":"vendor","need":"n","q":"x","title":"x"}`
	for name, qs := range map[string]string{
		"repeated id":      good + "," + good,
		"unknown asker":    `{"id":"q01","phrasing":"keyword","who":"mayor","need":"n","q":"x","title":"x"}`,
		"no asker":         `{"id":"q01","phrasing":"keyword","need":"n","q":"x","title":"x"}`,
		"unknown phrasing": `{"id":"q01","phrasing":"slang","who":"vendor","need":"n","q":"x","title":"x"}`,
		"bad rule":         `{"id":"q01","phrasing":"keyword","who":"vendor","need":"n","q":"x","title":"(x"}`,
	} {
		p := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".json")
		if err := os.WriteFile(p, []byte(`{"queries":[`+qs+`]}`), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := semantic.LoadJudged(p); err == nil {
			t.Errorf("%s: loaded", name)
		}
	}
	p := filepath.Join(dir, "good.json")
	if err := os.WriteFile(p, []byte(`{"queries":[`+good+`]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := semantic.LoadJudged(p); err != nil {
		t.Errorf("good set: %v", err)
	}
}
