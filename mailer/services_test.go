package mailer

import (
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/people"
)

// withServices are d with the people and meeting services over d.Search,
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
	return d
}
