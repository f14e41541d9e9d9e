package watch

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/view"
)

// LensLabel names a lens in plain words.
func LensLabel(lens string) string {
	switch lens {
	case record.LensMoney:
		return "money (procurement)"
	case record.LensLand:
		return "land (rezonings and land use)"
	case record.LensProperty:
		return "property (property disposition)"
	case record.LensRules:
		return "rules (agency rules)"
	case record.LensMeetings:
		return "meetings (public hearings and meetings)"
	case record.LensPeople:
		return "people (changes in personnel)"
	case LensEntity:
		return "entity (one vendor or agency)"
	}
	return lens
}

// Dollars writes an amount as "$1,500,000" (cents only when there are any).
func Dollars(v float64) string {
	return strings.TrimSuffix(view.Money(v), ".00")
}

// Describe states a filter in one plain sentence: what kind of record, from
// which agencies and vendors, of what amounts, mentioning what, excluding
// what, where. agencies names agency ids (missing names show the id).
// Values the requester chose (keywords, phrases, exclusions, vendors) are
// stated as PlainValue gives them: the sentence goes into emails sent to
// the address named in a request, so it never carries a link or markup.
// It is DescribeNote's English.
func Describe(f Filter, agencies map[string]string) string {
	return DescribeNote(f, agencies).String()
}

// DescribeNote is Describe as a note: one sentence (watch.scope) of
// clauses run on (record.JoinRun), each with its own leading words, so
// every language says it its own way.
func DescribeNote(f Filter, agencies map[string]string) record.Note {
	var cl []record.Part
	add := func(key string, args ...any) { cl = append(cl, record.P(key, args...)) }
	list := func(key string, items record.Part) {
		cl = append(cl, record.Part{Key: key, Inner: []record.Part{items}, Join: record.JoinArgs})
	}
	switch f.Lens {
	case record.LensMoney:
		if f.awardsFollowed() {
			add("watch.scope.money.awards")
		} else {
			add("watch.scope.money.bids")
		}
	case record.LensLand:
		add("watch.scope.land")
		if f.Stage+f.Procedure+f.Action+f.CommunityDistrict != "" {
			add("watch.scope.land.projects")
		}
		for _, part := range []struct{ key, v string }{{"stage", f.Stage}, {"procedure", f.Procedure}, {"action", f.Action},
			{"community_district", f.CommunityDistrict}} {
			if part.v != "" {
				add("watch.scope.land."+part.key, part.v)
			}
		}
	case record.LensProperty, record.LensRules, record.LensMeetings, record.LensPeople, LensEntity:
		add("watch.scope." + f.Lens)
	default:
		add("watch.scope.other", f.Lens)
	}
	if len(f.AgencyIDs) > 0 {
		var names []string
		seen := map[string]bool{}
		for _, id := range f.AgencyIDs {
			n := agencies[id]
			if n == "" {
				n = id
			}
			if !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
		list("watch.scope.from", record.OrList(names))
		if f.FollowsRoster() {
			add("watch.scope.roster")
		}
	}
	if vs := plainValues(f.Vendors); len(vs) > 0 {
		list("watch.scope.vendor", record.OrList(vs))
	}
	switch {
	case f.MinAmount != nil && f.MaxAmount != nil:
		add("watch.scope.amount.between", Dollars(*f.MinAmount), Dollars(*f.MaxAmount))
	case f.MinAmount != nil:
		add("watch.scope.amount.min", Dollars(*f.MinAmount))
	case f.MaxAmount != nil:
		add("watch.scope.amount.max", Dollars(*f.MaxAmount))
	}
	if len(f.Categories) > 0 {
		var cs []record.Part
		for _, c := range f.Categories {
			cs = append(cs, categoryPart(c))
		}
		list("watch.scope.category", record.OrParts(cs))
	}
	if len(f.Requirements) > 0 {
		var rs []record.Part
		for _, r := range f.Requirements {
			rs = append(rs, RequirementPart(r))
		}
		list("watch.scope.requirement", record.OrParts(rs))
	}
	if w, ok := f.windowPart(); ok {
		cl = append(cl, w)
	}
	var pos []string
	pos = append(pos, plainValues(f.AnyOf)...)
	for _, p := range plainValues(f.Phrases) {
		pos = append(pos, `"`+p+`"`)
	}
	if len(pos) == 1 {
		add("watch.scope.mentioning", pos[0])
	} else if len(pos) > 1 {
		add("watch.scope.mentioning_any", strings.Join(pos, ", "))
	}
	if ex := plainValues(f.Exclude); len(ex) > 0 {
		list("watch.scope.exclude", record.OrList(ex))
	}
	if bs := plainValues(f.Boroughs); len(bs) > 0 {
		var ps []record.Part
		for _, b := range bs {
			ps = append(ps, boroughPart(b))
		}
		list("watch.scope.borough", record.OrParts(ps))
	}
	return record.Note{Key: "watch.scope", Inner: cl, Join: record.JoinRun}
}

// valuePart is a value said as it is (a part with no words of its own).
func valuePart(s string) record.Part { return record.P("watch.value", s) }

// categoryPart names a category a filter may name (CategoryNames) in the
// reader's language; another value is said as it is.
func categoryPart(c string) record.Part {
	if slices.Contains(CategoryNames, c) {
		return record.P("watch.category." + strings.ReplaceAll(c, " ", "_"))
	}
	return valuePart(c)
}

// boroughPart names a borough (Boroughs) in the reader's language;
// another value is said as it is.
func boroughPart(b string) record.Part {
	if slices.Contains(Boroughs, b) {
		return record.P("watch.borough." + strings.ReplaceAll(strings.ToLower(b), " ", "_"))
	}
	return valuePart(b)
}

// RequirementPart names a special requirement (RequirementLabel) in the
// reader's language; another value is said as it is.
func RequirementPart(r string) record.Part {
	if slices.Contains(RequirementNames, r) {
		return record.P("watch.requirement." + r)
	}
	return valuePart(r)
}

// lensPart names a lens (LensLabel) in the reader's language.
func lensPart(lens string) record.Part {
	switch lens {
	case record.LensMoney, record.LensLand, record.LensProperty, record.LensRules, record.LensMeetings, record.LensPeople, LensEntity:
		return record.P("watch.lens." + lens)
	}
	return valuePart(lens)
}

// dayPart is a day as dayWords writes it ("January 2, 2006"), its month
// named in the reader's language.
func dayPart(s string) record.Part {
	if d, ok := parseDay(s); ok {
		return record.Part{Key: "watch.day", Args: []string{strconv.Itoa(d.Day()), strconv.Itoa(d.Year())},
			Inner: []record.Part{record.P("watch.month." + strconv.Itoa(int(d.Month())))}, Join: record.JoinArgs}
	}
	return valuePart(s)
}

// AgencyNames resolves the agencies a request names (entity.ResolveName,
// the one rule every surface uses) into a filter's ids and the names a
// scope states them by. An agency nothing recognizes is refused (EINVALID
// on "agency").
func AgencyNames(cw *entity.Crosswalk, spellings []string) (ids []string, names map[string]string, err error) {
	names = map[string]string{}
	for _, s := range spellings {
		r, err := cw.ResolveName("agency", s)
		if err != nil {
			return nil, nil, err
		}
		for _, id := range r.IDs {
			if _, ok := names[id]; !ok {
				ids = append(ids, id)
			}
			names[id] = r.Name
		}
	}
	return ids, names, nil
}

// weekdayPart names a weekday ("Monday") in the reader's language.
func weekdayPart(d time.Weekday) record.Part { return record.P("watch.weekday." + d.String()) }

// weekdaysPart names a weekday in the plural ("Mondays": every one of
// them) in the reader's language; name is the weekday's English name.
func weekdaysPart(name string) record.Part {
	for d := time.Sunday; d <= time.Saturday; d++ {
		if d.String() == name {
			return record.P("watch.weekdays." + name)
		}
	}
	return valuePart(name + "s")
}

// fieldPart names the date a window bounds (Filter.dateField: due, held,
// published) in the reader's language.
func fieldPart(field string) record.Part { return record.P("watch.field." + field) }

// spanPart is a moving window's length as withinValue writes it ("3
// months", "1 week") in the reader's language; another shape is said as
// it is.
func spanPart(within string) record.Part {
	n, unit, ok := strings.Cut(within, " ")
	if !ok {
		return valuePart(within)
	}
	unit = strings.TrimSuffix(unit, "s")
	switch unit {
	case "day", "week", "month", "year", "fiscal year":
	default:
		return valuePart(within)
	}
	key := "watch.span." + strings.ReplaceAll(unit, " ", "_")
	if n == "1" {
		return record.P(key + ".1")
	}
	return record.P(key, n)
}
