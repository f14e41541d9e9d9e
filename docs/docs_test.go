package docs

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/api"
	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/internal/disk"
	"github.com/recordwatch/recordwatch/internal/federated"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
	"github.com/recordwatch/recordwatch/internal/semantic"
	"github.com/recordwatch/recordwatch/internal/store"
	"github.com/recordwatch/recordwatch/internal/watch"
	"github.com/recordwatch/recordwatch/mailer"
)

// MaxReadmeLines bounds the README: a map, not the reference.
const MaxReadmeLines = 320

const mib = 1 << 20

// constants are the code constants the pages quote, each in the unit the
// pages write it in (durations in the unit named after the figure, cache
// sizes in MiB).
var constants = map[string]float64{
	"record.MaxNameLen":               float64(record.MaxNameLen),
	"record.MaxTextLen":               float64(record.MaxTextLen),
	"record.MaxRequestTextLen":        float64(record.MaxRequestTextLen),
	"record.MaxCursorLen":             float64(record.MaxCursorLen),
	"record.MaxValues":                float64(record.MaxValues),
	"record.MaxURILen":                float64(record.MaxURILen),
	"record.CountLimit":               float64(record.CountLimit),
	"search.MaxLimit":                 float64(search.MaxLimit),
	"search.CacheEntries":             float64(search.CacheEntries),
	"search.CacheBytes":               float64(search.CacheBytes) / mib,
	"search.SharedEngineTTL":          search.SharedEngineTTL.Seconds(),
	"semantic.MinSimilarity":          semantic.MinSimilarity,
	"semantic.Candidates":             float64(semantic.Candidates),
	"semantic.FusionK":                float64(semantic.FusionK),
	"semantic.Ranked":                 float64(semantic.Ranked),
	"semantic.LexicalTop":             float64(semantic.LexicalTop),
	"semantic.LexicalShare":           semantic.LexicalShare,
	"semantic.MinorWeight":            semantic.MinorWeight,
	"semantic.TitleHead":              float64(semantic.TitleHead),
	"semantic.TitleBonus":             semantic.TitleBonus,
	"semantic.ExpansionTop":           float64(semantic.ExpansionTop),
	"semantic.ExpansionShared":        float64(semantic.ExpansionShared),
	"semantic.ExpansionWords":         float64(semantic.ExpansionWords),
	"embedded.TitleWeight":            float64(embedded.TitleWeight),
	"embedded.NoticePivot":            float64(embedded.NoticePivot),
	"embedded.PassagePivot":           float64(embedded.PassagePivot),
	"embedded.ClauseCacheBytes":       float64(embedded.ClauseCacheBytes) / mib,
	"embedded.WordCacheBytes":         float64(embedded.WordCacheBytes) / mib,
	"embedded.MemoryLimitPercent":     float64(embedded.MemoryLimitPercent),
	"embedded.BulkSegmentDocs":        float64(embedded.BulkSegmentDocs),
	"embedded.BulkMergeWidth":         float64(embedded.BulkMergeWidth),
	"embedded.ColumnCacheBytes":       float64(embedded.ColumnCacheBytes) / mib,
	"indexer.VectorBatch":             float64(indexer.VectorBatch),
	"federated.MaxLimit":              float64(federated.MaxLimit),
	"federated.DefaultLimit":          float64(federated.DefaultLimit),
	"federated.MaxDepth":              float64(federated.MaxDepth),
	"land.MaxLimit":                   float64(land.MaxLimit),
	"meeting.MaxLimit":                float64(meeting.MaxLimit),
	"people.MaxLimit":                 float64(people.MaxLimit),
	"procure.MaxPayrollLimit":         float64(procure.MaxPayrollLimit),
	"watch.FeedLimit":                 float64(watch.FeedLimit),
	"api.MaxFeedKeywords":             float64(api.MaxFeedKeywords),
	"api.CacheFeeds":                  api.CacheFeeds.Minutes(),
	"api.CacheStats":                  api.CacheStats.Minutes(),
	"api.BatchMaxNames":               float64(api.BatchMaxNames),
	"api.BatchPerDay":                 float64(api.BatchPerDay),
	"api.BatchMaxBody":                float64(api.BatchMaxBody),
	"api.MaxShareBytes":               float64(api.MaxShareBytes),
	"api.MaxSharesPerDay":             float64(api.MaxSharesPerDay),
	"api.MaxShareTitle":               float64(api.MaxShareTitle),
	"api.MaxShareItems":               float64(api.MaxShareItems),
	"api.MaxShareNote":                float64(api.MaxShareNote),
	"api.MaxShareItemID":              float64(api.MaxShareItemID),
	"api.DefaultRequestTimeout":       api.DefaultRequestTimeout.Seconds(),
	"store.ShareTTL":                  store.ShareTTL.Hours() / 24,
	"mailer.DefaultRequestsPerClient": float64(mailer.DefaultRequestsPerClient),
	"mailer.DefaultRequestsPerDay":    float64(mailer.DefaultRequestsPerDay),
	"mailer.DefaultRepliesPerAddress": float64(mailer.DefaultRepliesPerAddress),
	"watch.UnaskedEvery":              watch.UnaskedEvery.Hours(),
	"watch.DefaultMaxUntouched":       float64(watch.DefaultMaxUntouched),
	"mailer.OutboxStuckAfter":         mailer.OutboxStuckAfter.Minutes(),
	"mailer.DefaultMaxDigestsPerRun":  float64(mailer.DefaultMaxDigestsPerRun),
	"mailer.DefaultMaxDigestsPerDay":  float64(mailer.DefaultMaxDigestsPerDay),
	"mailer.DefaultDigestHour":        float64(mailer.DefaultDigestHour),
	"mailer.DefaultConfirmTTL":        mailer.DefaultConfirmTTL.Hours(),
	"mailer.DefaultMaxMessageBytes":   float64(mailer.DefaultMaxMessageBytes),
	"mailer.MaxSMTPConnections":       float64(mailer.MaxSMTPConnections),
	"mailer.MaxSMTPPerPeer":           float64(mailer.MaxSMTPPerPeer),
	"mailer.SMTPIdleTimeout":          mailer.SMTPIdleTimeout.Seconds(),
	"mailer.SMTPSessionTimeout":       mailer.SMTPSessionTimeout.Minutes(),
	"mailer.BindRetry":                mailer.BindRetry.Seconds(),
	"mailer.BindRetryMax":             mailer.BindRetryMax.Seconds(),
	"api.ProbeReuse":                  api.ProbeReuse.Seconds(),
	"disk.DefaultMinFree":             float64(disk.DefaultMinFree) / mib,
}

// quoted is a figure followed by the constant it quotes: "200
// (`record.MaxNameLen`)", "10 seconds (`search.SharedEngineTTL`)",
// "1–50, `federated.MaxLimit`" (a figure, at most one unit word, then the
// name in backquotes, in parentheses or after a comma).
var quoted = regexp.MustCompile("([0-9][0-9,]*(?:\\.[0-9]+)?)(?:[ \\t\\n]+[A-Za-z]+)?,?[ \\t\\n]+\\(?`([a-z]+\\.[A-Z][A-Za-z0-9]*)`")

// named is any mention of a constant the table holds.
var named = regexp.MustCompile("`([a-z]+\\.[A-Z][A-Za-z0-9]*)`")

// pages are the README and every page under docs/.
func pages(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, f := range append(files, "../README.md") {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = string(b)
	}
	if len(out) < 7 {
		t.Fatalf("only %d pages read", len(out))
	}
	return out
}

// Every figure quoted beside a constant's name is the constant's value,
// and every mention of a constant the table holds carries its figure; so a
// changed constant fails here until the pages change, and no page can
// state another value for it in the same form.
func TestFiguresMatchTheirConstants(t *testing.T) {
	checked := map[string]int{}
	for f, s := range pages(t) {
		covered := map[int]bool{}
		for _, m := range quoted.FindAllStringSubmatchIndex(s, -1) {
			fig, name := s[m[2]:m[3]], s[m[4]:m[5]]
			want, ok := constants[name]
			if !ok {
				continue // a name this table does not hold, e.g. record.CapCount after a figure
			}
			covered[m[4]] = true
			got, err := strconv.ParseFloat(strings.ReplaceAll(fig, ",", ""), 64)
			if err != nil {
				t.Errorf("%s: %q beside %s is not a number", f, fig, name)
				continue
			}
			if got != want {
				t.Errorf("%s: quotes %s as %s; the code says %v", f, name, fig, want)
			}
			checked[name]++
		}
		for _, m := range named.FindAllStringSubmatchIndex(s, -1) {
			if _, ok := constants[s[m[2]:m[3]]]; ok && !covered[m[2]] {
				t.Errorf("%s: mentions %s without its figure in the checked form (figure, unit, then the name): %.80q", f, s[m[2]:m[3]], s[max(0, m[0]-60):m[1]])
			}
		}
	}
	for name := range constants {
		if checked[name] == 0 {
			t.Errorf("%s is in the table but no page quotes it", name)
		}
	}
}

// The semantic floor is quoted in one value only, wherever the pages
// name it in words.
func TestSemanticFloorIsOneFigure(t *testing.T) {
	floor := regexp.MustCompile(`(?:below|floor of|similarity floor)\s+([0-9]\.[0-9]+)|([0-9]\.[0-9]+)\s+(?:\(` + "`semantic.MinSimilarity`" + `[^)]*\)\s+)?similarity floor`)
	want := fmt.Sprintf("%.2f", semantic.MinSimilarity)
	n := 0
	for f, s := range pages(t) {
		for _, m := range floor.FindAllStringSubmatch(s, -1) {
			got := m[1] + m[2]
			n++
			if got != want {
				t.Errorf("%s: a similarity floor of %s; the code's is %s", f, got, want)
			}
		}
	}
	if n < 2 {
		t.Errorf("the semantic floor is quoted %d times in words", n)
	}
}

func TestReadmeIsAMap(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); n > MaxReadmeLines {
		t.Errorf("README.md has %d lines; a map has at most %d (reference goes under docs/)", n, MaxReadmeLines)
	}
	for _, p := range []string{"api.md", "mcp.md", "engines-and-deployment.md", "data-sources.md", "benchmarks.md", "operations.md"} {
		if !strings.Contains(string(b), "docs/"+p) {
			t.Errorf("README.md does not link docs/%s", p)
		}
	}
}

var (
	link    = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	heading = regexp.MustCompile(`(?m)^#{1,6} (.+)$`)
	fence   = regexp.MustCompile("(?ms)^```.*?^```")
)

// slug is GitHub's anchor of a heading: lower case, punctuation dropped,
// spaces to hyphens.
func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127 && r != '’' && r != '—' && r != '–' && r != '…':
			b.WriteRune(r)
		}
	}
	return b.String()
}

func anchors(s string) map[string]bool {
	out := map[string]bool{}
	for _, m := range heading.FindAllStringSubmatch(fence.ReplaceAllString(s, ""), -1) {
		out[slug(m[1])] = true
	}
	return out
}

// Every relative link of the README and the docs pages resolves to a file,
// and a link to a heading of a Markdown page names one it has.
func TestRelativeLinksResolve(t *testing.T) {
	ps := pages(t)
	n := 0
	for f, s := range ps {
		for _, m := range link.FindAllStringSubmatch(fence.ReplaceAllString(s, ""), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, frag, _ := strings.Cut(target, "#")
			file := f
			if path != "" {
				file = filepath.Join(filepath.Dir(f), path)
				if _, err := os.Stat(file); err != nil {
					t.Errorf("%s: link %s: %v", f, target, err)
					continue
				}
			}
			n++
			if frag == "" || !strings.HasSuffix(file, ".md") {
				continue
			}
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if !anchors(string(b))[frag] {
				t.Errorf("%s: link %s: %s has no heading #%s", f, target, file, frag)
			}
		}
	}
	if n < 30 {
		t.Errorf("only %d relative links checked", n)
	}
}
