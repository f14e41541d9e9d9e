package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/recordwatch/recordwatch/internal/search"
)

// newClient is the load generator's HTTP client: keep-alive connections,
// enough idle ones for every worker, no compression, no proxy.
func newClient(conc int) *http.Client {
	tr := &http.Transport{
		Proxy:               nil,
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:        conc * 2,
		MaxIdleConnsPerHost: conc * 2,
		MaxConnsPerHost:     0,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true,
		ForceAttemptHTTP2:   false,
	}
	return &http.Client{Transport: tr, Timeout: requestTimeout}
}

// loadResult is one query at one concurrency on one system.
// requestTimeout bounds one request; a request that takes longer counts as
// an error (loadResult.Errors), never as a latency.
const requestTimeout = 60 * time.Second

type loadResult struct {
	Requests int
	Errors   int
	Elapsed  time.Duration
	P50      time.Duration
	P95      time.Duration
	P99      time.Duration
	Mean     time.Duration
	RPS      float64
	FirstErr string
	// Shed counts the timed requests turned away at least once by
	// admission control (503 with Retry-After) and sent again after the
	// delay (getPolitely); their latency holds the waits.
	Shed int
}

// completed reports whether any request of the run answered.
func (r loadResult) completed() bool { return r.Requests > 0 }

// fasterThan reports whether r beat peer on both p50 and throughput. A peer
// none of whose requests answered (all timed out or failed) is beaten by
// any r that answered.
func (r loadResult) fasterThan(peer loadResult) bool {
	if !r.completed() {
		return false
	}
	if !peer.completed() {
		return true
	}
	return r.P50 < peer.P50 && r.RPS > peer.RPS
}

// percentile is the nearest-rank percentile p (0–100) of sorted latencies.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	rank = min(max(rank, 1), len(sorted))
	return sorted[rank-1]
}

// summarize computes the figures of a run from its raw latencies.
func summarize(durs []time.Duration, errs int, elapsed time.Duration) loadResult {
	slices.Sort(durs)
	r := loadResult{Requests: len(durs), Errors: errs, Elapsed: elapsed}
	if len(durs) == 0 {
		return r
	}
	var sum time.Duration
	for _, d := range durs {
		sum += d
	}
	r.Mean = sum / time.Duration(len(durs))
	r.P50, r.P95, r.P99 = percentile(durs, 50), percentile(durs, 95), percentile(durs, 99)
	r.RPS = float64(len(durs)) / elapsed.Seconds()
	return r
}

// get fetches one URL and reads the body; an answer other than 200 is an error.
func get(ctx context.Context, c *http.Client, u string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		if len(body) > 300 {
			body = body[:300]
		}
		err := fmt.Errorf("GET %s: %s: %s", u, resp.Status, body)
		if after, ok := retryAfter(resp); ok {
			return nil, &shedError{After: after, err: err}
		}
		return nil, err
	}
	return body, nil
}

// shedError is a refusal that says when to come back: 503 Service
// Unavailable with Retry-After, how Recordwatch's admission control turns
// away an expensive request it has no slot for.
type shedError struct {
	After time.Duration
	err   error
}

func (e *shedError) Error() string { return e.err.Error() }

// retryAfter reads the delay of a 503 with a Retry-After in seconds.
func retryAfter(resp *http.Response) (time.Duration, bool) {
	if resp.StatusCode != http.StatusServiceUnavailable {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimSpace(resp.Header.Get("Retry-After")))
	if err != nil || n < 0 {
		return 0, false
	}
	return time.Duration(n) * time.Second, true
}

// getPolitely is get as a well-behaved client sends it: a refusal with
// Retry-After is sent again after the delay it asks for, as often as it
// is refused within requestTimeout from the first send. shed counts the
// refusals; the caller times the whole exchange, waits included.
func getPolitely(ctx context.Context, c *http.Client, u string) (body []byte, shed int, err error) {
	deadline := time.Now().Add(requestTimeout)
	for {
		body, err = get(ctx, c, u)
		var se *shedError
		if !errors.As(err, &se) {
			return body, shed, err
		}
		shed++
		if time.Now().Add(se.After).After(deadline) {
			return nil, shed, fmt.Errorf("refused %d times within %s: %w", shed, requestTimeout, err)
		}
		t := time.NewTimer(se.After)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, shed, ctx.Err()
		case <-t.C:
		}
	}
}

// runLoad sends q to base from conc workers: first for warm (discarded),
// then for dur, recording every latency. seq numbers requests (cold feeds
// use it to ask for a new feed each time).
func runLoad(ctx context.Context, c *http.Client, base string, q mixQuery, conc int, warm, dur time.Duration, seq *atomic.Int64) loadResult {
	var shedAll atomic.Int64
	phase := func(d time.Duration, record bool) ([]time.Duration, int, string, time.Duration) {
		deadline := time.Now().Add(d)
		var mu sync.Mutex
		var all []time.Duration
		errs := 0
		firstErr := ""
		var wg sync.WaitGroup
		start := time.Now()
		for range conc {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var durs []time.Duration
				nerr := 0
				var ferr string
				for time.Now().Before(deadline) && ctx.Err() == nil {
					u := base + q.path(seq.Add(1))
					t := time.Now()
					_, shed, err := getPolitely(ctx, c, u)
					took := time.Since(t)
					if shed > 0 && record {
						shedAll.Add(1)
					}
					if err != nil {
						nerr++
						if ferr == "" {
							ferr = err.Error()
						}
						continue
					}
					if record {
						durs = append(durs, took)
					}
				}
				mu.Lock()
				all = append(all, durs...)
				errs += nerr
				if firstErr == "" {
					firstErr = ferr
				}
				mu.Unlock()
			}()
		}
		wg.Wait()
		return all, errs, firstErr, time.Since(start)
	}
	if warm > 0 {
		phase(warm, false)
	}
	durs, errs, firstErr, elapsed := phase(dur, true)
	r := summarize(durs, errs, elapsed)
	r.FirstErr = firstErr
	r.Shed = int(shedAll.Load())
	return r
}

// answer is what the fairness check reads from a response.
type answer struct {
	Total  int                            `json:"total"`
	Facets map[string][]search.FacetCount `json:"facets"`
}

// fetchAnswer reads q's answer for the fairness check. Searches ask for the
// exact count (exact_count=true; the peers always count exactly): without
// it Recordwatch counts exactly only up to 10,000 (record.CountLimit), as
// the load runs it.
func fetchAnswer(ctx context.Context, c *http.Client, base string, q mixQuery) (answer, error) {
	var a answer
	path := q.path(0)
	if q.peerServed() {
		path += "&exact_count=true"
	}
	body, err := get(ctx, c, base+path)
	if err != nil {
		return a, err
	}
	err = json.Unmarshal(body, &a)
	return a, err
}

// sameFacets compares two facet maps exactly (every facet, value and count).
func sameFacets(a, b map[string][]search.FacetCount) (bool, string) {
	for _, name := range []string{search.FacetLens, search.FacetAgency, search.FacetType, search.FacetYear} {
		x, y := a[name], b[name]
		if len(x) != len(y) {
			return false, fmt.Sprintf("facet %s: %d values vs %d", name, len(x), len(y))
		}
		for i := range x {
			if x[i] != y[i] {
				return false, fmt.Sprintf("facet %s #%d: %s=%d vs %s=%d", name, i+1, x[i].Value, x[i].Count, y[i].Value, y[i].Count)
			}
		}
	}
	return true, ""
}
