package view

import (
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
)

// LinkedHit is one notice in a result list with every address of the
// notice: what the JSON API lists, and what a procurement matter's notice
// step holds.
type LinkedHit struct {
	NoticeHit
	Links NoticeLinks `json:"links"`
}

// LinkedHit is a notice as a result with its addresses.
func (l Links) LinkedHit(n record.Notice, score float64, now time.Time) LinkedHit {
	return LinkedHit{NoticeHit: l.Hit(n, score, now), Links: l.ForNotice(n)}
}
