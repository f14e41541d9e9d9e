package search

import (
	"errors"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
)

// Days the engines cannot represent are bad input, named by parameter,
// whichever surface built the query.
func TestNormalizeRefusesDaysOutOfRange(t *testing.T) {
	old := time.Date(1600, 1, 1, 0, 0, 0, 0, record.NewYork)
	late := time.Date(2300, 1, 1, 0, 0, 0, 0, record.NewYork)
	for param, set := range map[string]func(q *Query){
		"from":       func(q *Query) { q.From = old },
		"to":         func(q *Query) { q.To = late },
		"due_from":   func(q *Query) { q.DueFrom = old },
		"due_to":     func(q *Query) { q.DueTo = late },
		"event_from": func(q *Query) { q.EventFrom = late },
		"event_to":   func(q *Query) { q.EventTo = old },
	} {
		var q Query
		set(&q)
		_, err := q.Normalize()
		var re *record.Error
		if !errors.As(err, &re) || re.Code != record.EINVALID || re.Param != param {
			t.Errorf("%s: err = %v", param, err)
		}
	}
	for param, pq := range map[string]PassageQuery{"from": {From: old}, "to": {To: late}} {
		_, err := pq.Normalize()
		var re *record.Error
		if !errors.As(err, &re) || re.Code != record.EINVALID || re.Param != param {
			t.Errorf("passages %s: err = %v", param, err)
		}
	}
	in := time.Date(2024, 5, 1, 0, 0, 0, 0, record.NewYork)
	q := Query{From: in, To: in, DueFrom: in, DueTo: in, EventFrom: in, EventTo: in}
	if _, err := q.Normalize(); err != nil {
		t.Errorf("in-range days: %v", err)
	}
}
