package store

// Shares stores shared investigation snapshots (issue: shares and stats).
type Shares interface{}
