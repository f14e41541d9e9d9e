package main

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"

	"github.com/recordwatch/recordwatch/api"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// The varied query log: queries people send, each sent once. The fixed mix
// (mix.go) repeats ten queries for seconds each, so every engine answers
// from warm caches (the hot-cache case); the log is built from the corpus
// itself — words in three frequency bands, OR groups of two, three and five
// words, two-word phrases cut from real texts, filtered and passage
// queries, words with every facet (the fixed mix's facets query), semantic
// and hybrid — and no query in it repeats.
//
// Every system is running at once and each query goes to every system in
// turn, the order rotated per query (interleaved: a busy machine weighs on
// all of them alike). Each timed response is also the fairness check: its
// total is read, capped at record.CountLimit as Recordwatch counts (the
// peers count exactly), so the timed load counts the way the check does.

// Bands of the varied log.
const (
	bandRare     = "rare word"
	bandMedium   = "medium word"
	bandCommon   = "common word"
	bandOr2      = "2-word OR"
	bandOr3      = "3-word OR"
	bandOr5      = "5-word OR"
	bandPhrase   = "phrase"
	bandFiltered = "filtered"
	bandPassages = "passages"
	bandFacets   = "facets"
	bandSemantic = "semantic"
	bandHybrid   = "hybrid"
)

// variedBands is the report order, with how many queries of each the log
// holds.
var variedBands = []struct {
	Name string
	N    int
}{
	{bandRare, 150}, {bandMedium, 150}, {bandCommon, 100}, {bandOr2, 120}, {bandOr3, 100}, {bandOr5, 80},
	{bandPhrase, 200}, {bandFiltered, 100}, {bandPassages, 100}, {bandFacets, 100}, {bandSemantic, 60}, {bandHybrid, 40},
}

// logQuery is one query of the log.
type logQuery struct {
	mixQuery
	Band string
}

// ourOnly: semantic and hybrid are Recordwatch's (and so OpenSearch's,
// served through Recordwatch's API); the database peers have no vectors.
func (q logQuery) ourOnly() bool { return q.Band == bandSemantic || q.Band == bandHybrid }

// benchStop are words no band picks: the boilerplate every notice has,
// PostgreSQL's English stop list (the first list below: words of three
// letters or fewer are never picked) and Bleve's English stop list, which
// Recordwatch and OpenSearch (mappings/notices.v1.json) drop. A word in
// one stop list only is not a fair query: the 100k run's log held "kathy
// freight kahiem cannot facing", and the engines drop "cannot" (a Bleve
// stop word) while FTS5 has no stop list and PostgreSQL's lacks it, so the
// databases found about twice as many notices.
var benchStop = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a about above after again against all am an and any are as at be because been before being
below between both but by can did do does doing down during each few for from further had has have having he her here hers
herself him himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or
other our ours ourselves out over own same she should so some such than that the their theirs them themselves then there these
they this those through to too under until up very was we were what when where which while who whom why will with you your
yours yourself yourselves shall may must would could also per`) {
		benchStop[w] = true
	}
	bleveStop := analysis.NewTokenMap()
	if err := bleveStop.LoadBytes(en.EnglishStopWords); err != nil {
		panic(err)
	}
	for w := range bleveStop {
		benchStop[w] = true
	}
}

// benchStopStems are the Porter stems of benchStop: a word with one of
// these stems is not picked either. FTS5 keeps stop words, so it finds
// "furtherance" in a notice that says "further" (both stem to "further"),
// where the engines and PostgreSQL dropped "further" as a stop word.
var benchStopStems = map[string]bool{}

// stopStemmed caches, by word, whether the word's stem is in benchStopStems.
var stopStemmed sync.Map

func init() {
	for w := range benchStop {
		benchStopStems[porterStem(w)] = true
	}
}

// porterStem is w's stem by Bleve's Porter stemmer (Recordwatch's).
func porterStem(w string) string {
	return string(porter.NewPorterStemmer().Filter(analysis.TokenStream{&analysis.Token{Term: []byte(w)}})[0].Term)
}

// words are the lower-case letter words of s (at least 4 letters), in
// order, but for the stop words and the words stemmed as one.
func benchWords(s string) []string {
	f := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) })
	out := f[:0]
	for _, w := range f {
		if len(w) < 4 || len(w) > 20 || benchStop[w] {
			continue
		}
		stop, ok := stopStemmed.Load(w)
		if !ok {
			stop = benchStopStems[porterStem(w)]
			stopStemmed.Store(w, stop)
		}
		if !stop.(bool) {
			out = append(out, w)
		}
	}
	return out
}

// buildVariedLog builds the log from the first notices of a corpus: word
// document frequencies over them set the bands (rare: in at most 0.05% of
// them, or 3, medium: up to 1%, common: more), phrases are adjacent words of
// their texts, filters are agencies that hold notices. The same corpus and
// seed give the same log.
func buildVariedLog(notices []record.Notice, seed uint64) []logQuery {
	r := rand.New(rand.NewPCG(seed, 36))
	df := map[string]int{}
	var agencies []string
	seenAgency := map[string]bool{}
	for _, n := range notices {
		seen := map[string]bool{}
		for _, w := range benchWords(n.Title + " " + n.Text) {
			if !seen[w] {
				seen[w] = true
				df[w]++
			}
		}
		if n.AgencyID != "" && !seenAgency[n.AgencyID] {
			seenAgency[n.AgencyID] = true
			agencies = append(agencies, n.AgencyID)
		}
	}
	slices.Sort(agencies)
	total := float64(len(notices))
	var rare, medium, common []string
	for w, c := range df {
		switch f := float64(c) / total; {
		case c < 2:
		case c <= max(3, int(total*0.0005)):
			rare = append(rare, w)
		case f <= 0.01:
			medium = append(medium, w)
		default:
			common = append(common, w)
		}
	}
	for _, s := range [][]string{rare, medium, common} {
		slices.Sort(s)
		r.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
	}
	used := map[string]bool{}
	var out []logQuery
	add := func(band string, kind string, params url.Values) bool {
		key := kind + "?" + params.Encode()
		if used[key] {
			return false
		}
		used[key] = true
		name := fmt.Sprintf("%s #%d", band, len(out))
		out = append(out, logQuery{mixQuery: mixQuery{Name: name, Kind: kind, Params: params}, Band: band})
		return true
	}
	pick := func(s []string, i int) string {
		if len(s) == 0 {
			return ""
		}
		return s[i%len(s)]
	}
	q := func(kv ...string) url.Values {
		v := url.Values{}
		for i := 0; i+1 < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		return v
	}
	// phrase and semantic sources: adjacent words of real texts
	phrase := func() string {
		for tries := 0; tries < 50; tries++ {
			n := notices[r.IntN(len(notices))]
			ws := benchWords(n.Text)
			if len(ws) < 2 {
				continue
			}
			i := r.IntN(len(ws) - 1)
			// adjacent in the text itself, not only after dropping stop words
			p := ws[i] + " " + ws[i+1]
			if strings.Contains(strings.ToLower(n.Text), p) {
				return p
			}
		}
		return ""
	}
	for _, b := range variedBands {
		made := 0
		for i := 0; made < b.N && i < b.N*20; i++ {
			var ok bool
			switch b.Name {
			case bandRare:
				ok = add(b.Name, kindSearch, q("q", pick(rare, i)))
			case bandMedium:
				ok = add(b.Name, kindSearch, q("q", pick(medium, i+7)))
			case bandCommon:
				ok = add(b.Name, kindSearch, q("q", pick(common, i)))
			case bandOr2:
				ok = add(b.Name, kindSearch, q("q", pick(medium, r.IntN(1<<30))+" "+pick(common, r.IntN(1<<30))))
			case bandOr3:
				ok = add(b.Name, kindSearch, q("q", pick(rare, r.IntN(1<<30))+" "+pick(medium, r.IntN(1<<30))+" "+pick(common, r.IntN(1<<30))))
			case bandOr5:
				ws := []string{pick(rare, r.IntN(1<<30)), pick(medium, r.IntN(1<<30)), pick(medium, r.IntN(1<<30)), pick(common, r.IntN(1<<30)), pick(common, r.IntN(1<<30))}
				ok = add(b.Name, kindSearch, q("q", strings.Join(ws, " ")))
			case bandPhrase:
				if p := phrase(); p != "" {
					ok = add(b.Name, kindSearch, q("q", `"`+p+`"`))
				}
			case bandFiltered:
				params := q("q", pick(medium, r.IntN(1<<30)), "agency", pick(agencies, r.IntN(1<<30)))
				if i%2 == 1 {
					params = q("q", pick(common, r.IntN(1<<30)), "lens", "money", "min", "100000")
				}
				ok = add(b.Name, kindSearch, params)
			case bandPassages:
				ok = add(b.Name, kindPassages, q("q", pick(medium, r.IntN(1<<30))+" "+pick(medium, r.IntN(1<<30))))
			case bandFacets:
				// the fixed mix's facets query (every facet: lens, agency,
				// notice type, year) for a medium or a common word
				w := pick(medium, r.IntN(1<<30))
				if i%2 == 1 {
					w = pick(common, r.IntN(1<<30))
				}
				ok = add(b.Name, kindSearch, q("q", w, "facets", "true"))
			case bandSemantic, bandHybrid:
				if p := phrase(); p != "" {
					mode := "semantic"
					if b.Name == bandHybrid {
						mode = "hybrid"
					}
					ok = add(b.Name, kindSearch, q("q", p+" "+pick(medium, r.IntN(1<<30)), "mode", mode))
				}
			}
			if ok {
				made++
			}
		}
	}
	// one shuffled order: bands interleaved as users send them
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// requestPath is q's request, as a user sends it: Recordwatch counts
// exactly up to record.CountLimit (exact_count would make it an expensive
// request, which admission control bounds), so totals are compared capped
// there (capTotal).
func (q logQuery) requestPath() string { return q.path(0) }

// capTotal is a total as the fairness check compares it: the peers count
// exactly, Recordwatch up to record.CountLimit.
func capTotal(n int) int { return min(n, record.CountLimit) }

// liveSystem is a system being served during the varied log.
type liveSystem struct {
	S    *system
	Base string
}

// variedRun is one pass of the log at one concurrency.
type variedRun struct {
	Conc int
	// Took and Errors by system key, then band ("" is every band).
	Took   map[string]map[string][]time.Duration
	Errors map[string]int
	// Shed counts, by system key then band, the queries turned away at
	// least once with 503 and Retry-After (admission control) and sent
	// again after the delay (getPolitely): their latency holds the waits.
	Shed map[string]map[string]int
	// Totals by query, then system key (fairness).
	Totals map[string]map[string]int
	// Facets by query, then system key: the facet counts of the facets
	// band's answers (always exact, on every system).
	Facets map[string]map[string]map[string][]search.FacetCount
	Wall   time.Duration
	// Walls by system key: a pass made of systems measured alone (merge)
	Walls map[string]time.Duration
}

func emptyRun(conc int) variedRun {
	return variedRun{Conc: conc, Took: map[string]map[string][]time.Duration{}, Errors: map[string]int{}, Totals: map[string]map[string]int{},
		Shed: map[string]map[string]int{}, Facets: map[string]map[string]map[string][]search.FacetCount{}, Walls: map[string]time.Duration{}}
}

// merge adds system key's figures of r, a pass that served it alone.
func (run *variedRun) merge(key string, r variedRun) {
	run.Took[key] = r.Took[key]
	run.Shed[key] = r.Shed[key]
	if n := r.Errors[key]; n > 0 {
		run.Errors[key] = n
	}
	for q, m := range r.Totals {
		if _, ok := m[key]; !ok {
			continue
		}
		if run.Totals[q] == nil {
			run.Totals[q] = map[string]int{}
		}
		run.Totals[q][key] = m[key]
	}
	for q, m := range r.Facets {
		if _, ok := m[key]; !ok {
			continue
		}
		if run.Facets[q] == nil {
			run.Facets[q] = map[string]map[string][]search.FacetCount{}
		}
		run.Facets[q][key] = m[key]
	}
	run.Walls[key] = r.Wall
	run.Wall += r.Wall
}

// runVaried sends every query of log once to every system of sys, conc
// queries at a time; each query goes to the systems in an order rotated by
// its position.
func runVaried(ctx context.Context, sys []liveSystem, log []logQuery, conc int) variedRun {
	run := emptyRun(conc)
	for _, s := range sys {
		run.Took[s.S.Key] = map[string][]time.Duration{}
		run.Shed[s.S.Key] = map[string]int{}
	}
	var mu sync.Mutex
	client := newClient(conc * 2)
	defer client.CloseIdleConnections()
	var next atomic.Int64
	start := time.Now()
	var wg sync.WaitGroup
	for range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1)) - 1
				if i >= len(log) {
					return
				}
				q := log[i]
				for k := range sys {
					s := sys[(i+k)%len(sys)]
					if q.ourOnly() && !s.S.FullAPI {
						continue
					}
					t := time.Now()
					body, shed, err := getPolitely(ctx, client, s.Base+q.requestPath())
					took := time.Since(t)
					var a answer
					if err == nil {
						err = json.Unmarshal(body, &a)
					}
					mu.Lock()
					if shed > 0 {
						run.Shed[s.S.Key][q.Band]++
					}
					if err != nil {
						run.Errors[s.S.Key]++
					} else {
						run.Took[s.S.Key][q.Band] = append(run.Took[s.S.Key][q.Band], took)
						run.Took[s.S.Key][""] = append(run.Took[s.S.Key][""], took)
						if run.Totals[q.Name] == nil {
							run.Totals[q.Name] = map[string]int{}
						}
						run.Totals[q.Name][s.S.Key] = capTotal(a.Total)
						if q.Band == bandFacets {
							if run.Facets[q.Name] == nil {
								run.Facets[q.Name] = map[string]map[string][]search.FacetCount{}
							}
							run.Facets[q.Name][s.S.Key] = a.Facets
						}
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	run.Wall = time.Since(start)
	return run
}

// shedLine says, per system and band, how many queries of r were turned
// away at least once: "none" when no system shed any.
func (r variedRun) shedLine(systems []*system) string {
	var parts []string
	for _, s := range systems {
		var bands []string
		for _, band := range bandNames() {
			if n := r.Shed[s.Key][band]; n > 0 {
				bands = append(bands, fmt.Sprintf("%s %d (of %d answered)", band, n, len(r.Took[s.Key][band])))
			}
		}
		if len(bands) > 0 {
			parts = append(parts, s.Name+": "+strings.Join(bands, ", "))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "; ")
}

// disagreements are the queries whose totals differ between systems
// (semantic and hybrid are approximate on each engine and are left out),
// except those pgStemmed explains, which fairness returns apart.
func (r variedRun) disagreements(log []logQuery) []string {
	bad, _ := r.fairness(log)
	return bad
}

// fairness splits the queries whose totals differ into bad (a failed
// check) and stemmed: the ones where PostgreSQL alone differs and a word
// of the query has a stem the two Porter stemmers make differently
// (pgStemmed).
func (r variedRun) fairness(log []logQuery) (bad, stemmed []string) {
	for _, q := range log {
		if q.ourOnly() {
			continue
		}
		t := r.Totals[q.Name]
		line := fmt.Sprintf("%s %v", q.Params.Encode(), t)
		pgAlone := agree(t, "postgres")
		if agree(t, "") {
			var why string
			if pgAlone, why = r.sameFacets(q.Name); why == "" {
				continue
			}
			line += " " + why
		}
		if _, ok := t["postgres"]; ok && pgAlone && pgStemmed(q.Params.Get("q")) {
			stemmed = append(stemmed, line)
		} else {
			bad = append(bad, line)
		}
	}
	sort.Strings(bad)
	sort.Strings(stemmed)
	return bad, stemmed
}

// sameFacets compares the facet counts of query name on every system with
// those of the first system (in key order) that answered it: why is empty
// when they are the same, pgAlone reports whether PostgreSQL's are the only
// ones that differ.
func (r variedRun) sameFacets(name string) (pgAlone bool, why string) {
	f := r.Facets[name]
	keys := slices.Sorted(maps.Keys(f))
	if len(keys) < 2 {
		return false, ""
	}
	ref := keys[0]
	if ref == "postgres" {
		ref = keys[1]
	}
	pgAlone = true
	for _, k := range keys {
		if same, w := sameFacets(f[ref], f[k]); !same {
			why += fmt.Sprintf("facets %s vs %s: %s; ", k, ref, w)
			pgAlone = pgAlone && k == "postgres"
		}
	}
	return pgAlone, strings.TrimSuffix(why, "; ")
}

// agree reports whether every total of t but the one of system except is
// the same.
func agree(t map[string]int, except string) bool {
	first, set := 0, false
	for k, n := range t {
		switch {
		case k == except:
		case !set:
			first, set = n, true
		case n != first:
			return false
		}
	}
	return true
}

// pgStemmed reports whether a word of keywords has a stem that
// PostgreSQL's Porter stemmer (Snowball's porter, which follows Porter's
// 1980 paper) and the others' (Bleve's, FTS5's and OpenSearch's
// porter_stem, which follow Porter's own C implementation) make
// differently: the C implementation's step 2 turns "-bli" into "-ble" (the
// paper: "-abli" only) and "-logi" into "-log" (not in the paper), so
// "possibly" and "possible" share the stem "possibl", "ecology" and
// "ecological" share "ecolog" for the others and not for PostgreSQL. Every
// stem those two rules reach ends in "bl" or "log". And the C
// implementation leaves words of one or two letters as they are, the paper
// does not: "US" stays "us" (the stem of "using", "used") for the others,
// and is "u" for PostgreSQL; so a stem of two letters differs too.
func pgStemmed(keywords string) bool {
	for _, w := range benchWords(keywords) {
		if s := porterStem(w); strings.HasSuffix(s, "bl") || strings.HasSuffix(s, "log") || len(s) <= 2 {
			return true
		}
	}
	return false
}

// variedResult is the varied log's part of the report.
type variedResult struct {
	Queries int
	Bands   map[string]int // queries per band
	Runs    []variedRun
	// Cold is the first ColdN distinct queries (not in the log) after each
	// serving process was started again on its existing index, at c=1.
	Cold     variedRun
	ColdN    int
	ColdNote string
	Systems  []*system
	Log      []logQuery
	Err      string
	// Alone: each system was served by itself, the others stopped
	Alone bool
	// Throughput is each system alone on distinct queries (throughput.go).
	Throughput []throughputRun
}

func pcts(d []time.Duration) (p50, p95, p99 time.Duration) {
	s := slices.Clone(d)
	slices.Sort(s)
	return percentile(s, 50), percentile(s, 95), percentile(s, 99)
}

// renderVaried writes the varied log's tables.
func renderVaried(v variedResult) string {
	var b strings.Builder
	how := "every system running, each query sent to each system in turn (the order rotated per query)"
	if v.Alone {
		b.WriteString("## Varied query log, each system alone (each query once)\n\n")
		how = "each system served alone, the others stopped (PostgreSQL's cluster and OpenSearch's node too), its index warm from its earlier phases, the same queries in the same order"
	} else {
		b.WriteString("## Varied query log, every system at once (each query once)\n\n")
	}
	if v.Err != "" {
		fmt.Fprintf(&b, "Not measured: %s\n\n", v.Err)
		return b.String()
	}
	fmt.Fprintf(&b, "%d distinct queries built from the corpus (%s), none repeated; %s, "+
		"once Recordwatch's start-up warm-up is over; the timed responses are the fairness check (totals compared capped at %d, where Recordwatch stops counting; the peers count exactly). "+
		"Semantic and hybrid go to Recordwatch and OpenSearch only. "+
		"Recordwatch's API (so OpenSearch too, served through it) has admission control: an expensive request (facets, passages, semantic, hybrid) that finds no free slot within %s is answered 503 with Retry-After; "+
		"the load generator does what a well-behaved client does, waits the delay asked for and sends the same query again (within %s), and that query's latency runs from its first send to its answer, waits included. "+
		"How many queries were shed at least once is given per band under each table; the database peers have no admission control and shed none.\n\n",
		v.Queries, bandList(v.Bands), how, record.CountLimit, api.AdmissionWait, requestTimeout)
	runs := append(slices.Clone(v.Runs), v.Cold)
	for _, r := range runs {
		if r.Took == nil {
			continue
		}
		title := fmt.Sprintf("### c=%d (wall %.1fs)", r.Conc, r.Wall.Seconds())
		if v.Alone {
			var walls []string
			for _, s := range v.Systems {
				walls = append(walls, fmt.Sprintf("%s %.1fs", s.Name, r.Walls[s.Key].Seconds()))
			}
			title = fmt.Sprintf("### c=%d (wall: %s)", r.Conc, strings.Join(walls, ", "))
		}
		if r.Conc == 0 {
			title = fmt.Sprintf("### Cold reads: the first %d distinct queries after a restart, c=1", v.ColdN)
			if v.ColdNote != "" {
				title += "\n\n" + v.ColdNote
			}
		}
		b.WriteString(title + "\n\n| band | ")
		for _, s := range v.Systems {
			fmt.Fprintf(&b, "%s p50 / p95 / p99 | ", s.Name)
		}
		for _, s := range v.Systems[1:] {
			fmt.Fprintf(&b, "%s ÷ %s p50 | ", s.Name, v.Systems[0].Name)
		}
		b.WriteString("\n|---|")
		for range len(v.Systems)*2 - 1 {
			b.WriteString("---|")
		}
		b.WriteString("\n")
		bands := append([]string{""}, bandNames()...)
		for _, band := range bands {
			name := band
			if band == "" {
				name = "**all**"
			}
			fmt.Fprintf(&b, "| %s | ", name)
			var ours time.Duration
			for i, s := range v.Systems {
				d := r.Took[s.Key][band]
				if len(d) == 0 {
					b.WriteString("— | ")
					continue
				}
				p50, p95, p99 := pcts(d)
				if i == 0 {
					ours = p50
				}
				fmt.Fprintf(&b, "%s / %s / %s (n=%d) | ", ms(p50), ms(p95), ms(p99), len(d))
			}
			for _, s := range v.Systems[1:] {
				d := r.Took[s.Key][band]
				if len(d) == 0 || ours == 0 {
					b.WriteString("— | ")
					continue
				}
				p50, _, _ := pcts(d)
				fmt.Fprintf(&b, "%.2f× | ", float64(p50)/float64(ours))
			}
			b.WriteString("\n")
		}
		var errs []string
		for _, s := range v.Systems {
			if n := r.Errors[s.Key]; n > 0 {
				errs = append(errs, fmt.Sprintf("%s %d", s.Name, n))
			}
		}
		if len(errs) > 0 {
			fmt.Fprintf(&b, "\nErrors: %s.\n", strings.Join(errs, ", "))
		}
		fmt.Fprintf(&b, "\nShed by admission control (503 with Retry-After, sent again after the delay; the wait is in the latency): %s.\n", r.shedLine(v.Systems))
		b.WriteString("\n")
	}
	b.WriteString(renderThroughput(v.Throughput))
	bad, stemmed := v.fairness()
	fmt.Fprintf(&b, "**Fairness (varied log)**: %d of %d keyword, facets and passage queries have the same total (and facet counts) on every system", v.keywordQueries()-len(bad)-len(stemmed), v.keywordQueries())
	if len(stemmed) > 0 {
		fmt.Fprintf(&b, "; %d more differ on PostgreSQL alone, by its stemmer (below)", len(stemmed))
	}
	b.WriteString(".\n")
	list := func(lines []string) {
		for i, d := range lines {
			if i == 10 {
				fmt.Fprintf(&b, "- … and %d more\n", len(lines)-10)
				break
			}
			fmt.Fprintf(&b, "- %s\n", d)
		}
	}
	list(bad)
	if len(stemmed) > 0 {
		b.WriteString("\n**An analyzer difference, not counted as a failure**: PostgreSQL stems with Snowball's `porter`, which follows Porter's 1980 paper; Bleve, OpenSearch's `porter_stem` and FTS5 follow Porter's own C implementation, " +
			"whose step 2 also turns \"-bli\" into \"-ble\" and \"-logi\" into \"-log\" (\"possibly\" and \"possible\" share a stem there, not in PostgreSQL) and which leaves words of one or two letters unstemmed (\"US\" is \"us\", the stem of \"using\", there, and \"u\" in PostgreSQL). " +
			"These queries differ on PostgreSQL alone (the other systems agree) and hold a word whose stem ends in \"bl\" or \"log\" or has two letters, the only stems those rules reach:\n")
		list(stemmed)
	}
	b.WriteString("\n")
	return b.String()
}

// disagreements over every run of the log (cold reads excluded): a failed
// fairness check.
func (v variedResult) disagreements() []string {
	bad, _ := v.fairness()
	return bad
}

// fairness is variedRun.fairness over every run of the log.
func (v variedResult) fairness() (bad, stemmed []string) {
	for _, r := range v.Runs {
		b, s := r.fairness(v.Log)
		bad, stemmed = append(bad, b...), append(stemmed, s...)
	}
	return bad, stemmed
}

func (v variedResult) keywordQueries() int {
	n := 0
	for _, q := range v.Log {
		if !q.ourOnly() {
			n++
		}
	}
	return n
}

func bandNames() []string {
	out := make([]string, len(variedBands))
	for i, b := range variedBands {
		out[i] = b.Name
	}
	return out
}

func bandList(n map[string]int) string {
	var parts []string
	for _, b := range variedBands {
		parts = append(parts, fmt.Sprintf("%s %d", b.Name, n[b.Name]))
	}
	return strings.Join(parts, ", ")
}
