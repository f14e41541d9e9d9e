package synth_test

import (
	"errors"
	"math"
	"os"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/recordwatch/recordwatch/indexer/source/crol"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/synth"
)

var sample struct {
	once    sync.Once
	notices []record.Notice
	model   *synth.Model
	err     error
}

// model learns from the bundled sample corpus (once per test binary).
func model(t testing.TB) (*synth.Model, []record.Notice) {
	t.Helper()
	sample.once.Do(func() {
		c, errs := crol.Scan(os.DirFS("../../testdata/sample"), "crol", entity.DefaultCrosswalk())
		if len(errs) > 0 {
			sample.err = errors.Join(errs...)
			return
		}
		sample.notices = c.Notices
		sample.model, sample.err = synth.Learn(c.Notices)
	})
	if sample.err != nil {
		t.Fatal(sample.err)
	}
	return sample.model, sample.notices
}

func TestLearnEmpty(t *testing.T) {
	if _, err := synth.Learn(nil); err == nil {
		t.Fatal("Learn(nil): want an error")
	}
}

func TestDeterministic(t *testing.T) {
	m, _ := model(t)
	collect := func(seed int64) []record.Notice {
		var out []record.Notice
		if err := m.Generate(300, seed, func(n record.Notice) error { out = append(out, n); return nil }); err != nil {
			t.Fatal(err)
		}
		return out
	}
	a, b := collect(42), collect(42)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("same seed gave different notices")
	}
	// notice i depends only on the seed and i
	if got := m.Notice(42, 217); !reflect.DeepEqual(got, a[217]) {
		t.Fatalf("Notice(42, 217) differs from the 218th generated notice")
	}
	var viaAll []record.Notice
	for n := range m.All(300, 42) {
		viaAll = append(viaAll, n)
	}
	if !reflect.DeepEqual(viaAll, a) {
		t.Fatal("All and Generate disagree")
	}
	c := collect(43)
	same := 0
	for i := range c {
		if c[i].Body == a[i].Body && c[i].Title == a[i].Title {
			same++
		}
	}
	if same > len(c)/5 {
		t.Fatalf("seeds 42 and 43 gave %d of %d identical notices", same, len(c))
	}
}

func TestGenerateStops(t *testing.T) {
	m, _ := model(t)
	stop := errors.New("stop")
	calls := 0
	err := m.Generate(100, 1, func(record.Notice) error {
		calls++
		if calls == 3 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || calls != 3 {
		t.Fatalf("Generate: err %v after %d calls, want stop after 3", err, calls)
	}
	calls = 0
	for range m.All(100, 1) {
		calls++
		if calls == 2 {
			break
		}
	}
	if calls != 2 {
		t.Fatalf("All kept going after break: %d", calls)
	}
}

// stats summarizes a corpus.
type stats struct {
	n            int
	ids          map[string]bool
	lens         map[string]int // primary lens, and "land"
	section      map[string]int
	years        map[string]int
	html         int
	bodies       []int
	amounts      int
	invalid      map[string]int // "negative", "zero", "huge"
	valid        []float64
	due, rolling int
	stemNames    map[string]map[string]bool
	pins         map[string]int
	problems     []string
}

func newStats() *stats {
	return &stats{ids: map[string]bool{}, lens: map[string]int{}, section: map[string]int{}, years: map[string]int{},
		invalid: map[string]int{}, stemNames: map[string]map[string]bool{}, pins: map[string]int{}}
}

func (s *stats) add(n record.Notice, checkIDs bool) {
	s.n++
	if checkIDs {
		if s.ids[n.RequestID] {
			s.problems = append(s.problems, "duplicate id "+n.RequestID)
		}
		s.ids[n.RequestID] = true
	}
	s.lens[n.Lens]++
	if slices.Contains(n.Lenses, record.LensLand) {
		s.lens[record.LensLand]++
	}
	s.section[n.Section]++
	s.years[n.Year()]++
	if strings.Contains(n.Body, "</") {
		s.html++
	}
	if n.Body != "" {
		s.bodies = append(s.bodies, len([]rune(n.Text)))
	}
	if n.AmountRaw != "" {
		s.amounts++
		v, ok := record.ParseAmount(n.AmountRaw)
		switch {
		case ok:
			s.valid = append(s.valid, v)
		case v < 0:
			s.invalid["negative"]++
		case v == 0:
			s.invalid["zero"]++
		case v >= record.MaxValidAmount:
			s.invalid["huge"]++
		}
	}
	if n.DueRolling || !n.DueDate.IsZero() {
		s.due++
	}
	if n.DueRolling {
		s.rolling++
	}
	if n.VendorStem != "" {
		if s.stemNames[n.VendorStem] == nil {
			s.stemNames[n.VendorStem] = map[string]bool{}
		}
		s.stemNames[n.VendorStem][n.VendorName] = true
	}
	if n.PIN != "" {
		s.pins[n.PIN]++
	}
}

func (s *stats) merge(o *stats) {
	s.n += o.n
	for k := range o.ids {
		if s.ids[k] {
			s.problems = append(s.problems, "duplicate id "+k)
		}
		s.ids[k] = true
	}
	for _, p := range []struct{ dst, src map[string]int }{{s.lens, o.lens}, {s.section, o.section}, {s.years, o.years},
		{s.invalid, o.invalid}, {s.pins, o.pins}} {
		for k, v := range p.src {
			p.dst[k] += v
		}
	}
	s.html += o.html
	s.bodies = append(s.bodies, o.bodies...)
	s.amounts += o.amounts
	s.valid = append(s.valid, o.valid...)
	s.due += o.due
	s.rolling += o.rolling
	for stem, names := range o.stemNames {
		if s.stemNames[stem] == nil {
			s.stemNames[stem] = map[string]bool{}
		}
		for name := range names {
			s.stemNames[stem][name] = true
		}
	}
	s.problems = append(s.problems, o.problems...)
}

// normalized reports how n differs from a notice normalized by the crol
// source ("" when it does not).
func normalized(n record.Notice) string {
	switch {
	case !synth.IsSynthetic(n.RequestID):
		return "id is not synthetic: " + n.RequestID
	case n.Source != record.SourceCROL:
		return "source " + n.Source
	case n.Text != record.PlainText(n.Body):
		return "Text is not PlainText(Body)"
	case len(n.Lenses) == 0 || n.Lens != n.Lenses[0]:
		return "Lens is not Lenses[0]"
	case n.OfficialURL != record.OfficialURL(n.RequestID) || n.OpenDataURL != record.OpenDataURL(n.RequestID):
		return "urls"
	case n.VendorStem != entity.VendorStem(n.VendorName):
		return "vendor stem of " + n.VendorName
	case n.AgencyID == "" || n.AgencyRaw == "":
		return "no agency"
	case n.DueRolling && !n.DueDate.IsZero():
		return "rolling with a date"
	case n.Raw["requestid"] != n.RequestID:
		return "raw request id"
	}
	if n.AmountRaw != "" {
		v, ok := record.ParseAmount(n.AmountRaw)
		if ok != n.AmountValid || (ok && v != n.Amount) || (!ok && n.Amount != 0) {
			return "amount " + n.AmountRaw
		}
	}
	if due, rolling := record.ParseDue(n.Raw["duedate"]); !due.Equal(n.DueDate) || rolling != n.DueRolling {
		return "due " + n.Raw["duedate"]
	}
	if !record.ParseDate(n.Raw["startdate"]).Equal(n.StartDate) {
		return "start " + n.Raw["startdate"]
	}
	want := record.LensesFor(n.Section, n.AgencyRaw, n.Title, n.Text)
	if alt := record.LensesFor(n.Section, n.AgencyName, n.Title, n.Text); n.AgencyName != strings.TrimSpace(n.AgencyRaw) && len(alt) > len(want) {
		want = alt
	}
	if !slices.Equal(want, n.Lenses) {
		return "lenses " + strings.Join(n.Lenses, ",")
	}
	return ""
}

var corpus struct {
	once sync.Once
	s    *stats
}

// generated streams 50,000 notices (seed 7) through stats, on every core.
func generated(t *testing.T) *stats {
	m, _ := model(t)
	corpus.once.Do(func() {
		const n = 50_000
		workers := max(1, runtime.NumCPU())
		parts := make([]*stats, workers)
		var wg sync.WaitGroup
		for w := range workers {
			parts[w] = newStats()
			wg.Go(func() {
				for i := w; i < n; i += workers {
					nt := m.Notice(7, i)
					if p := normalized(nt); p != "" && len(parts[w].problems) < 10 {
						parts[w].problems = append(parts[w].problems, nt.RequestID+": "+p)
					}
					parts[w].add(nt, true)
				}
			})
		}
		wg.Wait()
		all := newStats()
		for _, p := range parts {
			all.merge(p)
		}
		corpus.s = all
	})
	return corpus.s
}

func TestIDsUniqueAndNormalized(t *testing.T) {
	s := generated(t)
	if len(s.ids) != s.n || s.n != 50_000 {
		t.Errorf("%d distinct ids in %d notices", len(s.ids), s.n)
	}
	for _, p := range s.problems {
		t.Error(p)
	}
}

func share(m map[string]int, k string, n int) float64 { return float64(m[k]) / float64(n) }

func median(v []float64) float64 {
	v = slices.Clone(v)
	sort.Float64s(v)
	return v[len(v)/2]
}

func TestDistributions(t *testing.T) {
	_, real := model(t)
	s := generated(t)
	r := newStats()
	for _, n := range real {
		r.add(n, false)
	}

	for _, group := range []struct {
		name      string
		got, want map[string]int
	}{{"lens", s.lens, r.lens}, {"section", s.section, r.section}} {
		for k := range group.want {
			want, got := share(group.want, k, r.n), share(group.got, k, s.n)
			if math.Abs(got-want) > 0.03 {
				t.Errorf("%s %q: share %.3f, real %.3f", group.name, k, got, want)
			} else {
				t.Logf("%s %q: share %.3f, real %.3f", group.name, k, got, want)
			}
		}
	}
	for y := 2014; y <= 2026; y++ {
		if s.years[strconv.Itoa(y)] < s.n/100 {
			t.Errorf("year %d: only %d notices", y, s.years[strconv.Itoa(y)])
		}
	}
	if got, want := float64(s.html)/float64(s.n), float64(r.html)/float64(r.n); math.Abs(got-want) > 0.05 {
		t.Errorf("HTML bodies: share %.3f, real %.3f", got, want)
	}
	gotLen, wantLen := medianInt(s.bodies), medianInt(r.bodies)
	if math.Abs(float64(gotLen-wantLen)) > 0.35*float64(wantLen) {
		t.Errorf("median text length %d, real %d", gotLen, wantLen)
	}
	if got, want := float64(s.amounts)/float64(s.n), float64(r.amounts)/float64(r.n); math.Abs(got-want) > 0.03 {
		t.Errorf("share with an amount %.3f, real %.3f", got, want)
	}
	for _, kind := range []string{"negative", "zero", "huge"} {
		if s.invalid[kind] == 0 {
			t.Errorf("no invalid amounts of kind %s", kind)
		}
	}
	inv := 0
	for _, v := range s.invalid {
		inv += v
	}
	if sh := float64(inv) / float64(s.amounts); sh < 0.005 || sh > 0.06 {
		t.Errorf("invalid amount share %.3f", sh)
	}
	if got, want := median(s.valid), median(r.valid); got < want/2 || got > want*2 {
		t.Errorf("median valid amount %.0f, real %.0f", got, want)
	}
	if s.rolling == 0 || float64(s.rolling)/float64(s.due) > 0.05 {
		t.Errorf("%d rolling deadlines among %d due dates", s.rolling, s.due)
	}
	t.Logf("HTML %d/%d; median text %d (real %d); amounts %d, invalid %v; median valid %.0f (real %.0f); rolling %d of %d due",
		s.html, s.n, gotLen, wantLen, s.amounts, s.invalid, median(s.valid), median(r.valid), s.rolling, s.due)
	linked := 0
	for _, c := range s.pins {
		if c > 1 {
			linked++
		}
	}
	t.Logf("%d distinct PINs, %d shared by several notices", len(s.pins), linked)
	if linked < 100 {
		t.Errorf("only %d PINs shared by several notices", linked)
	}
}

func TestVendorVariants(t *testing.T) {
	s := generated(t)
	variants, suffixes := 0, 0
	for stem, names := range s.stemNames {
		if len(names) < 2 {
			continue
		}
		variants++
		upper := map[string]bool{}
		for name := range names {
			if entity.VendorStem(name) != stem {
				t.Errorf("%q: stem %q, want %q", name, entity.VendorStem(name), stem)
			}
			upper[strings.ToUpper(name)] = true
		}
		if len(upper) > 1 {
			suffixes++ // differ by more than case
		}
	}
	t.Logf("%d vendor stems, %d with several spellings, %d with several suffixes", len(s.stemNames), variants, suffixes)
	if variants < 200 || suffixes < 100 {
		t.Errorf("%d stems with several spellings, %d with several suffixes", variants, suffixes)
	}
	if v := sample.model.Vendors(); len(v) == 0 || len(s.stemNames[v[0]]) < 2 {
		t.Errorf("the most frequent vendor %q has spellings %v", v[0], s.stemNames[v[0]])
	}
}

func medianInt(v []int) int {
	v = slices.Clone(v)
	sort.Ints(v)
	return v[len(v)/2]
}

// BenchmarkNotice measures generating one notice (normalization included).
func BenchmarkNotice(b *testing.B) {
	m, _ := model(b)
	i := 0
	for b.Loop() {
		_ = m.Notice(1, i)
		i++
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "notices/s")
}
