package mcp_test

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
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/semantic"
	"github.com/recordwatch/recordwatch/internal/view"
	"github.com/recordwatch/recordwatch/internal/watch"
	"github.com/recordwatch/recordwatch/mailer"
)

// depsOver are the tools' dependencies with the service graph built once
// over be, as main.go builds it (the watch service is the caller's).
func depsOver(be search.Engine, cw *entity.Crosswalk, form int) *mcp.Deps {
	now := func() time.Time { return fixedNow }
	p := procure.New(be, cw, now)
	ppl := people.New(be, cw)
	return &mcp.Deps{Search: be, Crosswalk: cw, BaseURL: "http://rw.test", Now: now, Version: "test",
		Procure: p, Dossiers: dossier.New(p, ppl), Semantic: semantic.New(be, now), Land: land.New(be),
		Meetings: &meeting.Service{Records: be, Notices: be, Now: now}, People: ppl,
		Federated: federated.New(be, cw, view.Links{Base: "http://rw.test", Form: form})}
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
