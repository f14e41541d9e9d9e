package api

import (
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// params reads query parameters strictly: unknown names and repeated
// single-valued names are errors that name the parameter, and every value
// is held to its bound (record.InputBound) by the accessor that reads it
// (str, list, names), before any rule sees it.
type params struct {
	v   url.Values
	err error
}

func newParams(v url.Values, allowed ...string) *params {
	p := &params{v: v}
	var unknown []string
	for k := range v {
		if !slices.Contains(allowed, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		note := record.N("param.unknown", strings.Join(unknown, ", "), strings.Join(allowed, ", "))
		if len(allowed) == 0 {
			note = record.N("param.none", strings.Join(unknown, ", ")) // never "accepted: " and nothing
		}
		p.err = record.NoteError(record.EINVALID, unknown[0], note)
	}
	return p
}

// boundedPath refuses (400 naming it) a path parameter longer than its
// bound, the same bound the parameter has in a query (record.InputBound).
func boundedPath(c *gin.Context) {
	for _, pr := range c.Params {
		if err := record.CheckLen(pr.Key, strings.Trim(pr.Value, "/"), record.InputBound(pr.Key).MaxLen); err != nil {
			writeError(c, err)
			return
		}
	}
	c.Next()
}

func (p *params) fail(err error) {
	if p.err == nil && err != nil {
		p.err = err
	}
}

// str returns a single value.
func (p *params) str(name string) string {
	vs := p.v[name]
	if len(vs) > 1 {
		p.fail(record.InvalidNote(name, "param.once", name))
	}
	if len(vs) == 0 {
		return ""
	}
	if err := record.CheckLen(name, vs[0], record.InputBound(name).MaxLen); err != nil {
		p.fail(err)
		return ""
	}
	return strings.TrimSpace(vs[0])
}

// list returns comma-separated or repeated values, each and their count
// within the parameter's bound (record.InputBound).
func (p *params) list(name string) []string {
	out, err := record.SplitList(name, p.v[name])
	if err != nil {
		p.fail(err)
		return nil
	}
	return out
}

// names returns repeated values without splitting at commas: names such
// as "Acme, Inc." contain them.
func (p *params) names(name string) []string {
	var out []string
	for _, v := range p.v[name] {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	if err := record.CheckInput(name, out...); err != nil {
		p.fail(err)
		return nil
	}
	return out
}

func (p *params) amount(name string) *float64 {
	s := p.str(name)
	if s == "" {
		return nil
	}
	v, err := watch.ParseDollars(s)
	if err != nil {
		p.fail(record.InvalidNote(name, "param.amount", name))
		return nil
	}
	return &v
}

func (p *params) date(name string) time.Time {
	t, err := record.ParseDay(name, p.str(name))
	if err != nil {
		p.fail(err)
	}
	return t
}

func (p *params) integer(name string, def, min, max int) int {
	s := p.str(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < min || n > max {
		p.fail(record.InvalidNote(name, "param.integer", name, min, max))
		return def
	}
	return n
}

func (p *params) boolean(name string) bool {
	switch strings.ToLower(p.str(name)) {
	case "", "0", "false", "no":
		return false
	case "1", "true", "yes":
		return true
	}
	p.fail(record.InvalidNote(name, "param.boolean", name))
	return false
}

// agencies resolves an agency parameter (comma-separated or repeated)
// through the one agency rule, entity.(*Crosswalk).ResolveName: canonical
// ids, names as printed, short forms and nicknames find the same agencies
// here as in the feeds, the MCP tools and a watch; an unknown agency is
// refused (EINVALID naming the parameter, with suggestions).
func (p *params) agencies(cw *entity.Crosswalk, name string) []string {
	ids, _, err := cw.ResolveNames(name, p.list(name))
	if err != nil {
		p.fail(err)
	}
	return ids
}
