package procure

import (
	"context"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Link records (record.Link): the joins the indexer's link stage found
// between notices, contracts, payments, meetings and land projects, each
// with its method, confidence and evidence. The kind is declared here,
// beside the procurement kinds, because internal/record holds no engine
// type; every reader of joins (matters, contract reads, notice reads,
// dossiers, the API and MCP) reads them through Service.Links.

// LinkSource is the source of link records: the link stage.
const (
	LinkSource      = "link"
	LinkSourceLabel = "Recordwatch link stage (joins found at index time, each with method and confidence)"
)

// Keys of link records.
const (
	// KeyRef holds both ends of a link ("contract:<id>", "payment:<id>" …),
	// so a record's links are found from either end.
	KeyRef = "ref"
	// KeyLinkPair is "<from kind>-<to kind>" ("contract-payment").
	KeyLinkPair = "link_pair"
	// KeyLinkMethod and KeyConfidence are the link's method and confidence.
	KeyLinkMethod = "link_method"
	KeyConfidence = "confidence"
)

// LinkKind is the typed kind of link records, a derived kind
// ("derived.link": built from other records, so coverage, scopes and
// /stats leave it out, search.IsDerived). Version 1: the first layout.
var LinkKind = search.Kind[record.Link]{
	Name:    search.DerivedFamily + ".link",
	Index:   linkRecord,
	Version: 1,
}

func linkRecord(l record.Link) search.Record {
	keys := keySet{}
	keys[KeyRef] = UniqueNonEmpty([]string{l.From.String(), l.To.String()})
	keys.set(KeyLinkPair, l.From.Kind+"-"+l.To.Kind)
	keys.set(KeyLinkMethod, l.Method)
	keys.set(KeyConfidence, l.Confidence)
	return search.Record{ID: l.ID, Source: LinkSource, SourceLabel: LinkSourceLabel, ObservedAt: l.ObservedAt, Keys: keys,
		Title: l.Method}
}

// MaxLinksRead bounds the links read for one set of records.
const MaxLinksRead = search.MaxRecordLimit

// Links reads the links held that have one of refs at either end and, when
// pair is set ("contract-payment"), join that pair of kinds. At most
// MaxLinksRead links are read; complete is false when more are held.
//
// Errors: EUNAVAILABLE when the records cannot be read.
func (s *Service) Links(ctx context.Context, refs []record.Ref, pair string) (links []record.Link, complete bool, err error) {
	rs, err := s.RecordReader()
	if err != nil {
		return nil, false, err
	}
	complete = true
	for start := 0; start < len(refs); start += search.MaxKeyValues {
		var keys []string
		for _, r := range refs[start:min(start+search.MaxKeyValues, len(refs))] {
			keys = append(keys, r.String())
		}
		q := search.RecordQuery{Keys: map[string][]string{KeyRef: keys}, Sort: search.RecordSortID, Limit: MaxLinksRead}
		if pair != "" {
			q.Keys[KeyLinkPair] = []string{pair}
		}
		p, err := search.Find(ctx, rs, LinkKind, q)
		if err != nil {
			return nil, false, err
		}
		links = append(links, p.Items...)
		if p.Total > len(p.Items) {
			complete = false
		}
	}
	return links, complete, nil
}
