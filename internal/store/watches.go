package store

// Watches stores standing email watches (issue: watches and mail).
type Watches interface{}
