package search

import "time"

// totalsCore is the one summing rule of notice and record totals: every
// match is counted, only valid amounts are summed (and counted as valid),
// first and last dates bound the dated matches, each grouping counts a
// match once per distinct value, and sums are rounded to cents.
type totalsCore struct {
	t      Totals
	groups []string
	acc    map[string]map[string]*Bucket
}

func newTotalsCore(groups []string) totalsCore {
	c := totalsCore{groups: groups, acc: map[string]map[string]*Bucket{}}
	for _, g := range groups {
		c.acc[g] = map[string]*Bucket{}
	}
	return c
}

// add counts one match; values gives its values of a grouping.
func (c *totalsCore) add(date time.Time, amount float64, valid bool, values func(group string) []string) {
	c.t.Count++
	if valid {
		c.t.ValidAmounts++
		c.t.Amount += amount
	}
	if !date.IsZero() {
		if c.t.First.IsZero() || date.Before(c.t.First) {
			c.t.First = date
		}
		if date.After(c.t.Last) {
			c.t.Last = date
		}
	}
	for _, g := range c.groups {
		seen := map[string]bool{}
		for _, v := range values(g) {
			if v == "" || seen[v] {
				continue
			}
			seen[v] = true
			b := c.acc[g][v]
			if b == nil {
				b = &Bucket{Value: v}
				c.acc[g][v] = b
			}
			b.Count++
			if valid {
				b.ValidAmounts++
				b.Amount += amount
			}
		}
	}
}

// merge adds partial totals over matches disjoint from those added: the
// same rule as add, applied to sums instead of one match.
func (c *totalsCore) merge(p Totals) {
	c.t.Count += p.Count
	c.t.ValidAmounts += p.ValidAmounts
	c.t.Amount += p.Amount
	if !p.First.IsZero() && (c.t.First.IsZero() || p.First.Before(c.t.First)) {
		c.t.First = p.First
	}
	if p.Last.After(c.t.Last) {
		c.t.Last = p.Last
	}
	for _, g := range c.groups {
		for _, pb := range p.Groups[g] {
			if pb.Value == "" {
				continue
			}
			b := c.acc[g][pb.Value]
			if b == nil {
				b = &Bucket{Value: pb.Value}
				c.acc[g][pb.Value] = b
			}
			b.Count += pb.Count
			b.ValidAmounts += pb.ValidAmounts
			b.Amount += pb.Amount
		}
	}
}

// totals returns the totals with the top size buckets per grouping (size
// 0, or a grouping keepAll names: every bucket), ordered by sortBuckets;
// Other counts the bucket entries left out.
func (c *totalsCore) totals(size int, keepAll func(group string) bool, sortBuckets func(group string, bs []Bucket)) Totals {
	t := c.t
	t.Amount = RoundCents(t.Amount)
	if len(c.groups) > 0 {
		t.Groups = map[string][]Bucket{}
		t.Other = map[string]int{}
	}
	for _, g := range c.groups {
		bs := make([]Bucket, 0, len(c.acc[g]))
		for _, b := range c.acc[g] {
			b.Amount = RoundCents(b.Amount)
			bs = append(bs, *b)
		}
		sortBuckets(g, bs)
		other := 0
		if size > 0 && len(bs) > size && !keepAll(g) {
			for _, b := range bs[size:] {
				other += b.Count
			}
			bs = bs[:size]
		}
		t.Groups[g] = bs
		t.Other[g] = other
	}
	return t
}
