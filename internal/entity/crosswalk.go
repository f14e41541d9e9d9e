package entity

import "strings"

// Link methods: how a raw agency spelling was tied to its canonical agency.
const (
	MethodExact  = "exact"  // the raw string is a canonical name
	MethodKey    = "key"    // same comparison key as a canonical name
	MethodShort  = "short"  // a reviewed short form or rename
	MethodFamily = "family" // an administrative family (community boards, CUNY …)
	MethodOwn    = "own"    // unknown spelling: its own id until the mapping is updated
)

// AgencyLink is the crosswalk's answer for one raw spelling.
type AgencyLink struct {
	Raw    string `json:"raw_string"`
	ID     string `json:"canonical_id"`
	Name   string `json:"canonical_name"`
	Method string `json:"method"`
}

// Crosswalk maps raw agency spellings to canonical agencies. The zero value
// is usable: every spelling gets the id of its own comparison key.
type Crosswalk struct {
	byKey map[string]canonical // comparison key → canonical agency
}

type canonical struct {
	name   string
	method string
}

// NewCrosswalk builds a crosswalk from canonical names and reviewed short
// forms (short form → canonical name).
func NewCrosswalk(names []string, short map[string]string) *Crosswalk {
	c := &Crosswalk{byKey: map[string]canonical{}}
	for _, n := range names {
		c.byKey[AgencyKey(n)] = canonical{name: n, method: MethodKey}
	}
	for s, n := range short {
		if _, ok := c.byKey[AgencyKey(s)]; !ok {
			c.byKey[AgencyKey(s)] = canonical{name: n, method: MethodShort}
		}
	}
	return c
}

// Resolve links a raw spelling to its canonical agency. Ids never depend on
// the order spellings were seen, so they are stable across restarts.
func (c *Crosswalk) Resolve(raw string) AgencyLink {
	trimmed := strings.TrimSpace(raw)
	if trimmed == "" {
		return AgencyLink{Raw: raw, ID: "unknown-agency", Name: "Unknown agency", Method: MethodOwn}
	}
	key := AgencyKey(trimmed)
	if c != nil {
		if k, ok := c.byKey[key]; ok {
			m := k.method
			if m == MethodKey && trimmed == k.name {
				m = MethodExact
			}
			return AgencyLink{Raw: raw, ID: AgencyID(k.name), Name: k.name, Method: m}
		}
	}
	return AgencyLink{Raw: raw, ID: AgencyID(trimmed), Name: trimmed, Method: MethodOwn}
}

// DefaultCrosswalk is the crosswalk the service runs with.
func DefaultCrosswalk() *Crosswalk { return NewCrosswalk(nil, nil) }
