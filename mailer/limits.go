package mailer

import (
	"time"

	"github.com/recordwatch/recordwatch/internal/watch"
)

// The subscription lifecycle and its ceilings live in internal/watch
// (watch.Service); these names remain for the mailer's callers and tests.
type (
	Request    = watch.Request
	Outcome    = watch.Outcome
	Managed    = watch.Managed
	LimitError = watch.LimitError
)

const (
	ChannelWeb     = watch.ChannelWeb
	ChannelMCP     = watch.ChannelMCP
	ChannelMail    = watch.ChannelMail
	CeilingClient  = watch.CeilingClient
	CeilingAddress = watch.CeilingAddress
	CeilingAll     = watch.CeilingAll
)

var (
	ErrBadLink  = watch.ErrBadLink
	ErrUsedLink = watch.ErrUsedLink
)

// ResetAt reports when the ceiling that refused err resets.
func ResetAt(err error) (time.Time, bool) { return watch.ResetAt(err) }

// AddressKey is watch.AddressKey.
func AddressKey(addr string) string { return watch.AddressKey(addr) }
