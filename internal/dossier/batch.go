package dossier

import (
	"context"
	"strconv"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Bounds of a batch cross-reference (SPEC §4.4).
const (
	BatchAwardNotices   = 10 // newest award notices listed per name
	BatchMentionNotices = 5  // best full-text mentions listed per name
	MentionYears        = 2  // mentions are searched in the last two years of editions
)

// BatchItem is what is held for one name: the award and intent notices
// naming the vendor by stem (all years) and full-text mentions in the last
// two years of editions.
type BatchItem struct {
	Name, Stem string
	// Awards counts and sums the award and intent notices by stem.
	Awards procure.Awards
	// AwardNotices are the newest, at most BatchAwardNotices.
	AwardNotices []record.Notice
	// MentionQuery is the full-text query (the stem, as a phrase when it
	// has several words); Mentions its total, MentionNotices the best.
	MentionQuery   string
	Mentions       int
	MentionNotices []record.Notice
	// Rows sums the payments (the vendor as payee), registered contract
	// rows and payroll rows held under the stem: a vendor held only
	// through payments is found here.
	Rows procure.RowSums
}

// Batch is a batch cross-reference: one item per name, in order.
type Batch struct {
	Items    []BatchItem
	From, To time.Time // the mention window
	Scope    record.Scope
}

// Batch cross-references vendor names. Names are validated by the caller
// (count, length); each is read by its stem.
//
// Errors: EINVALID when a name's stem is too short to match by;
// EUNAVAILABLE when the index or records cannot be read.
func (s *Service) Batch(ctx context.Context, names []string) (*Batch, error) {
	p := s.Procure
	er, err := p.RecordReader()
	if err != nil {
		return nil, err
	}
	now := p.Now()
	out := &Batch{Items: []BatchItem{}, From: now.AddDate(-MentionYears, 0, 0), To: now}
	total := 0
	for i, name := range names {
		stem := entity.VendorStem(name)
		if !entity.StemLongEnough(stem) {
			return nil, record.Invalid("names["+strconv.Itoa(i)+"]", "name %d (%q) is too short to match by name stem (%d characters at least)", i+1, name, entity.MinStemChars)
		}
		aq := search.Query{VendorStems: []string{stem}, NoticeTypes: procure.AwardTypes, Sort: search.SortNewest, Limit: BatchAwardNotices, ExactCount: true}
		awards, err := p.Search.Search(ctx, aq)
		if err != nil {
			return nil, err
		}
		tot, err := er.NoticeTotals(ctx, aq, nil, 0)
		if err != nil {
			return nil, err
		}
		phrase := entity.MentionQuery(stem)
		mentions, err := p.Search.Search(ctx, search.Query{Text: phrase, From: out.From, To: out.To, Sort: search.SortRelevance, Limit: BatchMentionNotices, ExactCount: true})
		if err != nil {
			return nil, err
		}
		it := BatchItem{Name: name, Stem: stem, Awards: p.AwardTotals(tot), AwardNotices: []record.Notice{},
			MentionQuery: phrase, Mentions: mentions.Total, MentionNotices: []record.Notice{}}
		it.Awards.Total = awards.Total
		for _, h := range awards.Hits {
			it.AwardNotices = append(it.AwardNotices, h.Notice)
		}
		for _, h := range mentions.Hits {
			it.MentionNotices = append(it.MentionNotices, h.Notice)
		}
		if it.Rows, err = p.SumRows(ctx, procure.RowQuery{VendorStems: []string{stem}}); err != nil {
			return nil, err
		}
		total += awards.Total + mentions.Total + it.Rows.Records
		out.Items = append(out.Items, it)
	}
	from := out.From.In(record.NewYork).Format("2006-01-02")
	out.Scope, err = p.Scope(ctx, "batch", map[string]string{"names": strconv.Itoa(len(names)), "mentions_from": from}, total)
	if err != nil {
		return nil, err
	}
	return out, nil
}
