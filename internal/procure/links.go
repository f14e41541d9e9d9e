package procure

import (
	"context"

	"github.com/recordwatch/recordwatch/internal/entity"
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
	// KeyPINGroup is the PIN group (PINGroup) of a link made by PIN
	// (methods exact, renewal, prefix): a procurement matter reads the
	// notices and registrations of its PIN from the links of its group.
	KeyPINGroup = "pin_group"
)

// PINGroup is the group of records a PIN joins (its link records' key
// KeyPINGroup): the 10-character base of a standard PIN, or else the PIN
// without renewal suffixes ("" for a placeholder).
func PINGroup(pin string) string {
	if entity.JunkPIN(pin) {
		return ""
	}
	key, base := entity.PINKeys(pin)
	if base != "" {
		return base
	}
	return entity.StripRenewal(key)
}

// pinMethod reports whether a link method is a PIN method.
func pinMethod(m string) bool {
	return m == entity.PINExact || m == entity.PINRenewal || m == entity.PINPrefix
}

// LinkKind is the typed kind of link records, a derived kind
// ("derived.link": built from other records, so coverage, scopes and
// /stats leave it out, search.IsDerived). Version 1: the first layout;
// 2: links made by PIN carry their PIN group (KeyPINGroup), and notices
// and registrations of one group are linked to each other.
var LinkKind = search.Kind[record.Link]{
	Name:    search.DerivedFamily + ".link",
	Index:   linkRecord,
	Version: 2,
}

func linkRecord(l record.Link) search.Record {
	keys := keySet{}
	keys[KeyRef] = UniqueNonEmpty([]string{l.From.String(), l.To.String()})
	keys.set(KeyLinkPair, l.From.Kind+"-"+l.To.Kind)
	keys.set(KeyLinkMethod, l.Method)
	keys.set(KeyConfidence, l.Confidence)
	if pinMethod(l.Method) {
		// the key of a PIN link is the base shared (prefix) or the PIN
		// shared without renewals, whose group it is
		g := l.Key
		if l.Method != entity.PINPrefix {
			g = PINGroup(l.Key)
		}
		keys.set(KeyPINGroup, g)
	}
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
