package search

import (
	"context"
)

// Record keys shared by kinds: the exact-match fields records are found
// and grouped by. A kind's own keys are declared beside its Kind.
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
