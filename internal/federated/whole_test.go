package federated

import "testing"

// The key collections read the query without its exclusions, quoted or not.
func TestWholeOf(t *testing.T) {
	for q, want := range map[string]string{
		`NYPD`:                           "NYPD",
		`"Older Adult Center"`:           "Older Adult Center",
		`NYPD -trailer`:                  "NYPD",
		`NYPD -"two horse" vans`:         "NYPD vans",
		`NYPD -"horse" vans`:             "NYPD vans",
		`-“two horse” Denville Painting`: "Denville Painting",
		`Skanska-Trevcon JV`:             "Skanska-Trevcon JV",
		`- lone dash`:                    "- lone dash",
	} {
		if got := wholeOf(q); got != want {
			t.Errorf("wholeOf(%q) = %q, want %q", q, got, want)
		}
	}
}
