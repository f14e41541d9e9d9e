package mcp

import (
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/view"
)

// NoticeRef is a notice in a tool result: the service's answer with the
// route of its JSON twin.
type NoticeRef struct {
	view.NoticeHit
	Route string `json:"route"`
}

// ref is a notice in a tool result, without a score (runMode adds a
// search hit's).
func (d *Deps) ref(n record.Notice) NoticeRef {
	return NoticeRef{NoticeHit: view.Links{Base: d.BaseURL}.Hit(n, 0, d.now()), Route: "/api/notices/" + n.RequestID}
}
