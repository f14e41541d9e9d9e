package synth

import (
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
)

// firm is one vendor: a base name ("Securus Technologies") under one stem,
// written with suffix and case variants.
type firm struct {
	base  string
	stem  string
	names []string // real spellings, with repetition (real firms only)
	fams  []int    // suffix family of each real spelling (-1: none)
	count int
}

// families are legal suffixes that entity.VendorStem removes, in the
// spellings the City Record uses; a firm is written with any member of its
// family, so its variants share one stem.
var families = [][]string{
	{"Inc.", ", Inc.", "Inc", ", Inc", "INC", "Incorporated", ", INC."},
	{"LLC", ", LLC", "L.L.C.", ", L.L.C.", "LLC."},
	{"Corp.", "Corp", ", Corp.", "Corporation", "CORP"},
	{"Co.", "Co", "Company", ", Co."},
	{"LLP", ", LLP", "L.L.P."},
	{"LP", ", LP", "L.P.", ", L.P."},
	{"Ltd.", "Ltd", "LTD", "Limited", ", Ltd."},
	{"P.C.", ", P.C.", "PC", ", PC"},
	{"PLLC", ", PLLC", "P.L.L.C."},
}

var familyOf = map[string]int{
	"INC": 0, "INCORPORATED": 0, "COINC": 0,
	"LLC": 1, "COLLC": 1,
	"CORP": 2, "CORPORATION": 2,
	"CO": 3, "COMPANY": 3,
	"LLP": 4, "COLLP": 4,
	"LP":  5,
	"LTD": 6, "LIMITED": 6,
	"PC":   7,
	"PLLC": 8,
}

// suffixFamily classifies the part of a vendor name after its base.
func suffixFamily(rest string) int {
	k := strings.Map(func(r rune) rune {
		switch r {
		case '.', ',', '\'', '’', '&', ' ':
			return -1
		}
		return r
	}, strings.ToUpper(rest))
	if f, ok := familyOf[k]; ok {
		return f
	}
	return -1
}

// baseName is the shortest run of leading words of name with the same stem.
func baseName(name, stem string) string {
	words := strings.Fields(name)
	for k := 1; k <= len(words); k++ {
		cand := strings.TrimRight(strings.Join(words[:k], " "), " ,")
		if entity.VendorStem(cand) == stem {
			return cand
		}
	}
	return strings.TrimSpace(name)
}

func (m *Model) learnVendors(real []record.Notice) {
	byStem := map[string]*firm{}
	names, upper := 0, 0
	for _, n := range real {
		if n.VendorName == "" || n.VendorStem == "" {
			continue
		}
		names++
		if strings.ToUpper(n.VendorName) == n.VendorName {
			upper++
		}
		f := byStem[n.VendorStem]
		if f == nil {
			f = &firm{stem: n.VendorStem, base: baseName(n.VendorName, n.VendorStem)}
			byStem[n.VendorStem] = f
		}
		f.count++
		f.names = append(f.names, n.VendorName)
		fam := -1
		if rest, ok := strings.CutPrefix(n.VendorName, f.base); ok {
			fam = suffixFamily(rest)
		}
		f.fams = append(f.fams, fam)
		m.families = append(m.families, fam)
	}
	for _, f := range byStem {
		m.firms = append(m.firms, *f)
		words := strings.Fields(f.base)
		if len(words) >= 2 {
			m.heads = append(m.heads, words[0])
			m.tails = append(m.tails, words[len(words)-1])
		}
	}
	sort.Slice(m.firms, func(i, j int) bool {
		if m.firms[i].count != m.firms[j].count {
			return m.firms[i].count > m.firms[j].count
		}
		return m.firms[i].stem < m.firms[j].stem
	})
	sort.Strings(m.heads)
	sort.Strings(m.tails)
	if names > 0 {
		m.upper = float64(upper) / float64(names)
	}
	m.upper = max(m.upper, 0.05)
}

// Zipf law of firm ranks: P(rank k) ∝ (k+zipfV)^-zipfS. With 50,000 firms the
// most frequent firm holds about 1% of the vendor notices.
const (
	zipfS = 1.1
	zipfV = 20
)

// vendorName draws a firm by rank and writes it in one of its variants.
func (m *Model) vendorName(seed int64, r *rand.Rand) string {
	var f firm
	if m.Firms <= 1 && len(m.firms) > 0 {
		f = m.firms[0]
	} else {
		rank := int(rand.NewZipf(r, zipfS, zipfV, uint64(max(m.Firms, 1)-1)).Uint64())
		f = m.firm(seed, rank)
	}
	if f.base == "" {
		return ""
	}
	// a real spelling as it was, or the base with a suffix of the family
	var name string
	if len(f.names) > 0 && r.Float64() < 0.35 {
		name = f.names[r.IntN(len(f.names))]
	} else {
		fam := -1
		if len(f.fams) > 0 {
			fam = f.fams[r.IntN(len(f.fams))]
		}
		if fam < 0 && r.Float64() < 0.2 && len(m.families) > 0 {
			fam = m.families[r.IntN(len(m.families))]
		}
		if r.Float64() < 0.05 {
			fam = r.IntN(len(families)) // another legal form of the same firm
		}
		name = f.base
		if fam >= 0 {
			suf := families[fam][r.IntN(len(families[fam]))]
			if !strings.HasPrefix(suf, ",") {
				name += " "
			}
			name += suf
		}
	}
	if r.Float64() < m.upper {
		name = strings.ToUpper(name)
	}
	if entity.VendorStem(name) != f.stem {
		name = f.base // the variant changed the stem: keep the base name
	}
	return name
}

// firm returns the firm of a rank: a real firm, or one generated from the
// words of real firm names (the same for a seed and rank).
func (m *Model) firm(seed int64, rank int) firm {
	if rank < len(m.firms) {
		return m.firms[rank]
	}
	if len(m.heads) == 0 || len(m.tails) == 0 {
		if len(m.firms) > 0 {
			return m.firms[rank%len(m.firms)]
		}
		return firm{}
	}
	r := rng(seed, streamFirm, rank)
	words := []string{m.heads[r.IntN(len(m.heads))]}
	if r.IntN(10) < 3 {
		words = append(words, m.tails[r.IntN(len(m.tails))])
	}
	if t := m.tails[r.IntN(len(m.tails))]; t != words[len(words)-1] {
		words = append(words, t)
	}
	base := strings.Join(words, " ")
	f := firm{base: base, stem: entity.VendorStem(base)}
	if len(m.families) > 0 {
		f.fams = []int{m.families[r.IntN(len(m.families))]}
	}
	return f
}
