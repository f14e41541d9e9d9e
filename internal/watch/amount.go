package watch

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/recordwatch/recordwatch/internal/record"
)

// ParseDollars reads an amount in dollars as people write it: 500000,
// $500,000, 500k, 1.5m, 2b (the one rule of the API's amount parameters
// and of a watch request's min and max).
func ParseDollars(s string) (float64, error) {
	s = strings.ToLower(strings.NewReplacer("$", "", ",", "", " ", "").Replace(s))
	mult := 1.0
	switch {
	case strings.HasSuffix(s, "k"):
		mult, s = 1e3, strings.TrimSuffix(s, "k")
	case strings.HasSuffix(s, "m"):
		mult, s = 1e6, strings.TrimSuffix(s, "m")
	case strings.HasSuffix(s, "b"):
		mult, s = 1e9, strings.TrimSuffix(s, "b")
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 || v != v || v > 1e15 {
		return 0, strconv.ErrSyntax
	}
	return v * mult, nil
}

// Amount is a request's amount in dollars (FieldRequest min and max): a
// JSON number, or a string ParseDollars reads ("500k", "$1,500,000",
// "1.5m"); it is written as a number. Anything else reads as NaN, which
// Dollars refuses naming the field, so that the error says which amount is
// wrong.
type Amount float64

// UnmarshalJSON reads a number or a string of dollars; anything else is
// NaN (refused by Dollars).
func (a *Amount) UnmarshalJSON(b []byte) error {
	var v float64
	if err := json.Unmarshal(b, &v); err == nil {
		*a = Amount(v)
		return nil
	}
	var s string
	if json.Unmarshal(b, &s) == nil {
		*a = *ParseAmount(s)
		return nil
	}
	*a = Amount(math.NaN())
	return nil
}

// ParseAmount is the amount s states (ParseDollars), NaN when it states
// none (refused by Dollars).
func ParseAmount(s string) *Amount {
	a := Amount(math.NaN())
	if v, err := ParseDollars(s); err == nil {
		a = Amount(v)
	}
	return &a
}

// AmountOf is v as a request's amount (nil for none).
func AmountOf(v *float64) *Amount {
	if v == nil {
		return nil
	}
	a := Amount(*v)
	return &a
}

// Dollars is a's value (nil for none); EINVALID naming the field when a
// was not an amount.
func (a *Amount) Dollars(name string) (*float64, error) {
	if a == nil {
		return nil, nil
	}
	v := float64(*a)
	if math.IsNaN(v) {
		return nil, record.InvalidNote(name, "watch.error.amount", name)
	}
	return &v, nil
}
