package api

import (
	"context"
	"time"

	"github.com/recordwatch/recordwatch/api/mcp"

	"github.com/recordwatch/recordwatch/internal/dossier"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/federated"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/semantic"
	"github.com/recordwatch/recordwatch/internal/view"
	"github.com/recordwatch/recordwatch/internal/watch"
	"github.com/recordwatch/recordwatch/mailer"
)

// mcpDepsOf are the MCP tools' dependencies over the same services, as
// main.go hands them to both surfaces.
func mcpDepsOf(d Deps, base string) *mcp.Deps {
	return &mcp.Deps{Search: d.Search, Crosswalk: d.Crosswalk, BaseURL: base, Now: d.Now, Version: "test", Watches: d.Watches,
		Semantic: d.Semantic, Procure: d.Procure, Dossiers: d.Dossiers, Land: d.Land, Meetings: d.Meetings, People: d.People,
		Federated: d.Federated}
}

// newServer is New with the topic services main.go builds, over d.Search
// (the tests' real embedded engine), for the ones d leaves empty.
func newServer(cfg Config, d Deps) *Server { return New(cfg, withServices(cfg, d)) }

func withServices(cfg Config, d Deps) Deps {
	if d.Search == nil {
		return d
	}
	now := d.Now
	if now == nil {
		now = time.Now
	}
	cw := d.Crosswalk
	if cw == nil {
		cw = entity.DefaultCrosswalk()
	}
	form := cfg.Form
	if form == 0 {
		form = 1
	}
	if d.Procure == nil {
		d.Procure = procure.New(d.Search, cw, now)
	}
	if d.People == nil {
		d.People = people.New(d.Search, cw)
	}
	if d.Dossiers == nil {
		d.Dossiers = dossier.New(d.Procure, d.People)
	}
	if d.Semantic == nil {
		d.Semantic = semantic.New(d.Search, now)
	}
	if d.Land == nil {
		d.Land = land.New(d.Search)
	}
	if d.Meetings == nil {
		d.Meetings = &meeting.Service{Records: d.Search, Notices: d.Search, Now: now}
	}
	if d.Federated == nil {
		d.Federated = federated.New(d.Search, cw, view.Links{Base: cfg.BaseURL, Form: form})
	}
	return d
}

// mailerDeps are d with the people and meeting services over d.Search, as
// main.go hands them to the mailer.
func mailerDeps(d mailer.Deps) mailer.Deps {
	now := d.Now
	if now == nil {
		now = time.Now
	}
	cw := d.Crosswalk
	if cw == nil {
		cw = entity.DefaultCrosswalk()
	}
	d.People = people.New(d.Search, cw)
	d.Meetings = &meeting.Service{Records: d.Search, Notices: d.Search, Now: now}
	return d
}

// newMailer is mailer.New with the services over d.Search and the watch
// service built over the mailer, as main.go wires them.
func newMailer(ctx context.Context, cfg mailer.Config, d mailer.Deps) (*mailer.Mailer, error) {
	d = mailerDeps(d)
	m, err := mailer.New(ctx, cfg, d)
	if err != nil {
		return nil, err
	}
	cw := d.Crosswalk
	if cw == nil {
		cw = entity.DefaultCrosswalk()
	}
	w, err := watch.NewService(m.WatchConfig(), watch.ServiceDeps{Store: d.Store,
		Readers: watch.Readers{Search: d.Search, People: d.People, Meetings: d.Meetings},
		Parse:   watch.ParseOptions{Crosswalk: cw}, Signer: m.Signer(), Sender: m.Sender(), Now: d.Now, Logger: d.Logger})
	if err != nil {
		return nil, err
	}
	m.SetWatches(w)
	return m, nil
}
