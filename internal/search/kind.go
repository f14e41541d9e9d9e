package search

import (
	"context"
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/recordwatch/recordwatch/internal/record"
)

// Kind is a typed record kind on top of Records: how a T is indexed (its
// envelope: id, source, keys, date, amount) and decoded (its Body). Adding a
// kind is declaring one of these; the engines do not change.
//
// A kind is one record kind (Name), or a family of kinds that share one
// body type and differ in their Record.Kind ("payment",
// "payment.payroll"): then Members lists them and Index sets Record.Kind.
type Kind[T any] struct {
	Name    string
	Members []string
	// Index builds the envelope of a value; Body is filled by Put, and an
	// empty Record.Kind is Name.
	Index func(T) Record
	// Version is the layout of the kind's records (its body and keys):
	// raised when a change needs the records written again (a new key, a
	// new body field). Encode writes it as the key KeyKindVersion; 0 is an
	// unversioned kind (no key). A data directory's records of an older
	// layout are found by that key (the indexer reloads the bundled sample
	// over them).
	Version int
	// ID is the shape of the kind's ids when it is narrower than every
	// record's (CheckRecordID): an id its routes read as one path segment
	// holds no "/". A value whose id does not match is rejected at ingest
	// with the reason, never stored unreachable.
	ID *regexp.Regexp
}

// KeyKindVersion is the key of a record's layout version (Kind.Version),
// written on the records of a versioned kind only.
const KeyKindVersion = "kind_version"

// VersionKey is the KeyKindVersion value of k's records ("" for an
// unversioned kind).
func (k Kind[T]) VersionKey() string {
	if k.Version == 0 {
		return ""
	}
	return strconv.Itoa(k.Version)
}

// Kinds are the record kinds of k.
func (k Kind[T]) Kinds() []string {
	if len(k.Members) > 0 {
		return k.Members
	}
	return []string{k.Name}
}

// Page is a page of typed values with their records (the envelope: kind,
// keys, date …) and the paging and scope of the record page.
type Page[T any] struct {
	Items      []T          `json:"items"`
	Records    []Record     `json:"-"`
	Total      int          `json:"total"`
	NextCursor string       `json:"next_cursor,omitempty"`
	Scope      record.Scope `json:"scope"`
}

// Encode is the record of v: its envelope with the JSON of v as Body.
func (k Kind[T]) Encode(v T) (Record, error) {
	r := k.Index(v)
	if r.Kind == "" {
		r.Kind = k.Name
	}
	if !slices.Contains(k.Kinds(), r.Kind) {
		return r, record.Invalid("kind", "a %s value cannot be written as record kind %q", k.Name, r.Kind)
	}
	if ver := k.VersionKey(); ver != "" {
		keys := make(map[string][]string, len(r.Keys)+1)
		maps.Copy(keys, r.Keys)
		keys[KeyKindVersion] = []string{ver}
		r.Keys = keys
	}
	body, err := json.Marshal(v)
	if err != nil {
		return r, err
	}
	r.Body = body
	if k.ID != nil && !k.ID.MatchString(r.ID) {
		return r, record.Invalid("id", "a %s id must match %s: %q does not (its permalink could not open)", k.Name, k.ID, r.ID)
	}
	return r, CheckRecord(r)
}

// Decode reads the value a record holds; EUNAVAILABLE when its body is
// not one.
func (k Kind[T]) Decode(r Record) (T, error) {
	var v T
	if !slices.Contains(k.Kinds(), r.Kind) {
		return v, &record.Error{Code: record.EINTERNAL, Message: "record " + r.Kind + " " + r.ID + " is not a " + k.Name}
	}
	if err := json.Unmarshal(r.Body, &v); err != nil {
		return v, &record.Error{Code: record.EUNAVAILABLE, Message: "stored " + r.Kind + " " + r.ID + " is unreadable"}
	}
	return v, nil
}

// Put writes values of a kind in one PutRecords call.
func Put[T any](ctx context.Context, rs Records, k Kind[T], vs []T) error {
	if len(vs) == 0 {
		return nil
	}
	out := make([]Record, 0, len(vs))
	for _, v := range vs {
		r, err := k.Encode(v)
		if err != nil {
			return err
		}
		out = append(out, r)
	}
	return rs.PutRecords(ctx, out)
}

// Get reads one value by id: ENOTFOUND when none of k's kinds holds it.
func Get[T any](ctx context.Context, rs RecordReader, k Kind[T], id string) (T, error) {
	var zero T
	if len(k.Members) == 0 {
		r, err := rs.GetRecord(ctx, k.Name, id)
		if err != nil {
			return zero, err
		}
		return k.Decode(r)
	}
	p, err := rs.FindRecords(ctx, RecordQuery{Kinds: k.Members, IDs: []string{id}, Limit: 1})
	if err != nil {
		return zero, err
	}
	if len(p.Records) == 0 {
		return zero, record.Errorf(record.ENOTFOUND, "no %s with id %q is held", k.Name, id)
	}
	return k.Decode(p.Records[0])
}

// Find reads a page of values; q.Kinds defaults to k's kinds and may only
// name them.
func Find[T any](ctx context.Context, rs RecordReader, k Kind[T], q RecordQuery) (Page[T], error) {
	if err := k.narrow(&q); err != nil {
		return Page[T]{}, err
	}
	p, err := rs.FindRecords(ctx, q)
	if err != nil {
		return Page[T]{}, err
	}
	out := Page[T]{Items: make([]T, 0, len(p.Records)), Records: p.Records, Total: p.Total, NextCursor: p.NextCursor, Scope: p.Scope}
	for _, r := range p.Records {
		v, err := k.Decode(r)
		if err != nil {
			return out, err
		}
		out.Items = append(out.Items, v)
	}
	return out, nil
}

// TotalsOf summarizes the values of a kind q matches (RecordTotals).
func TotalsOf[T any](ctx context.Context, rs RecordReader, k Kind[T], q RecordQuery, groupBy []string, size int) (Totals, error) {
	if err := k.narrow(&q); err != nil {
		return Totals{}, err
	}
	return rs.RecordTotals(ctx, q, groupBy, size)
}

// Delete removes values of a single-kind Kind by id.
func Delete[T any](ctx context.Context, rs Records, k Kind[T], ids []string) error {
	for _, kind := range k.Kinds() {
		if err := rs.DeleteRecords(ctx, kind, ids); err != nil {
			return err
		}
	}
	return nil
}

func (k Kind[T]) narrow(q *RecordQuery) error {
	if len(q.Kinds) == 0 {
		q.Kinds = k.Kinds()
		return nil
	}
	for _, kind := range q.Kinds {
		if !slices.Contains(k.Kinds(), kind) {
			return record.Invalid("kind", "%q is not a kind of %s", kind, k.Name)
		}
	}
	return nil
}

// DerivedFamily is the family of derived record kinds ("derived.…"):
// indexes the service builds from other records (notice vectors), not
// records of a source. Coverage lists, scopes and /stats leave them out
// (SourceCoverage); the engines hold them like any record.
const DerivedFamily = "derived"

// IsDerived reports whether kind is a derived kind.
func IsDerived(kind string) bool {
	family, _, ok := strings.Cut(kind, ".")
	return ok && family == DerivedFamily
}

// SourceCoverage is a record coverage without the derived kinds: what
// every list of sources held reads.
func SourceCoverage(cov []record.SourceCoverage) []record.SourceCoverage {
	return slices.DeleteFunc(slices.Clone(cov), func(c record.SourceCoverage) bool { return IsDerived(c.RecordType) })
}
