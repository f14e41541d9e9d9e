package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// admissionGoal is the p95 a notice read by id keeps whatever the
// expensive load (issue 45 item 4).
const admissionGoal = 20 * time.Millisecond

// admissionKind is one kind of expensive request: the costliest route or
// tool of its kind, sent by every client of a phase.
type admissionKind struct {
	name   string
	method string
	// target is the path (and query) of the n-th request of client i;
	// body its body (POST)
	target func(rng *rand.Rand) string
	body   func(rng *rand.Rand) string
}

// admissionKinds are the kinds of the benchmark, each at its costliest on
// the served corpus: agency the agency with the most notices (the search
// facet's first), vendor the vendor named most often in the answers.
func admissionKinds(agency, vendor string) []admissionKind {
	word := func(rng *rand.Rand) string { return soakWords[rng.IntN(len(soakWords))] }
	get := func(name string, f func(rng *rand.Rand) string) admissionKind {
		return admissionKind{name: name, method: "GET", target: f}
	}
	mcpCall := func(name, tool, args string) admissionKind {
		return admissionKind{name: name, method: "POST", target: func(*rand.Rand) string { return "/mcp" },
			body: func(rng *rand.Rand) string {
				return `{"jsonrpc":"2.0","id":` + strconv.Itoa(rng.IntN(1e6)) + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `}}`
			}}
	}
	a, v := url.PathEscape(agency), url.PathEscape(vendor)
	names, _ := json.Marshal([]string{agency, vendor, "parks", "police", "sanitation", "transportation", "education", "housing", "health", "design"})
	agencyArgs, _ := json.Marshal(map[string]string{"kind": "agency", "name": agency})
	return []admissionKind{
		get("search: facets + exact count", func(rng *rand.Rand) string { return "/api/search?facets=true&exact_count=true&q=" + word(rng) }),
		get("search: hybrid mode", func(rng *rand.Rand) string { return "/api/search?mode=hybrid&q=" + word(rng) }),
		get("federated search", func(rng *rand.Rand) string { return "/api/search/federated?q=" + word(rng) }),
		get("passages", func(rng *rand.Rand) string { return "/api/passages?q=" + word(rng) }),
		get("contract analysis", func(*rand.Rand) string { return "/api/contracts/analysis?group_by=vendor" }),
		get("payroll rows", func(rng *rand.Rand) string { return "/api/payroll?name=" + word(rng) }),
		get("agency profile (JSON)", func(*rand.Rand) string { return "/api/agencies/" + a }),
		get("agency profile (page)", func(*rand.Rand) string { return "/agencies/" + a + "/" }),
		get("vendor profile (JSON)", func(*rand.Rand) string { return "/api/vendors/" + v }),
		get("vendor profile (page)", func(*rand.Rand) string { return "/vendors/" + v + "/" }),
		get("property locations", func(*rand.Rand) string { return "/property-locations" }),
		{name: "batch look-up (10 names)", method: "POST", target: func(*rand.Rand) string { return "/batch" },
			body: func(*rand.Rand) string { return `{"names":` + string(names) + `}` }},
		mcpCall("MCP get_entity_dossier", "get_entity_dossier", string(agencyArgs)),
		mcpCall("MCP get_entity_relationships", "get_entity_relationships", string(agencyArgs)),
	}
}

// admissionRow is one phase's figures.
type admissionRow struct {
	kind          string
	reads, failed int
	p50, p95, p99 time.Duration
	outcomes      map[int]int
}

// runAdmission measures admission control (issue 31 item 4, issue 45 item
// 4) against the built binary on the bundled sample: for each kind of
// expensive request in turn, 64 clients send the costliest request of that
// kind for d (each waiting as told by a refusal's Retry-After, each
// request from its own address so no daily ceiling is what answers) while
// one client reads notices by id, one at a time. It prints per kind the
// notice reads' p50/p95/p99 against the 20 ms goal and the expensive
// requests' outcomes. It fails when the kinds cannot be found on the
// corpus, not on the figures.
func runAdmission(d time.Duration, workDir string) error {
	srv, err := newSoakServer(workDir, "admission", false)
	if err != nil {
		return err
	}
	defer srv.log.Close()
	if err := srv.start(); err != nil {
		return err
	}
	defer srv.stop()
	base := "http://" + srv.addr
	client := &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 128}}
	ids, agency, vendor, err := admissionTargets(client, base)
	if err != nil {
		return err
	}
	logf("admission: %d notice ids; costliest agency %q, vendor %q; %v per kind", len(ids), agency, vendor, d)
	var rows []admissionRow
	for _, k := range admissionKinds(agency, vendor) {
		row := admissionPhase(client, base, k, ids, d)
		logf("admission: %s: notice p95 %v", k.name, row.p95)
		rows = append(rows, row)
	}
	fmt.Printf("## Admission control: notice reads by id while 64 clients send the costliest request of one kind (%v per kind, %d cores; goal p95 ≤ %v)\n\n",
		d, runtime.NumCPU(), admissionGoal)
	fmt.Printf("Agency: %s; vendor: %s.\n\n", agency, vendor)
	fmt.Println("| expensive kind | notice reads | not 200 | p50 | p95 | p99 | goal | expensive answers |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	for _, r := range rows {
		var codes []int
		for c := range r.outcomes {
			codes = append(codes, c)
		}
		sort.Ints(codes)
		var parts []string
		for _, c := range codes {
			parts = append(parts, fmt.Sprintf("%d × %d", r.outcomes[c], c))
		}
		goal := "met"
		if r.p95 > admissionGoal || r.reads == 0 {
			goal = "MISSED"
		}
		round := func(d time.Duration) time.Duration { return d.Round(10 * time.Microsecond) }
		fmt.Printf("| %s | %d | %d | %v | %v | %v | %s | %s |\n", r.kind, r.reads, r.failed, round(r.p50), round(r.p95), round(r.p99), goal, strings.Join(parts, ", "))
	}
	fmt.Println("\n503: refused by admission control with Retry-After (the client waits as told).")
	return nil
}

// admissionTargets are notice ids to read, the agency with the most
// notices (the agency facet's first value) and the vendor named most often
// in the answers of the soak words.
func admissionTargets(client *http.Client, base string) (ids []string, agency, vendor string, err error) {
	vendors := map[string]int{}
	for i, w := range soakWords[:20] {
		q := "/api/search?limit=50&q=" + w
		if i == 0 {
			q += "&facets=true"
		}
		res, err := client.Get(base + q)
		if err != nil {
			return nil, "", "", err
		}
		var out struct {
			Hits []struct {
				RequestID  string `json:"request_id"`
				VendorName string `json:"vendor"`
			} `json:"hits"`
			Facets map[string][]struct {
				Value string `json:"value"`
			} `json:"facets"`
		}
		_ = json.NewDecoder(res.Body).Decode(&out)
		res.Body.Close()
		for _, h := range out.Hits {
			ids = append(ids, h.RequestID)
			if h.VendorName != "" {
				vendors[h.VendorName]++
			}
		}
		if f := out.Facets["agency"]; len(f) > 0 && agency == "" {
			agency = f[0].Value
		}
	}
	for v, n := range vendors {
		if vendor == "" || n > vendors[vendor] || (n == vendors[vendor] && v < vendor) {
			vendor = v
		}
	}
	if len(ids) == 0 || agency == "" || vendor == "" {
		return nil, "", "", fmt.Errorf("admission: %d notice ids, agency %q, vendor %q", len(ids), agency, vendor)
	}
	return ids, agency, vendor, nil
}

// admissionPhase is one kind's phase: 64 clients on k and the notice
// reads, for d.
func admissionPhase(client *http.Client, base string, k admissionKind, ids []string, d time.Duration) admissionRow {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	row := admissionRow{kind: k.name, outcomes: map[int]int{}}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i), 11))
			for n := 0; ctx.Err() == nil; n++ {
				var body io.Reader
				if k.body != nil {
					body = strings.NewReader(k.body(rng))
				}
				req, _ := http.NewRequestWithContext(ctx, k.method, base+k.target(rng), body)
				if body != nil {
					req.Header.Set("Content-Type", "application/json")
					req.Header.Set("Accept", "application/json, text/event-stream")
				}
				// an address per request: no per-client bucket or daily
				// ceiling is what answers
				req.Header.Set("X-Forwarded-For", fmt.Sprintf("10.%d.%d.%d", i, (n>>8)&255, n&255))
				res, err := client.Do(req)
				if err != nil {
					continue
				}
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				mu.Lock()
				row.outcomes[res.StatusCode]++
				mu.Unlock()
				// a client told to come back later does (Retry-After)
				if s, err := strconv.Atoi(res.Header.Get("Retry-After")); err == nil && s > 0 {
					select {
					case <-ctx.Done():
					case <-time.After(time.Duration(s) * time.Second):
					}
				}
			}
		}()
	}
	var lat []time.Duration
	for n := 0; ctx.Err() == nil; n++ {
		req, _ := http.NewRequestWithContext(ctx, "GET", base+"/api/notices/"+ids[n%len(ids)], nil)
		// many reader addresses: the per-client rate limit is not what is measured
		req.Header.Set("X-Forwarded-For", fmt.Sprintf("203.0.113.%d", n%256))
		start := time.Now()
		res, err := client.Do(req)
		if err != nil {
			if !errors.Is(err, context.DeadlineExceeded) {
				row.failed++
			}
			continue
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode == 200 {
			lat = append(lat, time.Since(start))
		} else {
			row.failed++
		}
	}
	wg.Wait()
	slices.Sort(lat)
	row.reads = len(lat)
	row.p50, row.p95, row.p99 = percentile(lat, 50), percentile(lat, 95), percentile(lat, 99)
	return row
}
