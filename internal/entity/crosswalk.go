package entity

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Link methods: how a raw agency spelling was tied to its canonical agency.
const (
	MethodExact  = "exact"  // the raw string is a canonical name
	MethodKey    = "key"    // same comparison key as a canonical name
	MethodShort  = "short"  // a reviewed short form or rename
	MethodFamily = "family" // an administrative family (community boards, CUNY …)
	MethodOwn    = "own"    // unknown spelling: its own id until the mapping is updated
)

// Methods lists the link methods, strongest first.
var Methods = []string{MethodExact, MethodKey, MethodShort, MethodFamily, MethodOwn}

// AgencyLink is the crosswalk's answer for one raw spelling.
type AgencyLink struct {
	Raw    string `json:"raw_string"`
	ID     string `json:"canonical_id"`
	Name   string `json:"canonical_name"`
	Method string `json:"method"`
	// Rule is the reviewed rule of a short-form link (abbreviation,
	// word_order, short_form, roster_name, family, former_name: the
	// mapping's spelling_rules).
	Rule string `json:"rule,omitempty"`
	// Note says how the link was made when the method alone does not
	// (which leading words were dropped, which family rule matched, why a
	// reviewed spelling keeps its own id).
	Note string `json:"note,omitempty"`
}

// Agency is one canonical agency of the reviewed mapping file.
type Agency struct {
	ID        string   `json:"id"`
	Name      string   `json:"name"`
	DCASCodes []string `json:"dcas_codes,omitempty"`
	Acronyms  []string `json:"acronyms,omitempty"`
	// NYCGOID is the record id in the NYC Governance Organizations
	// dataset (t3jq-9nkf) and its name crosswalk.
	NYCGOID  string `json:"nycgo_id,omitempty"`
	Inactive bool   `json:"inactive,omitempty"`
	// ShortForms are reviewed spellings, short forms and former names that
	// link to this agency (method "short"); SpellingRules states the rule
	// of each (spelling.go).
	ShortForms    []string          `json:"short_forms,omitempty"`
	SpellingRules map[string]string `json:"spelling_rules,omitempty"`
	// NotAnAgency says why an entry of the DCAS agency list is no agency
	// (a City Record section such as "Changes in Personnel"): it still
	// resolves, but is never offered as an agency label.
	NotAnAgency string `json:"not_an_agency,omitempty"`
}

// OwnID is a spelling reviewed and kept as its own id, with the reason.
type OwnID struct {
	Spelling string `json:"spelling"`
	Reason   string `json:"reason"`
}

// Crosswalk maps raw agency spellings to canonical agencies. The zero value
// (and a nil *Crosswalk) is usable: every spelling gets the id of its own
// comparison key.
type Crosswalk struct {
	byKey    map[string]canonical // comparison key → canonical agency
	agencies map[string]Agency    // id → agency
	own      map[string]string    // comparison key → why a reviewed spelling keeps its own id
}

type canonical struct {
	name   string
	method string
	rule   string
}

// NewCrosswalk builds a crosswalk from canonical names and reviewed short
// forms (short form → canonical name).
func NewCrosswalk(names []string, short map[string]string) *Crosswalk {
	c := &Crosswalk{byKey: map[string]canonical{}, agencies: map[string]Agency{}}
	for _, n := range names {
		c.byKey[AgencyKey(n)] = canonical{name: n, method: MethodKey}
		c.agencies[AgencyID(n)] = Agency{ID: AgencyID(n), Name: n}
	}
	for s, n := range short {
		if _, ok := c.byKey[AgencyKey(s)]; !ok {
			c.byKey[AgencyKey(s)] = canonical{name: n, method: MethodShort}
		}
	}
	return c
}

// mappingFile is the shape of agencies.json.
type mappingFile struct {
	About    string   `json:"about"`
	Sources  []string `json:"sources"`
	OwnIDs   []OwnID  `json:"own_ids"`
	Agencies []Agency `json:"agencies"`
}

// LoadCrosswalk builds a crosswalk from a mapping file (the shape of
// agencies.json). It refuses a file where an id is not its name's id, two
// agencies share an id, or one spelling links to two agencies.
func LoadCrosswalk(data []byte) (*Crosswalk, error) {
	var f mappingFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("entity: agency mapping: %w", err)
	}
	c := &Crosswalk{byKey: map[string]canonical{}, agencies: map[string]Agency{}}
	owner := map[string]string{} // key → id, to find spellings claimed twice
	claim := func(key, id, spelling string) error {
		if key == "" {
			return fmt.Errorf("entity: agency mapping: %s has an empty spelling", id)
		}
		if prev, ok := owner[key]; ok && prev != id {
			return fmt.Errorf("entity: agency mapping: %q links to both %s and %s", spelling, prev, id)
		}
		owner[key] = id
		return nil
	}
	for _, a := range f.Agencies {
		if a.Name == "" || a.ID != AgencyID(a.Name) {
			return nil, fmt.Errorf("entity: agency mapping: id %q is not the id of its name %q (want %q)", a.ID, a.Name, AgencyID(a.Name))
		}
		if _, dup := c.agencies[a.ID]; dup {
			return nil, fmt.Errorf("entity: agency mapping: two agencies have id %s", a.ID)
		}
		c.agencies[a.ID] = a
		if err := claim(AgencyKey(a.Name), a.ID, a.Name); err != nil {
			return nil, err
		}
		c.byKey[AgencyKey(a.Name)] = canonical{name: a.Name, method: MethodKey}
	}
	for _, a := range f.Agencies {
		if len(a.SpellingRules) != len(a.ShortForms) {
			return nil, fmt.Errorf("entity: agency mapping: %s states %d spelling rules for %d short forms", a.ID, len(a.SpellingRules), len(a.ShortForms))
		}
		for _, s := range a.ShortForms {
			k := AgencyKey(s)
			if err := claim(k, a.ID, s); err != nil {
				return nil, err
			}
			rule := a.SpellingRules[s]
			if RuleStrength(rule) < 0 {
				return nil, fmt.Errorf("entity: agency mapping: %q (%s) states no rule (%v), got %q", s, a.ID, SpellingRules, rule)
			}
			if _, ok := c.byKey[k]; !ok {
				c.byKey[k] = canonical{name: a.Name, method: MethodShort, rule: rule}
			}
		}
	}
	c.own = map[string]string{}
	for _, o := range f.OwnIDs {
		k := AgencyKey(o.Spelling)
		if o.Reason == "" {
			return nil, fmt.Errorf("entity: agency mapping: own id %q gives no reason", o.Spelling)
		}
		if id, ok := owner[k]; ok {
			return nil, fmt.Errorf("entity: agency mapping: %q is kept as its own id but links to %s", o.Spelling, id)
		}
		c.own[k] = o.Reason
	}
	for _, fam := range families {
		for _, name := range fam.targets {
			if _, ok := c.agencies[AgencyID(name)]; !ok {
				return nil, fmt.Errorf("entity: agency mapping: family %q links to %q, which is not in the mapping", fam.name, name)
			}
		}
	}
	return c, nil
}

//go:embed agencies.json
var agenciesJSON []byte

var (
	defaultOnce sync.Once
	defaultCW   *Crosswalk
)

// DefaultCrosswalk is the crosswalk the service runs with: the reviewed
// mapping file agencies.json plus the family rules. It is built once and
// shared (a Crosswalk is read-only). It panics if the embedded file is
// broken, which its tests rule out.
func DefaultCrosswalk() *Crosswalk {
	defaultOnce.Do(func() {
		cw, err := LoadCrosswalk(agenciesJSON)
		if err != nil {
			panic(err)
		}
		defaultCW = cw
	})
	return defaultCW
}

// MappingJSON returns the embedded reviewed mapping file.
func MappingJSON() []byte { return agenciesJSON }

// leadingWords are dropped, one after another, when a spelling does not
// match as it stands ("DEPARTMENT OF PARKS AND RECREATION" → "PARKS AND
// RECREATION", "NEW YORK CITY POLICE DEPARTMENT" → "POLICE DEPARTMENT").
var leadingWords = []string{"NEW YORK CITY ", "NYC ", "THE ", "DEPARTMENT OF ", "DEPARTMENT FOR THE ", "DEPT OF ", "DEPT FOR THE "}

// Resolve links a raw spelling to its canonical agency: by exact name or
// comparison key, by a reviewed short form, then again without a leading
// "NYC", "DEPARTMENT OF" or "DEPT OF", then by an administrative family.
// A spelling nothing matches gets its own id (its key, hyphenated) until
// the mapping is updated. Ids never depend on the order spellings were
// seen, so they are stable across restarts.
func (c *Crosswalk) Resolve(raw string) AgencyLink {
	trimmed := strings.TrimSpace(raw)
	if trimmed == "" {
		return AgencyLink{Raw: raw, ID: "unknown-agency", Name: "Unknown agency", Method: MethodOwn,
			Note: "the source names no agency"}
	}
	key := AgencyKey(trimmed)
	if c != nil {
		if why, ok := c.own[key]; ok { // reviewed: never merged by a weaker rule
			return AgencyLink{Raw: raw, ID: AgencyID(trimmed), Name: trimmed, Method: MethodOwn, Note: "reviewed and kept as its own id: " + why}
		}
	}
	if l, ok := c.keyed(raw, key); ok {
		return l
	}
	if c != nil && c.byKey != nil {
		if name, note, ok := family(key); ok {
			if _, known := c.agencies[AgencyID(name)]; known {
				return AgencyLink{Raw: raw, ID: AgencyID(name), Name: name, Method: MethodFamily, Note: note}
			}
		}
	}
	return AgencyLink{Raw: raw, ID: AgencyID(trimmed), Name: trimmed, Method: MethodOwn,
		Note: "not in the reviewed mapping: its own id until the mapping is updated"}
}

// keyed is the first part of Resolve: a spelling whose comparison key the
// mapping holds, as it is or after dropping leading words.
func (c *Crosswalk) keyed(raw, key string) (AgencyLink, bool) {
	if c == nil || c.byKey == nil {
		return AgencyLink{}, false
	}
	if k, ok := c.byKey[key]; ok {
		m := k.method
		if m == MethodKey && raw == k.name {
			m = MethodExact
		}
		return AgencyLink{Raw: raw, ID: AgencyID(k.name), Name: k.name, Method: m, Rule: k.rule}, true
	}
	rest := key
	var dropped []string
	for changed := true; changed; {
		changed = false
		for _, w := range leadingWords {
			if strings.HasPrefix(rest, w) && len(rest) > len(w) {
				dropped = append(dropped, strings.TrimSpace(w))
				rest = strings.TrimPrefix(rest, w)
				changed = true
				if k, ok := c.byKey[rest]; ok {
					return AgencyLink{Raw: raw, ID: AgencyID(k.name), Name: k.name, Method: k.method, Rule: k.rule,
						Note: "matched after dropping the leading " + quoteJoin(dropped)}, true
				}
			}
		}
	}
	return AgencyLink{}, false
}

func quoteJoin(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = "“" + w + "”"
	}
	return strings.Join(q, " and ")
}

// Agency returns the canonical agency with id, if the mapping has it.
func (c *Crosswalk) Agency(id string) (Agency, bool) {
	if c == nil {
		return Agency{}, false
	}
	a, ok := c.agencies[id]
	return a, ok
}

// Agencies lists the canonical agencies of the mapping, by id.
func (c *Crosswalk) Agencies() []Agency {
	if c == nil {
		return nil
	}
	out := make([]Agency, 0, len(c.agencies))
	for _, a := range c.agencies {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// ByDCASCode is the agency of a DCAS City Record agency code ("836",
// "N71"), as the reviewed mapping lists them.
func (c *Crosswalk) ByDCASCode(code string) (Agency, bool) {
	if c == nil {
		return Agency{}, false
	}
	code = strings.TrimSpace(code)
	for _, a := range c.agencies {
		for _, k := range a.DCASCodes {
			if k == code {
				return a, true
			}
		}
	}
	return Agency{}, false
}
