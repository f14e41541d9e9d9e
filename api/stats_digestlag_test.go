package api

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/indexer/sampletest"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
)

// /stats publishes a City Record row's lag to a digest mail with the other
// lag figures (issue 32): live.digest_lag, the digest job's, projected
// from the City Record job's lag, the digest window and the digest runs.
func TestStatsPublishesLagToDigest(t *testing.T) {
	be := sampletest.Shared(t, sampletest.Notices, fixedNow)
	var crol, digests []record.Receipt
	for i := range 4 {
		s := fixedNow.Add(-time.Duration(i) * 5 * time.Minute)
		crol = append(crol, record.Receipt{Job: "crol", Outcome: record.ReceiptOK, Started: s, Finished: s.Add(200 * time.Millisecond)})
		digests = append(digests, record.Receipt{Job: "digests", Outcome: record.ReceiptOK, Started: s, Finished: s.Add(time.Second), Written: 1})
	}
	jobs := func(context.Context) ([]record.JobStatus, error) {
		c := record.JobStatus{Job: "crol", Source: "crol", Every: "5m0s", Receipts: crol, Lag: record.LagOf(crol, 5*time.Minute)}
		d := record.JobStatus{Job: "digests", Source: "mailer", Every: "1m0s", Receipts: digests, Lag: record.LagOf(digests, time.Minute)}
		d.DigestLag = record.DigestLagOf(c.Lag, d.Receipts, 24*time.Hour)
		return []record.JobStatus{c, d}, nil
	}
	srv := newServer(Config{BaseURL: "http://rw.test", RatePerSecond: 1e6, Burst: 1e6},
		Deps{Search: be, Crosswalk: entity.DefaultCrosswalk(), Now: func() time.Time { return fixedNow }, Jobs: jobs})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	_, body := get(t, &env{srv: srv, ts: ts}, "/stats")
	var v struct {
		Live *struct {
			DigestLag *record.DigestLag `json:"digest_lag"`
		} `json:"live"`
	}
	if err := json.Unmarshal(body, &v); err != nil || v.Live == nil || v.Live.DigestLag == nil {
		t.Fatalf("/stats live.digest_lag: %v %.400s", err, body)
	}
	l := v.Live.DigestLag
	// searchable p50: half of 5 min + 0.2 s; then half a day; then a 1 s run
	if l.Runs != 4 || l.WindowSeconds != 86400 || l.ToDigestP50Seconds != 150.2+43200+1 || l.ToDigestP95Seconds <= l.ToDigestP50Seconds || l.Note == "" {
		t.Errorf("digest lag %+v", l)
	}
}
