package api

import (
	"context"

	"github.com/recordwatch/recordwatch/api/mcp"
	"github.com/recordwatch/recordwatch/internal/servicetest"
	"github.com/recordwatch/recordwatch/internal/view"
	"github.com/recordwatch/recordwatch/mailer"
)

// newServer is New with the topic services main.go builds, over d.Search
// (the tests' real embedded engine), for the ones d leaves empty.
func newServer(cfg Config, d Deps) *Server { return New(cfg, withServices(cfg, d)) }

// withServices fills d's empty services from the one graph
// (servicetest.New) over d.Search.
func withServices(cfg Config, d Deps) Deps {
	if d.Search == nil {
		return d
	}
	form := cfg.Form
	if form == 0 {
		form = 1
	}
	g := servicetest.New(d.Search, d.Crosswalk, view.Links{Base: cfg.BaseURL, Form: form}, d.Now)
	setIfNil(&d.Procure, g.Procure)
	setIfNil(&d.Dossiers, g.Dossiers)
	setIfNil(&d.Semantic, g.Semantic)
	setIfNil(&d.Notices, g.Notices)
	setIfNil(&d.Land, g.Land)
	setIfNil(&d.Meetings, g.Meetings)
	setIfNil(&d.People, g.People)
	setIfNil(&d.Federated, g.Federated)
	return d
}

func setIfNil[T any](p **T, v *T) {
	if *p == nil {
		*p = v
	}
}

// mcpDepsOf are the MCP tools' dependencies over the same services, as
// main.go hands them to both surfaces.
func mcpDepsOf(d Deps, base string) *mcp.Deps {
	return &mcp.Deps{Search: d.Search, Crosswalk: d.Crosswalk, BaseURL: base, Now: d.Now, Version: "test", Watches: d.Watches,
		Notices: d.Notices, Semantic: d.Semantic, Procure: d.Procure, Dossiers: d.Dossiers, Land: d.Land, Meetings: d.Meetings, People: d.People,
		Federated: d.Federated}
}

// newMailer is a mailer over d with the watch service wired as main.go
// wires it (servicetest.Mailer).
func newMailer(ctx context.Context, cfg mailer.Config, d mailer.Deps) (*mailer.Mailer, error) {
	return servicetest.Mailer(ctx, cfg, d)
}
