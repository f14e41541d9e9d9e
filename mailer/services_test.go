package mailer

import (
	"context"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/notices"
	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/semantic"
	"github.com/recordwatch/recordwatch/internal/view"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// withServices are d with the notices, people and meeting services over d.Search,
// as main.go hands them to the mailer.
func withServices(d Deps) Deps {
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
	d.Notices = notices.New(semantic.New(d.Search, now), watch.Readers{Search: d.Search, People: d.People, Meetings: d.Meetings,
		Procure: d.Procure, Land: d.Land}, view.Links{Form: 1}, now)
	return d
}

// newMailer is New with the people and meeting services over d.Search and
// the watch service built over the mailer, as main.go wires them.
func newMailer(ctx context.Context, cfg Config, d Deps) (*Mailer, error) {
	d = withServices(d)
	m, err := New(ctx, cfg, d)
	if err != nil {
		return nil, err
	}

	return m, nil
}
