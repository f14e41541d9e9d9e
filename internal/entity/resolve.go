package entity

import (
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/recordwatch/recordwatch/internal/record"
)

// Methods of ResolveName beyond the link methods of Resolve.
const (
	MethodID       = "id"       // the input is a canonical id of the mapping
	MethodNickname = "nickname" // an everyday name or short form people use ("Parks", "DOT")
	MethodAcronym  = "acronym"  // an acronym the mapping records for one agency ("DPR")
)

// Resolution is how an agency a person or client named was understood.
type Resolution struct {
	Input string `json:"input"`
	// IDs are the canonical ids the input stands for: one, or several for
	// a nickname whose printed spellings the mapping keeps apart.
	IDs []string `json:"ids"`
	// Name is how the agency is named back to the requester.
	Name   string `json:"name"`
	Method string `json:"method"`
	Note   string `json:"note,omitempty"`
}

// slugRE is the shape of an agency id.
var slugRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// ResolveName is the one rule for an agency a person or client names: the
// agency parameter of /api/search, /api/passages and the feeds, MCP tool
// arguments, and a watch's agencies (structured or in plain English) all
// resolve through it, so the same input finds the same agencies
// everywhere. In order:
//
//  1. a canonical id of the mapping ("parks-and-recreation") — method id;
//  2. the crosswalk's link of the spelling (exact name, comparison key,
//     reviewed short form, after dropping a leading "NYC"/"Department of")
//     — methods exact, key, short;
//  3. an everyday name ("NYPD", "parks department") from the nickname
//     table, whose spellings go through Resolve — method nickname;
//  4. an acronym the mapping records for exactly one agency — method acronym;
//  5. an administrative family (community boards, CUNY colleges …) — family;
//  6. an id-shaped value the mapping does not hold ("unknown-agency", or the
//     own id /agencies lists for a spelling the mapping does not know yet):
//     taken as that id, method own, so such records stay findable.
//
// Anything else is refused with EINVALID on param, naming up to three
// agencies whose names share a word with the input: an unknown agency never
// silently finds nothing.
func (c *Crosswalk) ResolveName(param, input string) (Resolution, error) {
	in := strings.TrimSpace(input)
	if in == "" {
		return Resolution{Input: input}, record.Invalid(param, "%s is empty: name an agency as printed (Parks and Recreation), a short form (DOT) or a canonical id (parks-and-recreation)", param)
	}
	if r, ok := c.resolve(input, in, false, true); ok {
		return r, nil
	}
	msg := "unknown agency %q: not a canonical id, a name or short form of the crosswalk, or a known nickname"
	if s := c.suggest(in); len(s) > 0 {
		return Resolution{Input: input}, record.Invalid(param, msg+"; did you mean %s? (GET /agencies lists every id and spelling)", in, strings.Join(s, ", or "))
	}
	return Resolution{Input: input}, record.Invalid(param, msg+" (GET /agencies lists every id and spelling)", in)
}

// ResolveInText is ResolveName as running text reads a phrase (the
// plain-English watch parser): only steps 2 and 3, the crosswalk's
// spellings only when spelling is true (the caller's judgement that the
// phrase reads as a name: several words or a capital, not a kind of
// record), and a nickname that is also an English word ("dot", "doe") only
// in capitals. A family rule matches by prefix and would swallow the rest
// of a sentence, so it is not taken here, nor an id or an acronym.
func (c *Crosswalk) ResolveInText(phrase string, spelling bool) (Resolution, bool) {
	return c.resolve(phrase, strings.TrimSpace(phrase), true, spelling)
}

// resolve is the rule of ResolveName; text restricts it as ResolveInText
// says.
func (c *Crosswalk) resolve(input, in string, text, spelling bool) (Resolution, bool) {
	r := Resolution{Input: input}
	if !text {
		if a, ok := c.Agency(in); ok {
			r.IDs, r.Name, r.Method = []string{a.ID}, a.Name, MethodID
			return r, true
		}
	}
	var l AgencyLink
	switch {
	case !text:
		l = c.Resolve(in)
	case spelling && in != "":
		// running text takes only a spelling's key link (steps 2), never
		// the family rule Resolve would try next
		l, _ = c.keyed(in, AgencyKey(in))
	}
	if spelling {
		switch l.Method {
		case MethodExact, MethodKey, MethodShort:
			r.IDs, r.Name, r.Method, r.Note = []string{l.ID}, l.Name, l.Method, l.Note
			return r, true
		}
	}
	if nk := nicknameIndex[nicknameKey(in)]; nk != nil && !(text && WordAcronym(in) && in != strings.ToUpper(in)) {
		for _, sp := range nk.spellings {
			if id := c.Resolve(sp).ID; !slices.Contains(r.IDs, id) {
				r.IDs = append(r.IDs, id)
			}
		}
		r.Name, r.Method = nk.name, MethodNickname
		return r, true
	}
	if text {
		return r, false
	}
	if a, ok := c.byAcronym(in); ok {
		r.IDs, r.Name, r.Method = []string{a.ID}, a.Name, MethodAcronym
		return r, true
	}
	if l.Method == MethodFamily {
		r.IDs, r.Name, r.Method, r.Note = []string{l.ID}, l.Name, l.Method, l.Note
		return r, true
	}
	if slugRE.MatchString(in) {
		r.IDs, r.Name, r.Method = []string{in}, in, MethodOwn
		r.Note = "not an id of the reviewed mapping: taken as the id of a spelling the mapping does not know yet"
		return r, true
	}
	return r, false
}

// ResolveNames resolves each input (ResolveName) and returns the union of
// their ids, in input order.
func (c *Crosswalk) ResolveNames(param string, inputs []string) ([]string, []Resolution, error) {
	var ids []string
	var rs []Resolution
	for _, in := range inputs {
		r, err := c.ResolveName(param, in)
		if err != nil {
			return nil, nil, err
		}
		rs = append(rs, r)
		for _, id := range r.IDs {
			if !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
	}
	return ids, rs, nil
}

// byAcronym finds the one agency of the mapping that records acronym s
// (case-insensitive); an acronym two agencies share names neither.
func (c *Crosswalk) byAcronym(s string) (Agency, bool) {
	if c == nil {
		return Agency{}, false
	}
	var found []Agency
	for _, a := range c.agencies {
		for _, ac := range a.Acronyms {
			if strings.EqualFold(ac, s) {
				found = append(found, a)
				break
			}
		}
	}
	if len(found) != 1 {
		return Agency{}, false
	}
	return found[0], true
}

// suggestStop are words too common in agency names to suggest by.
var suggestStop = map[string]bool{"DEPARTMENT": true, "DEPT": true, "OF": true, "THE": true, "AND": true, "FOR": true,
	"NYC": true, "NEW": true, "YORK": true, "CITY": true, "OFFICE": true, "MAYORS": true, "AFFAIRS": true, "SERVICES": true,
	"COMMISSION": true, "BOARD": true, "AGENCY": true, "ON": true, "INC": true}

// suggest names up to three canonical agencies (as "Name (id)") sharing
// the most words with the input.
func (c *Crosswalk) suggest(in string) []string {
	words := map[string]bool{}
	for _, w := range strings.Fields(AgencyKey(in)) {
		if !suggestStop[w] && len(w) > 2 {
			words[w] = true
		}
	}
	if len(words) == 0 {
		return nil
	}
	type cand struct {
		a     Agency
		score int
	}
	var cs []cand
	for _, a := range c.Agencies() {
		if a.Inactive {
			continue
		}
		n := 0
		for _, w := range strings.Fields(AgencyKey(a.Name)) {
			if words[w] {
				n++
			}
		}
		if n > 0 {
			cs = append(cs, cand{a, n})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].score > cs[j].score })
	var out []string
	for i := 0; i < len(cs) && i < 3; i++ {
		out = append(out, cs[i].a.Name+" ("+cs[i].a.ID+")")
	}
	return out
}
