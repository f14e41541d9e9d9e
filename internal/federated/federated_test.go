package federated_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/federated"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
	"github.com/recordwatch/recordwatch/internal/view"
)

var (
	fixedNow = time.Date(2026, 7, 31, 12, 0, 0, 0, record.NewYork)
	svc      *federated.Service
)

// TestMain loads the bundled sample, as `go run .` does, into a real
// embedded index.
func TestMain(m *testing.M) {
	dir, _ := os.MkdirTemp("", "rw-federated-*")
	be, err := embedded.Open(filepath.Join(dir, "index"))
	if err != nil {
		panic(err)
	}
	cw := entity.DefaultCrosswalk()
	ix := &indexer.Indexer{Backend: be, Crosswalk: cw, Now: func() time.Time { return fixedNow }}
	if _, err := ix.EnsureSample(context.Background(), os.DirFS("../../testdata/sample")); err != nil {
		panic(err)
	}
	svc = federated.New(be, cw, view.Links{Base: "http://rw.test", Form: 1})
	code := m.Run()
	be.Close()
	os.RemoveAll(dir)
	os.Exit(code)
}

func TestDump(t *testing.T) {
	for _, q := range []string{"NYPD", "DOT", os.Getenv("FEDQ")} {
		if q == "" {
			continue
		}
		p, err := svc.Search(context.Background(), federated.Request{Q: q, Limit: 50})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range p.Results {
			fmt.Printf("%d %s %s %q %s %s %v\n", r.Rank, r.Kind, r.ID, r.Title, r.Route, r.Permalink, r.Match)
		}
		for _, l := range p.Lenses {
			b, _ := json.Marshal(l)
			fmt.Println(string(b)[:min(400, len(b))])
		}
		fmt.Println(p.Total, p.Ranked, p.NextCursor, p.Understood)
	}
}
