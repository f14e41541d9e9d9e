// Package servicetest builds, for tests and the benchmark harness, the
// service graph main.go builds (buildServices): the same topic services
// over one engine, and a mailer with the watch service wired over it.
// Production code never imports it.
package servicetest

import (
	"context"
	"time"

	"github.com/recordwatch/recordwatch/internal/dossier"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/federated"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/notices"
	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/semantic"
	"github.com/recordwatch/recordwatch/internal/view"
	"github.com/recordwatch/recordwatch/internal/watch"
	"github.com/recordwatch/recordwatch/mailer"
)

// Graph is every topic service, built once over one engine.
type Graph struct {
	Notices   *notices.Service
	Semantic  *semantic.Service
	Procure   *procure.Service
	Dossiers  *dossier.Service
	Land      *land.Service
	Meetings  *meeting.Service
	People    *people.Service
	Federated *federated.Service
}

// New builds the graph over e (cw nil: the default crosswalk; now nil:
// time.Now); links are the deployment's permalink shapes.
func New(e search.Engine, cw *entity.Crosswalk, links view.Links, now func() time.Time) Graph {
	if cw == nil {
		cw = entity.DefaultCrosswalk()
	}
	if now == nil {
		now = time.Now
	}
	p := procure.New(e, cw, now)
	ppl := people.New(e, cw)
	g := Graph{Semantic: semantic.New(e, now), Procure: p, Dossiers: dossier.New(p, ppl), Land: &land.Service{Engine: e, Now: now},
		Meetings: &meeting.Service{Records: e, Notices: e, Now: now}, People: ppl, Federated: federated.New(e, cw, links, now)}
	g.Land.Meetings = g.Meetings
	g.Notices = notices.New(g.Semantic, watch.Readers{Search: e, People: ppl, Meetings: g.Meetings, Procure: p, Land: g.Land}, links, now)
	return g
}

// Mailer builds a mailer over d (its People, Meetings and Notices
// services over d.Search when unset); the mailer builds the watch service over its
// outbound side itself (mailer.New), as in main.go.
func Mailer(ctx context.Context, cfg mailer.Config, d mailer.Deps) (*mailer.Mailer, error) {
	cw := d.Crosswalk
	if cw == nil {
		cw = entity.DefaultCrosswalk()
	}
	now := d.Now
	if now == nil {
		now = time.Now
	}
	if d.People == nil {
		d.People = people.New(d.Search, cw)
	}
	if d.Meetings == nil {
		d.Meetings = &meeting.Service{Records: d.Search, Notices: d.Search, Now: now}
	}
	if d.Notices == nil {
		d.Notices = notices.New(semantic.New(d.Search, now), watch.Readers{Search: d.Search, People: d.People, Meetings: d.Meetings,
			Procure: d.Procure, Land: d.Land}, view.Links{Base: cfg.BaseURL, Form: cfg.Form}, now)
	}
	return mailer.New(ctx, cfg, d)
}
