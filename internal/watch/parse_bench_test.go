package watch

import (
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
)

// parseBenchInputs are worst cases for the parser: many short words, many
// digits, long runs of window and amount phrases, and requests at the
// length limit.
func parseBenchInputs() map[string]string {
	fill := func(unit string) string {
		var b strings.Builder
		for b.Len()+len(unit) <= record.MaxRequestTextLen {
			b.WriteString(unit)
		}
		return b.String()
	}
	return map[string]string{
		"short-words-280":  strings.Repeat("a ", 140),
		"short-words-max":  fill("a "),
		"digits-max":       fill("1 "),
		"long-digits-max":  fill("1234567 "),
		"amounts-max":      fill("over $5m "),
		"ranges-max":       fill("between $1k and $2m "),
		"windows-max":      fill("due in the next 3 months "),
		"calendar-max":     fill("by the end of this year "),
		"years-max":        fill("in 2026 "),
		"cadence-max":      fill("every monday "),
		"capitalized-max":  fill("Parks Inc "),
		"agency-words-max": fill("department of "),
		"exclusions-max":   fill("not snow "),
		"requirements-max": fill("minority and women "),
		"mixed-max":        fill("Parks construction awards over $1 million in Queens, not snow removal; "),
		"quotes-max":       fill(`"a" -"b" `),
		"no-spaces-max":    strings.Repeat("a", record.MaxRequestTextLen),
		"dollar-signs-max": strings.Repeat("$", record.MaxRequestTextLen),
		"digit-run-max":    strings.Repeat("9", record.MaxRequestTextLen),
		"comma-digits-max": fill("1,"),
		"hyphen-words-max": fill("-a "),
		"next-numbers-max": fill("next 12 days "),
	}
}

func BenchmarkParse(b *testing.B) {
	cw := entity.DefaultCrosswalk()
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	for name, text := range parseBenchInputs() {
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				Parse(text, ParseOptions{Crosswalk: cw, Form: 1, Now: now})
			}
		})
	}
}
