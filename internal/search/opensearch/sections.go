package opensearch

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/recordwatch/recordwatch/internal/search"
)

// sectionsAgg is the answer to the sections aggregation: sources, each
// with its sections and their min/max start dates.
type sectionsAgg struct {
	Buckets []struct {
		Key      json.RawMessage `json:"key"`
		DocCount int             `json:"doc_count"`
		Sections termsAgg        `json:"sections"`
	} `json:"buckets"`
}

// sectionsBody is the one _search Sections sends: terms on source, then on
// section (a notice without one counts under ""), then min/max start_date.
func sectionsBody(now time.Time) obj {
	return obj{
		"size":             0,
		"track_total_hits": true,
		"aggs": obj{"sources": obj{
			"terms": obj{"field": "source", "size": maxSources},
			"aggs": obj{"sections": obj{
				"terms": obj{"field": "section", "size": search.MaxSections, "missing": ""},
				"aggs": obj{
					"first": obj{"min": obj{"field": "start_date"}},
					"dated": datedLast(now),
				},
			}},
		}},
	}
}

// Sections counts notices per source and section, with each set's first
// and last publication dates, in one aggregation.
func (b *Backend) Sections(ctx context.Context) ([]search.SectionCoverage, error) {
	res, err := b.search(ctx, "section coverage", b.notices(), sectionsBody(b.now()))
	if err != nil {
		return nil, err
	}
	return parseSections(res.Aggregations["sources"])
}

func parseSections(raw json.RawMessage) ([]search.SectionCoverage, error) {
	out := []search.SectionCoverage{}
	if raw == nil {
		return out, nil
	}
	var agg sectionsAgg
	if err := json.Unmarshal(raw, &agg); err != nil {
		return nil, fmt.Errorf("opensearch: section coverage: %w", err)
	}
	for _, src := range agg.Buckets {
		name := bucketKey(src.Key)
		// "missing": "" puts notices without a section in the "" bucket,
		// together with any whose section is an empty string
		for _, sec := range src.Sections.Buckets {
			out = append(out, search.SectionCoverage{Source: name, Section: bucketKey(sec.Key), Records: sec.DocCount,
				FirstSourceDate: nyDay(sec.First), LastSourceDate: nyDay(sec.Dated.last())})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Source != out[j].Source {
			return out[i].Source < out[j].Source
		}
		return out[i].Section < out[j].Section
	})
	return out, nil
}
