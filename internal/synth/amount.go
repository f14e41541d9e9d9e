package synth

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/recordwatch/recordwatch/internal/record"
)

// amountModel draws contract amounts: valid ones log-normal around the real
// valid amounts, written the way the source writes them, and invalid ones of
// three kinds (negative placeholders, zero, entry errors ≥ $10 billion).
type amountModel struct {
	mu, sigma    float64 // of ln(amount)
	round        float64 // share of valid amounts that are whole thousands
	cents        float64 // share written with a fraction
	dollar       float64 // share written with "$" and commas
	invalidShare float64 // learned share of invalid amounts
	kinds        [3]float64
	negative     []string // real negative placeholders
}

// Invalid amount kinds.
const (
	kindNegative = iota
	kindZero
	kindHuge
)

// minKind is the least weight of each invalid kind among invalid amounts, so
// kinds the sample lacks (0, entry errors) still occur.
const minKind = 0.15

func learnAmounts(real []record.Notice, logs []float64) amountModel {
	a := amountModel{mu: math.Log(1e6), sigma: 2}
	if len(logs) >= 2 {
		sum := 0.0
		for _, l := range logs {
			sum += l
		}
		a.mu = sum / float64(len(logs))
		ss := 0.0
		for _, l := range logs {
			ss += (l - a.mu) * (l - a.mu)
		}
		a.sigma = math.Sqrt(ss / float64(len(logs)-1))
	}
	var counts [3]float64
	total, invalid, valid, round, cents, dollar := 0, 0, 0, 0, 0, 0
	for _, n := range real {
		if n.AmountRaw == "" {
			continue
		}
		total++
		v, ok := record.ParseAmount(n.AmountRaw)
		if ok {
			valid++
			if math.Mod(v, 1000) == 0 {
				round++
			}
			if strings.Contains(n.AmountRaw, ".") {
				cents++
			}
			if strings.Contains(n.AmountRaw, "$") {
				dollar++
			}
			continue
		}
		invalid++
		switch {
		case v < 0:
			counts[kindNegative]++
			a.negative = append(a.negative, strings.TrimSpace(n.AmountRaw))
		case v == 0:
			counts[kindZero]++
		default:
			counts[kindHuge]++
		}
	}
	if total > 0 {
		a.invalidShare = float64(invalid) / float64(total)
	}
	if valid > 0 {
		a.round = float64(round) / float64(valid)
		a.cents = float64(cents) / float64(valid)
		a.dollar = float64(dollar) / float64(valid)
	}
	sum := 0.0
	for i := range counts {
		if invalid > 0 {
			counts[i] /= float64(invalid)
		}
		counts[i] = max(counts[i], minKind)
		sum += counts[i]
	}
	for i := range counts {
		a.kinds[i] = counts[i] / sum
	}
	return a
}

// valid draws a valid amount: above 0 and below $10 billion.
func (a amountModel) valid(r *rand.Rand) float64 {
	for range 100 {
		v := math.Exp(a.mu + a.sigma*r.NormFloat64())
		if v >= 1 && v < record.MaxValidAmount {
			return v
		}
	}
	return math.Exp(a.mu)
}

// draw returns the source text of an amount, invalid with probability
// invalidShare.
func (a amountModel) draw(r *rand.Rand, invalidShare float64) string {
	if r.Float64() < invalidShare {
		x := r.Float64()
		switch {
		case x < a.kinds[kindNegative]:
			if len(a.negative) > 0 {
				return a.negative[r.IntN(len(a.negative))]
			}
			return "-1"
		case x < a.kinds[kindNegative]+a.kinds[kindZero]:
			if r.IntN(2) == 0 {
				return "0"
			}
			return "0.00"
		default:
			// an entry error: digits typed too many times
			v := math.Round(a.valid(r))
			for v < record.MaxValidAmount {
				v *= 1000
			}
			return strconv.FormatFloat(v, 'f', 0, 64)
		}
	}
	v := a.valid(r)
	x := r.Float64()
	switch {
	case x < a.round:
		p := math.Pow(10, math.Max(3, math.Floor(math.Log10(v))-1))
		v = math.Max(1000, math.Round(v/p)*p)
		if v >= record.MaxValidAmount {
			v -= p
		}
	case x < a.round+a.cents:
		v = math.Round(v*100) / 100
	default:
		v = math.Max(1, math.Round(v))
	}
	if r.Float64() < a.dollar {
		return money(v)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}
