package mcp_test

import (
	"context"
	"time"

	"github.com/recordwatch/recordwatch/api/mcp"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/servicetest"
	"github.com/recordwatch/recordwatch/internal/view"
	"github.com/recordwatch/recordwatch/mailer"
)

// depsOver are the tools' dependencies with the service graph built once
// over be, as main.go builds it (the watch service is the caller's).
func depsOver(be search.Engine, cw *entity.Crosswalk, form int) *mcp.Deps {
	now := func() time.Time { return fixedNow }
	g := servicetest.New(be, cw, view.Links{Base: "http://rw.test", Form: form}, now)
	return &mcp.Deps{Search: be, Crosswalk: cw, BaseURL: "http://rw.test", Now: now, Version: "test",
		Procure: g.Procure, Dossiers: g.Dossiers, Semantic: g.Semantic, Land: g.Land, Meetings: g.Meetings, People: g.People,
		Federated: g.Federated, Notices: g.Notices}
}

// newMailer is a mailer over d with the watch service wired as main.go
// wires it.
func newMailer(ctx context.Context, cfg mailer.Config, d mailer.Deps) (*mailer.Mailer, error) {
	return servicetest.Mailer(ctx, cfg, d)
}
