package watch

import (
	"fmt"
	"strings"

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
func Describe(f Filter, agencies map[string]string) string {
	var b strings.Builder
	switch f.Lens {
	case record.LensMoney:
		if f.awardsFollowed() {
			b.WriteString("Contract awards and intents to award")
		} else {
			b.WriteString("Open procurement solicitations (due today or later, rolling deadlines included)")
		}
	case record.LensLand:
		b.WriteString("Land-use notices (rezonings, ULURP and other land-use hearings)")
		if f.Stage+f.Procedure+f.Action+f.CommunityDistrict != "" {
			b.WriteString(" and land projects")
		}
		for _, part := range []struct{ name, v string }{{"stage", f.Stage}, {"review procedure", f.Procedure}, {"action", f.Action},
			{"community district", f.CommunityDistrict}} {
			if part.v != "" {
				b.WriteString(", " + part.name + " " + part.v)
			}
		}
	case record.LensProperty:
		b.WriteString("Property disposition notices")
	case record.LensRules:
		b.WriteString("Agency rules")
	case record.LensMeetings:
		b.WriteString("Public hearings and meetings (from today on)")
	case record.LensPeople:
		b.WriteString("Changes in personnel")
	case LensEntity:
		b.WriteString("Every notice")
	default:
		b.WriteString("Notices in " + f.Lens)
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
		b.WriteString(" from " + strings.Join(names, " or "))
		if f.FollowsRoster() {
			b.WriteString(", and roster releases that change their leader")
		}
	}
	if vs := plainValues(f.Vendors); len(vs) > 0 {
		b.WriteString(" naming vendor " + strings.Join(vs, " or "))
	}
	switch {
	case f.MinAmount != nil && f.MaxAmount != nil:
		fmt.Fprintf(&b, ", of %s to %s", Dollars(*f.MinAmount), Dollars(*f.MaxAmount))
	case f.MinAmount != nil:
		fmt.Fprintf(&b, ", of at least %s", Dollars(*f.MinAmount))
	case f.MaxAmount != nil:
		fmt.Fprintf(&b, ", of at most %s", Dollars(*f.MaxAmount))
	}
	if len(f.Categories) > 0 {
		b.WriteString(", in category " + strings.Join(f.Categories, " or "))
	}
	if len(f.Requirements) > 0 {
		var rs []string
		for _, r := range f.Requirements {
			rs = append(rs, RequirementLabel(r))
		}
		b.WriteString(", mentioning " + strings.Join(rs, " or ") + " participation")
	}
	if w := f.windowText(); w != "" {
		b.WriteString(", " + w)
	}
	var pos []string
	pos = append(pos, plainValues(f.AnyOf)...)
	for _, p := range plainValues(f.Phrases) {
		pos = append(pos, `"`+p+`"`)
	}
	if len(pos) == 1 {
		b.WriteString(", mentioning " + pos[0])
	} else if len(pos) > 1 {
		b.WriteString(", mentioning any of " + strings.Join(pos, ", "))
	}
	if ex := plainValues(f.Exclude); len(ex) > 0 {
		b.WriteString(", leaving out any that mention " + strings.Join(ex, " or "))
	}
	if bs := plainValues(f.Boroughs); len(bs) > 0 {
		b.WriteString(", naming " + strings.Join(bs, " or "))
	}
	b.WriteString(".")
	return b.String()
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
