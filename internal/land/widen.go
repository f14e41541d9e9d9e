package land

import (
	"context"
	"fmt"

	"github.com/recordwatch/recordwatch/internal/record"
)

// landWidenings are the filters an empty browse may leave out, in the order
// they are tried: the project's state first (a status or stage is the
// filter a resident is least sure of), then what it is, then where, the
// exact numbers, and the words last.
var landWidenings = []struct {
	without, words string
	clear          func(*Filter) bool // reports whether f had the filter, and clears it
}{
	{"status", "without the status", func(f *Filter) bool { had := f.Status != ""; f.Status = ""; return had }},
	{"stage", "without the stage", func(f *Filter) bool { had := f.Stage != ""; f.Stage = ""; return had }},
	{"procedure", "without the review procedure", func(f *Filter) bool { had := f.Procedure != ""; f.Procedure = ""; return had }},
	{"action", "without the action", func(f *Filter) bool { had := f.Action != ""; f.Action = ""; return had }},
	{"effect", "without the effect", func(f *Filter) bool { had := f.Effect != ""; f.Effect = ""; return had }},
	{"community_district", "without the community district", func(f *Filter) bool {
		had := f.CommunityDistrict != ""
		f.CommunityDistrict = ""
		return had
	}},
	{"borough", "without the borough", func(f *Filter) bool { had := f.Borough != ""; f.Borough = ""; return had }},
	{"bbl", "without the lot", func(f *Filter) bool { had := f.BBL != ""; f.BBL = ""; return had }},
	{"ulurp", "without the application number", func(f *Filter) bool { had := f.ULURP != ""; f.ULURP = ""; return had }},
	{"ceqr", "without the CEQR number", func(f *Filter) bool { had := f.CEQR != ""; f.CEQR = ""; return had }},
	{"word", "without the words", func(f *Filter) bool { had := f.Word != ""; f.Word = ""; return had }},
}

// maxLandWidenings bounds the browses one empty answer spends on its
// widening.
const maxLandWidenings = 4

// widen is the widening of an empty browse of f (normalized): the first
// filter of landWidenings whose leaving out matches projects; nil when f
// has fewer than two filters (one filter less would be every project held,
// no answer) or none of maxLandWidenings tries matches.
func (s *Service) widen(ctx context.Context, f Filter) (*record.ListWidening, error) {
	set := 0
	for _, w := range landWidenings {
		if probe := f; w.clear(&probe) {
			set++
		}
	}
	if set < 2 {
		return nil, nil
	}
	tries := 0
	for _, w := range landWidenings {
		wf := f
		if !w.clear(&wf) {
			continue
		}
		if tries++; tries > maxLandWidenings {
			break
		}
		p, err := s.browse(ctx, wf, "", 1)
		if err != nil {
			return nil, err
		}
		if p.Total == 0 {
			continue
		}
		return &record.ListWidening{Without: w.without, Matched: p.Total, Filters: filterParams(p.Filters),
			Note: fmt.Sprintf("No land project held matches every filter; %s, %s do.", w.words, record.Thousands(p.Total))}, nil
	}
	return nil, nil
}

// filterParams are a filter's set fields as the browse's parameters.
func filterParams(f Filter) map[string]string {
	out := map[string]string{}
	for k, v := range map[string]string{"procedure": f.Procedure, "action": f.Action, "stage": f.Stage, "effect": f.Effect, "borough": f.Borough,
		"community_district": f.CommunityDistrict, "bbl": f.BBL, "status": f.Status, "ulurp": f.ULURP, "ceqr": f.CEQR, "word": f.Word} {
		if v != "" {
			out[k] = v
		}
	}
	return out
}
