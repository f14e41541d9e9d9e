package embedded

import (
	"math"
	"os"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/indexer/source/crol"
	"github.com/recordwatch/recordwatch/internal/entity"
)

// TestPivotsAreTheSampleAverages: the BM25 length pivots are the bundled
// sample's average lengths (within 10%), as analyzed today.
func TestPivotsAreTheSampleAverages(t *testing.T) {
	c, errs := crol.Scan(os.DirFS("../../../testdata/sample"), "crol", entity.DefaultCrosswalk())
	if len(errs) > 0 || len(c.Notices) < 1000 {
		t.Fatalf("sample: %d notices, %v", len(c.Notices), errs)
	}
	m := noticeMapping()
	a := m.AnalyzerNamed(analyzerName)
	var tot, ptot, np int
	for _, n := range c.Notices {
		content := strings.Join(nonEmpty(n.Title, n.AgencyName, n.VendorName, n.PIN, n.Text), "\n")
		tot += len(a.Analyze([]byte(content)))
	}
	for _, d := range indexer.Docs(c.Notices) {
		for _, p := range d.Passages {
			ptot += len(a.Analyze([]byte(p.Text)))
			np++
		}
	}
	for _, c := range []struct {
		what       string
		avg, pivot float64
	}{{"notice content", float64(tot) / float64(len(c.Notices)), NoticePivot}, {"passage", float64(ptot) / float64(np), PassagePivot}} {
		if math.Abs(c.avg-c.pivot) > c.pivot/10 {
			t.Errorf("%s: average %.1f indexed words in the sample, pivot %v", c.what, c.avg, c.pivot)
		}
	}
}
