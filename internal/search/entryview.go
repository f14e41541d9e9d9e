package search

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
)

// Entries are records of the family "entry": one record kind per entry
// kind ("entry.payment", "entry.payroll", "entry.lot"), the body a
// search.Entry, except contract entries: a registered contract row has one
// store, its contract record (ContractKind), which the entity views read
// as an entry (EntryOf) and write from one (ContractOf). The entity views
// read them through EntityView, which is written once over Records: no
// engine has an entry method.

// EntryFamily is the family name of the entry record kinds.
const EntryFamily = "entry"

// EntryRecordKind is the record kind an entry kind is stored as
// ("payment" → "entry.payment"; "contract" → "contract", ContractKind).
func EntryRecordKind(kind string) string {
	if kind == EntryContract {
		return ContractKind.Name
	}
	return EntryFamily + "." + kind
}

// LegacyContractEntryKind is the record kind contract entries were stored
// as beside their contract records before ContractKind became their one
// store. Nothing writes or reads it; a data directory that still holds
// such records has them deleted when the bundled sample is reloaded over
// it (DeleteLegacyContractEntries).
const LegacyContractEntryKind = EntryFamily + "." + EntryContract

// EntryKind is the typed kind of the entries stored as entries (every
// entry kind but contracts).
var EntryKind = Kind[Entry]{
	Name:    EntryFamily,
	Members: entryFamilyKinds(),
	Index:   entryRecord,
}

func entryFamilyKinds() []string {
	var out []string
	for _, k := range EntryKinds {
		if k != EntryContract {
			out = append(out, EntryRecordKind(k))
		}
	}
	return out
}

// entryStoreKinds are the record kinds entries are read from: the entry
// family and the contracts.
func entryStoreKinds() []string {
	out := make([]string, 0, len(EntryKinds))
	for _, k := range EntryKinds {
		out = append(out, EntryRecordKind(k))
	}
	return out
}

// EncodeEntry is the record an entry is stored as: a contract entry its
// contract record (ContractOf; its date must be a registration or a
// received date, the two a contract keeps), any other entry an entry
// record.
func EncodeEntry(e Entry) (Record, error) {
	if c, ok := ContractOf(e); ok {
		if !e.Date.IsZero() && e.DateLabel != dateRegistered && e.DateLabel != dateReceived {
			return Record{}, record.Invalid("date_label", "contract entry %s: a date must be labelled %q or %q, not %q",
				e.ID, dateRegistered, dateReceived, e.DateLabel)
		}
		return ContractKind.Encode(c)
	}
	return EntryKind.Encode(e)
}

// DecodeEntry is the entry a record of entryStoreKinds holds: a contract
// record read as its entry (EntryOf).
func DecodeEntry(r Record) (Entry, error) {
	if r.Kind == ContractKind.Name {
		c, err := ContractKind.Decode(r)
		if err != nil {
			return Entry{}, err
		}
		return EntryOf(c), nil
	}
	return EntryKind.Decode(r)
}

// DeleteLegacyContractEntries deletes every record of
// LegacyContractEntryKind (the second copy of contract rows an earlier
// layout wrote) and reports how many it deleted.
func DeleteLegacyContractEntries(ctx context.Context, rs Records) (int, error) {
	n := 0
	for {
		p, err := rs.FindRecords(ctx, RecordQuery{Kinds: []string{LegacyContractEntryKind}, Sort: RecordSortID, Limit: MaxRecordLimit})
		if err != nil {
			return n, err
		}
		if len(p.Records) == 0 {
			return n, nil
		}
		ids := make([]string, 0, len(p.Records))
		for _, r := range p.Records {
			ids = append(ids, r.ID)
		}
		if err := rs.DeleteRecords(ctx, LegacyContractEntryKind, ids); err != nil {
			return n, err
		}
		n += len(ids)
	}
}

// Entry keys: the exact-match fields entries are found and grouped by.
const (
	KeyAgencyRaw  = "agency_raw"
	KeyAgencyID   = "agency_id"
	KeyVendorStem = "vendor_stem"
	KeyContractID = "contract_id"
	// KeyPIN is the PIN in the form PINs are compared in
	// (entity.NormalizePIN), KeyPINBase its 10-character base.
	KeyPIN        = "pin_key"
	KeyPINBase    = "pin_base"
	KeyBBL        = "bbl"
	KeyRequestID  = "request_id"
	KeyStatus     = "status"
	KeyFiscalYear = "fiscal_year"
)

// entryRecord is the envelope of an entry. The PIN key is computed here,
// once, for every engine (entity.NormalizePIN); the base PIN is the
// source's (entity.PINBase in the normalizers).
func entryRecord(e Entry) Record {
	keys := map[string][]string{}
	set := func(k, v string) {
		if v != "" {
			keys[k] = []string{v}
		}
	}
	set(KeyAgencyRaw, e.AgencyRaw)
	set(KeyAgencyID, e.AgencyID)
	set(KeyVendorStem, e.VendorStem)
	set(KeyContractID, e.ContractID)
	set(KeyPIN, entity.NormalizePIN(e.PIN))
	set(KeyPINBase, e.PINBase)
	set(KeyBBL, e.BBL)
	set(KeyRequestID, e.RequestID)
	set(KeyStatus, e.Status)
	if e.FiscalYear != 0 {
		set(KeyFiscalYear, strconv.Itoa(e.FiscalYear))
	}
	r := Record{
		Kind: EntryRecordKind(e.Kind), ID: e.ID, Source: e.Source, SourceLabel: e.SourceLabel, ObservedAt: e.ObservedAt,
		Keys: keys, Date: e.Date, DateLabel: e.DateLabel, AmountValid: e.AmountValid, Title: e.Title,
	}
	if e.AmountValid {
		r.Amount = e.Amount
	}
	return r
}

// NoticeAggregates are the aggregations over notices the entity views
// need. They stay engine methods: they read the notice full-text index
// with the notice query's meaning (keywords, lenses …), which Records
// does not have.
type NoticeAggregates interface {
	// NoticeAgencyNames lists every distinct raw agency string of the
	// notices, per source, ordered by source then string.
	NoticeAgencyNames(ctx context.Context) ([]AgencyName, error)
	// NoticeTotals summarizes the notices q matches (its paging, sort and
	// facets are ignored), grouped by each of groupBy, keeping the top
	// size buckets per grouping.
	NoticeTotals(ctx context.Context, q Query, groupBy []string, size int) (Totals, error)
}

// EntityEngine is what the entity views need of an engine: Records, the
// notice aggregations and the notice coverage. Both engines are one.
type EntityEngine interface {
	Records
	NoticeAggregates
	CoverageReader
}

// EntityView is the entity reader and writer (EntityBackend) over an
// engine's Records and notice aggregations, written once for every
// engine. Entry queries become record queries here: PINs are normalized
// (entity.NormalizePIN) once, on this side, and matched as keys.
type EntityView struct {
	Records Records
	Notices interface {
		NoticeAggregates
		CoverageReader
	}
}

var _ EntityBackend = EntityView{}

// View is the entity view of an engine.
func View(e EntityEngine) EntityView { return EntityView{Records: e, Notices: e} }

// Entities is the entity reader and writer of a backend: the backend
// itself when it is one already (a wrapper), the EntityView of an
// EntityEngine otherwise; ok is false for a backend that holds no records.
func Entities(b any) (EntityBackend, bool) {
	if eb, ok := b.(EntityBackend); ok {
		return eb, true
	}
	if e, ok := b.(EntityEngine); ok {
		return View(e), true
	}
	return nil, false
}

// Scope is the scope of an entity view: what was searched, the notice and
// record coverage, the matched count (WithScope).
func (v EntityView) Scope(ctx context.Context, searched record.Searched, matched int) (record.Scope, error) {
	return WithScope(v.Records, v.Notices).Scope(ctx, searched, matched)
}

// UpsertEntries writes entries in one PutRecords call, each as
// EncodeEntry stores it (a contract entry as its contract record); an
// entry with an id already held replaces it.
func (v EntityView) UpsertEntries(ctx context.Context, entries []Entry) error {
	if len(entries) == 0 {
		return nil
	}
	out := make([]Record, 0, len(entries))
	for _, e := range entries {
		if e.ID == "" || e.Source == "" || e.Kind == "" {
			return record.Invalid("id", "an entry needs an id, a source and a kind")
		}
		if !slices.Contains(EntryKinds, e.Kind) {
			return record.Invalid("kind", "unknown entry kind %q; kinds: %s", e.Kind, strings.Join(EntryKinds, ", "))
		}
		r, err := EncodeEntry(e)
		if err != nil {
			return err
		}
		out = append(out, r)
	}
	return v.Records.PutRecords(ctx, out)
}

// DeleteEntries removes entries by id, whatever their kind: a contract
// row's one record (ContractKind), so a deleted contract row is neither
// browsed nor analysed nor counted in coverage, and any copy an earlier
// layout held (LegacyContractEntryKind).
func (v EntityView) DeleteEntries(ctx context.Context, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	for _, kind := range append(entryStoreKinds(), LegacyContractEntryKind) {
		if err := v.Records.DeleteRecords(ctx, kind, ids); err != nil {
			return err
		}
	}
	return nil
}

// recordQuery is the record query of an entry query; ok is false when it
// can match nothing (only unknown kinds asked for).
func (q EntryQuery) recordQuery() (RecordQuery, bool) {
	rq := RecordQuery{Sources: q.Sources, IDs: q.IDs, Sort: RecordSortDate, Limit: q.Limit, Cursor: q.Cursor}
	if len(q.Kinds) == 0 {
		rq.Kinds = entryStoreKinds()
	}
	for _, k := range q.Kinds {
		if slices.Contains(EntryKinds, k) {
			rq.Kinds = append(rq.Kinds, EntryRecordKind(k))
		}
	}
	if len(rq.Kinds) == 0 {
		return rq, false
	}
	keys := map[string][]string{}
	set := func(k string, vs []string) {
		if len(vs) > 0 {
			keys[k] = vs
		}
	}
	if len(q.PINs) > 0 {
		pins := make([]string, 0, len(q.PINs))
		for _, p := range q.PINs {
			pins = append(pins, entity.NormalizePIN(p))
		}
		keys[KeyPIN] = pins
	}
	set(KeyPINBase, q.PINBases)
	set(KeyContractID, q.ContractIDs)
	set(KeyVendorStem, q.VendorStems)
	set(KeyAgencyID, q.AgencyIDs)
	set(KeyBBL, q.BBLs)
	if len(keys) > 0 {
		rq.Keys = keys
	}
	return rq, true
}

// Entries reads a page of entries (by date, oldest first, undated last,
// then id) and, when asked, totals by kind and fiscal year. A contract
// entry is ordered by its contract record's date, the registration date:
// a pending row keeps its received date (Date, DateLabel "received") but
// is ordered with the undated rows.
func (v EntityView) Entries(ctx context.Context, q EntryQuery) (EntryResult, error) {
	if err := q.Normalize(); err != nil {
		return EntryResult{}, err
	}
	rq, ok := q.recordQuery()
	if !ok {
		if q.Cursor != "" {
			if _, err := DecodeCursor(rq.CursorSort(), q.Cursor); err != nil {
				return EntryResult{}, err
			}
		}
		out := EntryResult{Entries: []Entry{}}
		if q.Totals {
			out.Totals = []EntryTotal{}
		}
		return out, nil
	}
	p, err := v.Records.FindRecords(ctx, rq)
	if err != nil {
		return EntryResult{}, err
	}
	out := EntryResult{Entries: make([]Entry, 0, len(p.Records)), Total: p.Total, NextCursor: p.NextCursor}
	for _, r := range p.Records {
		e, err := DecodeEntry(r)
		if err != nil {
			return out, err
		}
		out.Entries = append(out.Entries, e)
	}
	if q.Totals {
		if out.Totals, err = v.entryTotals(ctx, rq); err != nil {
			return out, err
		}
	}
	return out, nil
}

// entryTotals counts and sums valid amounts by kind and fiscal year (0:
// entries without one), one RecordTotals per kind grouped by the
// fiscal_year key.
func (v EntityView) entryTotals(ctx context.Context, rq RecordQuery) ([]EntryTotal, error) {
	out := []EntryTotal{}
	for _, kind := range rq.Kinds {
		q := rq
		q.Kinds = []string{kind}
		t, err := v.Records.RecordTotals(ctx, q, []string{KeyFiscalYear}, 0)
		if err != nil {
			return nil, err
		}
		if t.Count == 0 {
			continue
		}
		rest := EntryTotal{Kind: ScopeType(kind), Count: t.Count, ValidAmounts: t.ValidAmounts, Amount: t.Amount}
		for _, b := range t.Groups[KeyFiscalYear] {
			fy, err := strconv.Atoi(b.Value)
			if err != nil {
				continue // not a year: counted with the undated
			}
			out = append(out, EntryTotal{Kind: rest.Kind, FiscalYear: fy, Count: b.Count, ValidAmounts: b.ValidAmounts, Amount: b.Amount})
			rest.Count -= b.Count
			rest.ValidAmounts -= b.ValidAmounts
			rest.Amount -= b.Amount
		}
		if rest.Count > 0 {
			rest.Amount = RoundCents(rest.Amount)
			out = append(out, rest)
		}
	}
	SortEntryTotals(out)
	return out, nil
}

// EntryCoverage reports, per source and entry kind, the entries held, their
// first and last dates and the latest observation.
func (v EntityView) EntryCoverage(ctx context.Context) ([]record.SourceCoverage, error) {
	cov, err := v.Records.RecordCoverage(ctx)
	if err != nil {
		return nil, err
	}
	out := []record.SourceCoverage{}
	for _, c := range cov {
		if slices.Contains(entryStoreKinds(), c.RecordType) {
			c.RecordType = ScopeType(c.RecordType)
			out = append(out, c)
		}
	}
	SortRecordCoverage(out)
	return out, nil
}

// AgencyNames lists every distinct raw agency string of the notices and
// the entries, per source, ordered by source then string.
func (v EntityView) AgencyNames(ctx context.Context) ([]AgencyName, error) {
	out, err := v.Notices.NoticeAgencyNames(ctx)
	if err != nil {
		return nil, err
	}
	out = slices.Clone(out)
	cov, err := v.EntryCoverage(ctx)
	if err != nil {
		return nil, err
	}
	var sources []string
	for _, c := range cov {
		if !slices.Contains(sources, c.Source) {
			sources = append(sources, c.Source)
		}
	}
	for _, src := range sources {
		t, err := v.Records.RecordTotals(ctx, RecordQuery{Kinds: entryStoreKinds(), Sources: []string{src}}, []string{KeyAgencyRaw}, 0)
		if err != nil {
			return nil, err
		}
		for _, b := range t.Groups[KeyAgencyRaw] {
			out = append(out, AgencyName{Raw: b.Value, Source: src, Records: b.Count})
		}
	}
	SortAgencyNames(out)
	return out, nil
}

// NoticeTotals summarizes notices (the engine's NoticeAggregates).
func (v EntityView) NoticeTotals(ctx context.Context, q Query, groupBy []string, size int) (Totals, error) {
	return v.Notices.NoticeTotals(ctx, q, groupBy, size)
}
