// Package opensearch will hold the OpenSearch implementation of the state
// store (watches, shares, counters, rate-limit ceilings) for deployments
// whose roles run as separate processes.
//
// It is planned and not written yet: there is no store interface to
// implement at this point, and this package deliberately exports nothing, so
// nothing can mistake it for a working store. Until it exists, wire the
// embedded (bbolt) store, which needs all roles in one process.
package opensearch
