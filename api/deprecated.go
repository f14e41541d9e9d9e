package api

// DeprecatedField is a published field of a JSON answer kept, beside the
// field that replaced it and with the same value, only so that readers of
// an older answer keep working (SPEC §9). It is never removed.
type DeprecatedField struct {
	// Route is the answer's route as the route table names it
	// ("GET /api/search/federated").
	Route string
	// Path is the field in the answer: dot-separated names, [] for the
	// items of an array ("lens_coverage[].lens").
	Path string
	// Use is the field to read instead, a path of the same answer.
	Use string
}

// Deprecated is the one registry of the JSON API's deprecated fields. The
// compatibility test (compat_test.go) checks that each is served by its
// route on the bundled sample and named, with "deprecated", in the change
// log of docs/api.md; the MCP tools mark the same fields deprecated: true
// in their output schemas (a struct tag, mcp.DeprecatedTag).
var Deprecated = []DeprecatedField{
	// 3f4dfd1 moved the watch request's filter into understood.filter.
	{Route: "GET /api/watches/preview", Path: "filter", Use: "understood.filter"},
	{Route: "POST /api/watches/preview", Path: "filter", Use: "understood.filter"},
	{Route: "POST /api/watches", Path: "filter", Use: "understood.filter"},
	// e12d6d9 renamed federated search's lenses to collections.
	{Route: "GET /api/search/federated", Path: "lens_coverage", Use: "collection_coverage"},
	{Route: "GET /api/search/federated", Path: "lens_coverage[].lens", Use: "collection_coverage[].collection"},
	{Route: "GET /api/search/federated", Path: "collection_coverage[].lens", Use: "collection_coverage[].collection"},
	{Route: "GET /api/search/federated", Path: "results[].lens", Use: "results[].collection"},
	{Route: "GET /api/search/federated", Path: "scope.searched.lenses", Use: "scope.searched.filters.collections"},
	// 7860451 renamed a contract's payments.ledger to registered_vs_paid.
	{Route: "GET /api/contracts/:id", Path: "payments.ledger", Use: "payments.registered_vs_paid"},
	// 2e146c7 and d5a07f2 renamed a contract's and a payroll row's
	// printed agency (agency_label) to agency_as_printed.
	{Route: "GET /api/contracts/:id", Path: "contract.agency_label", Use: "contract.agency_as_printed"},
	{Route: "GET /api/payroll", Path: "rows[].agency_label", Use: "rows[].agency_as_printed"},
	{Route: "GET /api/payroll/:id", Path: "row.agency_label", Use: "row.agency_as_printed"},
}
