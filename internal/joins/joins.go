// Package joins is the kind of link records (record.Link): the joins the
// indexer's link stage (indexer/link) found between notices, contracts,
// payments, meetings and land projects, each with its method, confidence
// and evidence, and the one way to read them. Every reader of joins
// (procure's matters, contract and notice reads, dossiers, the land and
// meeting services, and through them the API, MCP and the site) reads
// them here (Read); none joins again. It is a package of its own so that
// every topic service can read joins without importing another.
package joins

import (
	"context"
	"fmt"
	"slices"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Source and SourceLabel are the source of link records: the link stage.
const (
	Source      = "link"
	SourceLabel = "Recordwatch link stage (joins found at index time, each with method and confidence)"
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

// RefPIN is the kind of the far end of a link from a payment that states
// a PIN itself: the PIN, without renewal suffixes, the payment states
// (method exact or renewal). Its link carries the PIN group, so a matter
// reads those payments from the links of its group like its notices and
// registrations.
const RefPIN = "pin"

// Pair is the KeyLinkPair value of links from one kind of record to
// another ("contract-payment").
func Pair(from, to string) string { return from + "-" + to }

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

// PINMethods are the methods of joins by PIN.
var PINMethods = []string{entity.PINExact, entity.PINRenewal, entity.PINPrefix}

// Kind is the typed kind of link records, a derived kind ("derived.link":
// built from other records, so coverage, scopes and /stats leave it out,
// search.IsDerived). Version 1: the first layout; 2: links made by PIN
// carry their PIN group (KeyPINGroup), and the notices and registrations
// of one group are linked to each other; 3: a payment that states a PIN
// itself is linked to it (RefPIN), in its PIN group.
var Kind = search.Kind[record.Link]{
	Name:    search.DerivedFamily + ".link",
	Index:   index,
	Version: 3,
}

func index(l record.Link) search.Record {
	keys := map[string][]string{}
	set := func(k, v string) {
		if v != "" && !slices.Contains(keys[k], v) {
			keys[k] = append(keys[k], v)
		}
	}
	set(KeyRef, l.From.String())
	set(KeyRef, l.To.String())
	set(KeyLinkPair, Pair(l.From.Kind, l.To.Kind))
	set(KeyLinkMethod, l.Method)
	set(KeyConfidence, l.Confidence)
	if slices.Contains(PINMethods, l.Method) {
		// the key of a PIN link is the base shared (prefix) or the PIN
		// shared without renewals, whose group it is
		g := l.Key
		if l.Method != entity.PINPrefix {
			g = PINGroup(l.Key)
		}
		set(KeyPINGroup, g)
	}
	return search.Record{ID: l.ID, Source: Source, SourceLabel: SourceLabel, ObservedAt: l.ObservedAt, Keys: keys, Title: l.Method}
}

// MaxRead bounds the links read for one set of records (at most
// search.MaxRecordLimit). It is a variable so that a test can lower it
// and see every answer say its joins were cut (BoundNote); nothing else
// changes it.
var MaxRead = search.MaxRecordLimit

// BoundNote is the sentence an answer carries beside complete=false when
// a bounded read of joins (Read) hit its bound: what was cut and the
// bound, so an answer never truncates silently.
func BoundNote(what string, bound int) string {
	return fmt.Sprintf("Incomplete: more %s are held than the %d one answer reads (the bound of a join read); the first %d are listed.", what, bound, bound)
}

// The bound notes of the join reads cut by a bound (Bound): the joins
// named, each a note whose English is BoundNote's of them.
const (
	// BoundMeetingLand: "land project joins of this meeting".
	BoundMeetingLand = "joins.bound.meeting_land_projects"
	// BoundMatterLinks: "links of this PIN group".
	BoundMatterLinks = "joins.bound.matter_links"
	// BoundMatterPayments: "payment links of these registrations".
	BoundMatterPayments = "joins.bound.matter_payment_links"
)

// Bound is the note of a read cut by bound: key (BoundMeetingLand …) with
// the bound, for the reader's language; its English is BoundNote's.
func Bound(key string, bound int) record.Note { return record.N(key, bound, bound) }

// Read reads the links held that have one of refs at either end and, when
// pair is set (Pair), join that pair of kinds. At most MaxRead links are
// read per search.MaxKeyValues refs; complete is false when more are held.
func Read(ctx context.Context, rs search.RecordReader, refs []record.Ref, pair string) (links []record.Link, complete bool, err error) {
	complete = true
	for start := 0; start < len(refs); start += search.MaxKeyValues {
		var keys []string
		for _, r := range refs[start:min(start+search.MaxKeyValues, len(refs))] {
			keys = append(keys, r.String())
		}
		q := search.RecordQuery{Keys: map[string][]string{KeyRef: keys}, Sort: search.RecordSortID, Limit: MaxRead}
		if pair != "" {
			q.Keys[KeyLinkPair] = []string{pair}
		}
		p, err := search.Find(ctx, rs, Kind, q)
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
