package indexer

import (
	"context"
	"io/fs"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/recordwatch/recordwatch/indexer/link"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
)

// probe is a record kind of the test: its link stage counts the notices
// held when it runs.
type probe struct {
	ID      string `json:"id"`
	Notices int    `json:"notices_seen"`
}

var probeKind = search.Kind[probe]{Name: "probe", Index: func(p probe) search.Record {
	return search.Record{ID: p.ID, Source: "probesrc", Keys: map[string][]string{"probe_id": {p.ID}}}
}}

// probeSource reads one record per line of probe/ids.txt.
type probeSource struct{}

func (probeSource) Name() string  { return "probe" }
func (probeSource) Label() string { return "test probe" }
func (probeSource) Holds() string { return HoldsRecords }
func (probeSource) Read(fsys fs.FS, dir string) (Batch, []error) {
	data, err := fs.ReadFile(fsys, dir+"/ids.txt")
	if err != nil {
		return Batch{}, []error{err}
	}
	var ps []probe
	for _, id := range strings.Fields(string(data)) {
		ps = append(ps, probe{ID: strings.Trim(id, "_")})
	}
	return Batch{Rows: len(ps), Records: []RecordSet{Set[probe]{Of: probeKind, Items: ps,
		LinkWith: func(ctx context.Context, env link.Env, items []probe) []error {
			n := 0
			if env.Notices != nil {
				res, err := env.Notices.Search(ctx, search.Query{Limit: 1})
				if err != nil {
					return []error{err}
				}
				n = res.Total
			}
			for i := range items {
				items[i].Notices = n
			}
			return nil
		}}}}, nil
}

// A record source's typed values are linked, encoded and written through
// Records; a value that makes no valid record is rejected with its reason
// and the others are written. In the bundled-sample load the record
// sources come after the notices (their link stage reads them), and a
// start that finds records missing completes them by count.
func TestRecordSourcesLoadThroughRecords(t *testing.T) {
	ctx := context.Background()
	old := Sources
	Sources = append(append([]Source{}, Sources...), probeSource{})
	defer func() { Sources = old }()

	sample := overlay{os.DirFS("../testdata/sample"), fstest.MapFS{"probe/ids.txt": {Data: []byte("a b __ c")}}}
	b, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ix := sampleIndexer(b)
	rep, err := ix.Load(ctx, probeSource{}, sample, "probe")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Indexed != 3 || len(rep.Errors) != 1 || !strings.Contains(rep.Errors[0].Error(), "probe") {
		t.Fatalf("report: indexed %d, errors %v; want 3 indexed and the empty id rejected", rep.Indexed, rep.Errors)
	}
	got, err := search.Get(ctx, b, probeKind, "a")
	if err != nil || got.Notices != 0 {
		t.Fatalf("probe a before notices: %+v %v", got, err)
	}

	fresh, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	ix = sampleIndexer(fresh)
	if loaded, err := ix.EnsureSample(ctx, sample); err != nil || !loaded {
		t.Fatalf("EnsureSample: %v %v", loaded, err)
	}
	got, err = search.Get(ctx, fresh, probeKind, "c")
	if err != nil || got.Notices == 0 {
		t.Fatalf("probe c after the sample load: %+v %v; its link stage should have seen the notices", got, err)
	}
	if err := fresh.DeleteRecords(ctx, probeKind.Name, []string{"b"}); err != nil {
		t.Fatal(err)
	}
	if loaded, err := ix.EnsureSample(ctx, sample); err != nil {
		t.Fatal(err)
	} else if _, err := search.Get(ctx, fresh, probeKind, "b"); err != nil {
		t.Fatalf("a missing record is not completed at the next start (loaded %v): %v", loaded, err)
	}
	if loaded, err := ix.EnsureSampleRecords(ctx, sample); err != nil || loaded {
		t.Errorf("a complete load is loaded again: %v %v", loaded, err)
	}
}

// overlay reads from fsys, then extra.
type overlay struct{ fsys, extra fs.FS }

func (o overlay) Open(name string) (fs.File, error) {
	if f, err := o.extra.Open(name); err == nil {
		return f, nil
	}
	return o.fsys.Open(name)
}
