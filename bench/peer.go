package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	stdunicode "unicode"

	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// A peer is served the way an application would put it on the web: a small
// net/http server (no framework) that reads the same /api/search and
// /api/passages parameters as Recordwatch (for the subset the mix uses),
// runs the count, the page and the facets against the database, and writes
// JSON. So the load generator sends byte-identical requests to every
// system (OpenSearch is served by Recordwatch's own API, see opensearch.go).

type peerHit struct {
	RequestID string   `json:"request_id"`
	Citation  string   `json:"citation,omitempty"`
	Title     string   `json:"title"`
	Agency    string   `json:"agency,omitempty"`
	AgencyID  string   `json:"agency_id,omitempty"`
	Published string   `json:"published,omitempty"`
	Amount    *float64 `json:"amount,omitempty"`
	Vendor    string   `json:"vendor,omitempty"`
	Text      string   `json:"text,omitempty"`
	Score     float64  `json:"score"`
}

func (h *peerHit) setDate(t *time.Time) {
	if t != nil && !t.IsZero() {
		h.Published = t.In(record.NewYork).Format("2006-01-02")
	}
}

type peerResult struct {
	Total  int                            `json:"total"`
	Hits   []peerHit                      `json:"hits"`
	Facets map[string][]search.FacetCount `json:"facets,omitempty"`
}

// facetCounter gathers (facet, value, count) rows and keeps the top
// search.FacetSize values of each facet, ordered as Recordwatch orders them
// (search.SortFacet: count, then value).
type facetCounter map[string][]search.FacetCount

func (f facetCounter) add(name, value string, n int) {
	f[name] = append(f[name], search.FacetCount{Value: value, Count: n})
}

func (f facetCounter) result() map[string][]search.FacetCount {
	out := map[string][]search.FacetCount{}
	for _, name := range []string{search.FacetLens, search.FacetAgency, search.FacetType, search.FacetYear} {
		out[name] = search.SortFacet(append([]search.FacetCount{}, f[name]...), search.FacetSize)
	}
	return out
}

// noticeContent is the text a notice is found by: the same fields, in the
// same order, as the embedded engine's "content" field (embedded.go
// noticeFields), with the same word boundaries (peerText).
func noticeContent(n record.Notice) string {
	var parts []string
	for _, s := range []string{n.Title, n.AgencyName, n.VendorName, n.PIN, n.Text} {
		if strings.TrimSpace(s) != "" {
			parts = append(parts, s)
		}
	}
	return peerText(strings.Join(parts, "\n"))
}

var (
	wordTokenizer = unicode.NewUnicodeTokenizer()
	possessive    = en.NewPossessiveFilter()
)

// peerText gives the peers the words Recordwatch's analyzer sees: text
// cleaned by the engines' char filter (search.CleanText), cut by Bleve's
// Unicode word-boundary tokenizer (UAX #29) and its English
// possessive filter ("services’s" → "services"), the first two steps of the
// "en" analyzer, each word with its inner punctuation removed, one space
// between words. Without it the three
// tokenizers disagree on where words are: Bleve keeps
// "construction_materials" as a single word, FTS5's unicode61 splits at
// every non-alphanumeric character, and PostgreSQL's parser reads URLs,
// e-mail addresses, host names and "word://" as units. The peers' own
// analyzers (stemmers, stop words) still apply to these words.
func peerText(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	// the char filter both engines apply first (search.CleanText: a colon,
	// period or apostrophe between letters separates words)
	for _, tok := range possessive.Filter(wordTokenizer.Tokenize([]byte(search.CleanText(s)))) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		for _, r := range string(tok.Term) {
			if stdunicode.IsLetter(r) || stdunicode.IsDigit(r) {
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}

type peerEngine interface {
	Name() string
	Version(ctx context.Context) string
	Search(ctx context.Context, q search.Query, k search.Keywords) (peerResult, error)
	Passages(ctx context.Context, q search.PassageQuery, k search.Keywords) (peerResult, error)
	Close()
}

// parsePeerSearch reads the mix's /api/search parameters the way
// api.parseSearch does for them: vendor names by entity.VendorStem, amounts
// in dollars, then search.Query.Normalize (which sets newest-first when
// there are no keywords and valid-amounts-only under an amount bound).
func parsePeerSearch(v url.Values) (search.Query, search.Keywords, error) {
	q := search.Query{Text: v.Get("q"), Facets: v.Get("facets") == "true"}
	for key := range v {
		switch key {
		case "q", "facets", "agency", "vendor", "min", "max", "limit", "lens", "valid_amount", "exact_count": // a peer always counts exactly
		default:
			return q, search.Keywords{}, fmt.Errorf("parameter %q is not served by the peer", key)
		}
	}
	list := func(name string) []string {
		var out []string
		for _, s := range strings.Split(v.Get(name), ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
		return out
	}
	q.AgencyIDs = list("agency")
	q.Lenses = list("lens")
	for _, name := range list("vendor") {
		q.VendorStems = append(q.VendorStems, entity.VendorStem(name))
	}
	amount := func(name string) (*float64, error) {
		s := v.Get(name)
		if s == "" {
			return nil, nil
		}
		f, err := strconv.ParseFloat(s, 64)
		return &f, err
	}
	var err error
	if q.MinAmount, err = amount("min"); err != nil {
		return q, search.Keywords{}, err
	}
	if q.MaxAmount, err = amount("max"); err != nil {
		return q, search.Keywords{}, err
	}
	q.ValidAmountOnly = v.Get("valid_amount") == "true"
	if s := v.Get("limit"); s != "" {
		q.Limit, _ = strconv.Atoi(s)
	}
	k, err := q.Normalize()
	return q, k, err
}

func parsePeerPassages(v url.Values) (search.PassageQuery, search.Keywords, error) {
	q := search.PassageQuery{Text: v.Get("q")}
	if s := v.Get("limit"); s != "" {
		q.Limit, _ = strconv.Atoi(s)
	}
	k, err := q.Normalize()
	return q, k, err
}

// childPeerServe serves one peer engine over HTTP on a loopback port.
func childPeerServe(args []string) error {
	fl := flag.NewFlagSet("peer-serve", flag.ContinueOnError)
	engine := fl.String("engine", "", "postgres or sqlite")
	dsn := fl.String("dsn", "", "postgres DSN or sqlite file")
	conns := fl.Int("conns", 32, "database connections")
	if err := fl.Parse(args); err != nil {
		return err
	}
	ctx := context.Background()
	var e peerEngine
	var err error
	switch *engine {
	case "postgres":
		e, err = openPG(ctx, *dsn, *conns)
	case "sqlite":
		e, err = openSQLite(*dsn, *conns)
	default:
		err = fmt.Errorf("unknown engine %q", *engine)
	}
	if err != nil {
		return err
	}
	defer e.Close()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/search", func(w http.ResponseWriter, r *http.Request) {
		q, k, err := parsePeerSearch(r.URL.Query())
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		res, err := e.Search(r.Context(), q, k)
		writePeer(w, res, err)
	})
	mux.HandleFunc("GET /api/passages", func(w http.ResponseWriter, r *http.Request) {
		q, k, err := parsePeerPassages(r.URL.Query())
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		res, err := e.Passages(r.Context(), q, k)
		writePeer(w, res, err)
	})
	mux.HandleFunc("GET /version", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, e.Version(r.Context()))
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	go hs.Serve(ln)
	fmt.Printf("LISTEN http://%s\n", ln.Addr())
	return waitForTerm(func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return hs.Shutdown(ctx)
	})
}

func writePeer(w http.ResponseWriter, res peerResult, err error) {
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if res.Hits == nil {
		res.Hits = []peerHit{}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(res)
}

func writeJSON(w io.Writer, v any) error { return json.NewEncoder(w).Encode(v) }

// facetRows is what both peers' drivers return for a facet query: rows of
// (facet name, value, count).
type facetRows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// scanFacets reads facet rows; the caller closes them.
func scanFacets(rows facetRows) (facetCounter, error) {
	fc := facetCounter{}
	for rows.Next() {
		var name, value string
		var n int
		if err := rows.Scan(&name, &value, &n); err != nil {
			return fc, err
		}
		fc.add(name, value, n)
	}
	return fc, rows.Err()
}
