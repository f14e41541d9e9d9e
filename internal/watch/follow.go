package watch

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/view"
)

// Kinds of object a watch can follow (issue 34, item 1): a City Record
// notice by request id, a procurement matter by PIN, a registered contract,
// a land project and a meeting record.
const (
	FollowNotice      = "notice"
	FollowMatter      = "matter"
	FollowContract    = "contract"
	FollowLandProject = "land_project"
	FollowMeeting     = "meeting"
)

// FollowKinds are the kinds a follow may name, in the order errors list
// them; FollowKindsForm2 those of the basic form (notices and the
// procurement matters their PINs form).
var (
	FollowKinds      = []string{FollowNotice, FollowMatter, FollowContract, FollowLandProject, FollowMeeting}
	FollowKindsForm2 = []string{FollowNotice, FollowMatter}
)

// Follow names the one object a watch follows instead of a search.
type Follow struct {
	Kind string `json:"kind"`
	ID   string `json:"id"`
}

// Check validates a follow for a form: a known kind (the basic form
// follows notices and matters only) and an id within the bounds of a name.
// Errors are EINVALID naming follow.kind or follow.id.
func (f Follow) Check(form int) (Follow, error) {
	f.Kind = strings.ToLower(strings.TrimSpace(f.Kind))
	f.ID = strings.TrimSpace(f.ID)
	kinds := FollowKinds
	if form == 2 {
		kinds = FollowKindsForm2
	}
	if !slices.Contains(kinds, f.Kind) {
		return f, record.InvalidNote("follow.kind", "watch.error.follow_kind", strings.Join(kinds, ", "))
	}
	if f.ID == "" {
		return f, record.InvalidNote("follow.id", "watch.error.follow_id", f.Kind)
	}
	if err := CheckText("follow.id", f.ID, false); err != nil {
		return f, err
	}
	if err := record.CheckInput("follow.id", f.ID); err != nil {
		return f, err
	}
	if f.Kind == FollowLandProject {
		f.ID = strings.ToUpper(f.ID)
	}
	return f, nil
}

// Lens is the lens a follow's object belongs to (the lens its watch's
// filter names, for the mails' links and the forms' lenses).
func (f Follow) Lens() string {
	switch f.Kind {
	case FollowLandProject:
		return record.LensLand
	case FollowMeeting:
		return record.LensMeetings
	}
	return record.LensMoney
}

// Noun is the object in words ("PIN 85619B0012", "land project 2021K0001").
func (f Follow) Noun() string {
	switch f.Kind {
	case FollowNotice:
		return "notice " + f.ID
	case FollowMatter:
		return "PIN " + f.ID
	case FollowContract:
		return "contract " + f.ID
	case FollowLandProject:
		return "land project " + f.ID
	}
	return "meeting " + f.ID
}

// NounPart is Noun in the reader's language (its id a record value).
func (f Follow) NounPart() record.Part {
	switch f.Kind {
	case FollowNotice, FollowMatter, FollowContract, FollowLandProject:
		return record.P("watch.noun."+f.Kind, f.ID)
	}
	return record.P("watch.noun.meeting", f.ID)
}

// Link is the object's page.
func (f Follow) Link(links view.Links) string {
	switch f.Kind {
	case FollowNotice:
		return links.Notice(f.ID)
	case FollowMatter:
		return links.Matter(f.ID)
	case FollowContract:
		return links.Base + "/contracts/" + url.PathEscape(f.ID)
	case FollowLandProject:
		return links.Base + "/land-projects/" + url.PathEscape(f.ID)
	}
	return meeting.Permalink(links.Base, f.ID)
}

// Field is one followed field of an object as last observed: a value in
// words, "" when the record states none (absent, never zero).
type Field struct {
	Name  string `json:"n"`
	Value string `json:"v,omitempty"`
}

// Snapshot is an object's followed fields as observed now.
type Snapshot struct {
	Title  string  `json:"title"`
	Link   string  `json:"link"`
	Fields []Field `json:"fields"`
}

// Change is one field that changed between two observations.
type Change struct {
	Field string `json:"field"`
	Old   string `json:"old,omitempty"`
	New   string `json:"new,omitempty"`
}

// String is the change as a mail states it: old → new, "(none)" for a
// value the record did not state.
func (c Change) String() string {
	show := func(s string) string {
		if s == "" {
			return "(none)"
		}
		return s
	}
	return c.Field + ": " + show(c.Old) + " → " + show(c.New)
}

// Diff lists the fields of now whose value differs from before, in now's
// order (then fields that are gone). A field before did not carry is a
// change from none.
func Diff(before, now []Field) []Change {
	old := map[string]string{}
	for _, f := range before {
		old[f.Name] = f.Value
	}
	var out []Change
	seen := map[string]bool{}
	for _, f := range now {
		seen[f.Name] = true
		if o := old[f.Name]; o != f.Value {
			out = append(out, Change{Field: f.Name, Old: o, New: f.Value})
		}
	}
	for _, f := range before {
		if !seen[f.Name] && f.Value != "" {
			out = append(out, Change{Field: f.Name, Old: f.Value})
		}
	}
	return out
}

// statusHeld and statusGone are the "status" field of an object the
// service holds, and of one it no longer holds (withdrawn at the source).
const (
	statusHeld = "held"
	statusGone = "no longer held (withdrawn or removed at the source)"
)

// Observe reads the followed fields of the object now. An object that
// is not held is ENOTFOUND (a follow starts only on a held object; a
// followed object that goes away is observed by Observed as withdrawn).
func (rd Readers) Observe(ctx context.Context, f Follow, links view.Links) (Snapshot, error) {
	switch f.Kind {
	case FollowNotice:
		return rd.observeNotice(ctx, f.ID, links)
	case FollowMatter:
		return rd.observeMatter(ctx, f.ID, links)
	case FollowContract:
		return rd.observeContract(ctx, f.ID, links)
	case FollowLandProject:
		return rd.observeLand(ctx, f.ID, links)
	case FollowMeeting:
		return rd.observeMeeting(ctx, f.ID, links)
	}
	return Snapshot{}, record.InvalidNote("follow.kind", "watch.error.follow_kind", strings.Join(FollowKinds, ", "))
}

// Observed is Observe for a watch already following: an object no longer
// held is its last snapshot with the status field saying so (a change),
// not an error.
func (rd Readers) Observed(ctx context.Context, f Follow, links view.Links, last []Field) (Snapshot, error) {
	s, err := rd.Observe(ctx, f, links)
	if err == nil || record.ErrorCode(err) != record.ENOTFOUND {
		return s, err
	}
	s = Snapshot{Title: f.Noun()}
	for _, fl := range last {
		if fl.Name == "status" {
			fl.Value = statusGone
		}
		s.Fields = append(s.Fields, fl)
	}
	return s, nil
}

func day(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.In(record.NewYork).Format("2006-01-02")
}

func dayTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	ny := t.In(record.NewYork)
	if ny.Hour() == 0 && ny.Minute() == 0 {
		return ny.Format("2006-01-02")
	}
	return ny.Format("2006-01-02 3:04 PM")
}

func amountOf(valid bool, v float64, raw string) string {
	if valid {
		return Dollars(v)
	}
	if raw != "" {
		return raw + " (not a valid amount)"
	}
	return ""
}

func (rd Readers) observeNotice(ctx context.Context, id string, links view.Links) (Snapshot, error) {
	n, err := rd.Search.Get(ctx, id)
	if err != nil {
		return Snapshot{}, err
	}
	due := day(n.DueDate)
	if due == "" && n.DueRolling {
		due = "rolling"
	}
	s := Snapshot{Title: n.Title, Link: Follow{Kind: FollowNotice, ID: n.RequestID}.Link(links), Fields: []Field{
		{"status", statusHeld},
		{"notice type", n.NoticeType},
		{"due date", due},
		{"amount", amountOf(n.AmountValid, n.Amount, n.AmountRaw)},
		{"vendor", n.VendorName},
		{"event date", dayTime(n.EventDate)},
		{"event place", n.EventPlace},
		{"documents", countOf(len(n.DocumentLinks), "document")},
	}}
	if n.PIN != "" && rd.Procure != nil {
		m, err := rd.Procure.Matter(ctx, n.PIN)
		if err == nil {
			s.Fields = append(s.Fields, matterFields(m)...)
		} else if record.ErrorCode(err) != record.ENOTFOUND {
			return Snapshot{}, err
		}
	}
	return s, nil
}

func countOf(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// matterFields are the followed fields of a procurement matter: its
// notices (a new one, an addendum), the latest award and its vendor, its
// registrations and payments.
func matterFields(m *procure.Matter) []Field {
	var notices []string
	award := ""
	for _, st := range m.Steps {
		if st.Notice == nil {
			continue
		}
		notices = append(notices, st.Notice.RequestID)
		if st.Step == "award" || st.Step == "intent" {
			award = strings.TrimSpace(st.Step + " to " + st.Notice.VendorName)
			if a := amountOf(st.Notice.AmountValid, st.Notice.Amount, ""); a != "" {
				award += ", " + a
			}
			award += " (" + day(st.Date) + ")"
		}
	}
	latest := ""
	if len(notices) > 0 {
		latest = notices[len(notices)-1]
	}
	fs := []Field{
		{"notices in the matter", countOf(len(notices), "notice")},
		{"latest notice in the matter", latest},
		{"award", award},
		{"registered contracts", countOf(m.Counts["contracts"], "contract")},
		{"payments", countOf(m.Counts["payments"], "payment")},
	}
	if m.Totals.Paid.Held() {
		fs = append(fs, Field{"paid", Dollars(m.Totals.Paid.Amount)})
	}
	return fs
}

func (rd Readers) observeMatter(ctx context.Context, pin string, links view.Links) (Snapshot, error) {
	if rd.Procure == nil {
		return Snapshot{}, record.Errorf(record.EUNAVAILABLE, "procurement matters cannot be read here")
	}
	m, err := rd.Procure.Matter(ctx, pin)
	if err != nil {
		return Snapshot{}, err
	}
	if len(m.Steps) == 0 {
		return Snapshot{}, record.Errorf(record.ENOTFOUND, "no record held carries PIN %q", pin)
	}
	s := Snapshot{Title: "Procurement matter PIN " + m.PIN, Link: Follow{Kind: FollowMatter, ID: m.PIN}.Link(links),
		Fields: append([]Field{{"status", statusHeld}}, matterFields(m)...)}
	return s, nil
}

func (rd Readers) observeContract(ctx context.Context, id string, links view.Links) (Snapshot, error) {
	if rd.Procure == nil {
		return Snapshot{}, record.Errorf(record.EUNAVAILABLE, "contracts cannot be read here")
	}
	c, err := rd.Procure.Contract(ctx, id)
	if err != nil {
		return Snapshot{}, err
	}
	k := c.Contract
	s := Snapshot{Title: strings.TrimSpace("Contract " + id + " " + k.VendorName), Link: Follow{Kind: FollowContract, ID: id}.Link(links),
		Fields: []Field{
			{"status", statusHeld},
			{"vendor", k.VendorName},
			{"registered amount", amountOf(k.AmountValid, k.Amount, k.AmountRaw)},
			{"registered on", day(k.RegisteredOn)},
			{"rows held (versions and amendments)", strconv.Itoa(c.RowsTotal)},
		}}
	if k.PIN != "" && rd.Procure != nil {
		m, err := rd.Procure.Matter(ctx, k.PIN)
		if err == nil {
			s.Fields = append(s.Fields, Field{"payments", countOf(m.Counts["payments"], "payment")})
			if m.Totals.Paid.Held() {
				s.Fields = append(s.Fields, Field{"paid", Dollars(m.Totals.Paid.Amount)})
			}
		} else if record.ErrorCode(err) != record.ENOTFOUND {
			return Snapshot{}, err
		}
	}
	return s, nil
}

func (rd Readers) observeLand(ctx context.Context, id string, links view.Links) (Snapshot, error) {
	if rd.Land == nil {
		return Snapshot{}, record.Errorf(record.EUNAVAILABLE, "land projects cannot be read here")
	}
	pr, err := rd.Land.Project(ctx, id)
	if err != nil {
		return Snapshot{}, err
	}
	it := LandItemFor(pr, links) // the land lens's reading: stage, milestone, decisions
	var hearing []string
	for _, r := range pr.Project.Recommendations {
		if !r.HearingDate.IsZero() {
			hearing = append(hearing, r.Body+" "+day(r.HearingDate))
		}
	}
	s := Snapshot{Title: it.Name, Link: it.Link, Fields: []Field{
		{"status", statusHeld},
		{"public status", pr.Project.PublicStatus},
		{"stage", it.Stage},
		{"milestone", it.Milestone},
		{"hearing dates", strings.Join(hearing, "; ")},
		{"votes and decisions", strings.Join(it.Decisions, "; ")},
	}}
	for _, h := range pr.Hearings {
		s.Fields = append(s.Fields, hearingField(h))
	}
	return s, nil
}

// hearingField is one hearing of a followed land project as a followed
// field: named for the hearing's body and record (stable while the record
// is), valued with its date, time, place, status and how to take part, so
// a hearing set reads (none) → its day, one moved old → new, one
// cancelled or held by its status, and one no longer listed new → (none).
func hearingField(h land.Hearing) Field {
	src := "meeting " + h.SourceID
	switch {
	case h.Notice != "": // the same name whichever record the hearing is read from
		src = "City Record notice " + h.Notice
	case h.SourceKind == record.RefLandEvent && strings.HasPrefix(h.ID, "meeting:"):
		// a Council item's hearing at a meeting: named for that meeting, as
		// when its meeting record is read (land.eventHearings)
		src = "meeting " + strings.TrimPrefix(h.ID, "meeting:")
	case h.SourceKind == record.RefLandEvent:
		src = "Council land-use item " + h.SourceID
	}
	when := h.WhenText()
	switch {
	case when == "":
		when = "date not stated"
	case h.Time == "":
		when += " (time not stated)"
	}
	place := h.Place
	if place == "" {
		place = "place not stated"
	}
	status := map[string]string{land.HearingScheduled: "scheduled", land.HearingCancelled: "cancelled", land.HearingHeld: "held",
		land.HearingPast: "the date has passed (whether it was held is not recorded)"}[h.Status]
	v := when + ", " + place + "; " + status
	if h.HowToTestify != "" {
		v += "; how to take part: " + h.HowToTestify
	}
	return Field{Name: "hearing: " + strings.TrimSpace(h.Body+" ("+src+")"), Value: v}
}

func (rd Readers) observeMeeting(ctx context.Context, id string, links view.Links) (Snapshot, error) {
	m, err := rd.Meetings.Get(ctx, id)
	if err != nil {
		return Snapshot{}, err
	}
	when := m.When.Date
	if m.When.Start != nil && m.When.StartKnown {
		when = m.When.Start.In(record.NewYork).Format("2006-01-02 3:04 PM")
	}
	notice := m.Notice.RequestID
	s := Snapshot{Title: m.Title, Link: Follow{Kind: FollowMeeting, ID: m.ID}.Link(links), Fields: []Field{
		{"status", statusHeld},
		{"date and time", when},
		{"place", m.Place.Text},
		{"held", m.Held.State},
		{"minutes", m.Minutes.State},
		{"City Record notice", notice},
	}}
	return s, nil
}

// followWords read a plain-English follow request: "follow PIN …",
// "follow notice …", "follow contract …", "follow meeting …", "tell me
// when project … changes".
var followWords = regexp.MustCompile(`(?i)^\s*(?:please\s+)?(?:follow|watch|track|tell me when(?: the)?|tell me about changes to(?: the)?)\s+` +
	`(pin|notice|request(?:\s+id)?|contract|(?:land(?:\s+use)?\s+)?project|meeting|matter)\s+(?:#\s*)?([A-Za-z0-9][A-Za-z0-9_.:/-]{0,199})` +
	`(?:\s+(?:changes|changes?\s+anything))?\s*[.!]?\s*$`)

// ParseFollow reads a plain-English request that names one object to
// follow ("follow PIN 85619B0012", "tell me when project 2021K0001
// changes"); ok is false when the text is not such a request.
func ParseFollow(text string) (Follow, bool) {
	m := followWords.FindStringSubmatch(text)
	if m == nil {
		return Follow{}, false
	}
	kind := strings.ToLower(strings.Join(strings.Fields(m[1]), " "))
	var f Follow
	switch {
	case kind == "pin" || kind == "matter":
		f.Kind = FollowMatter
	case strings.HasPrefix(kind, "notice") || strings.HasPrefix(kind, "request"):
		f.Kind = FollowNotice
	case kind == "contract":
		f.Kind = FollowContract
	case strings.HasSuffix(kind, "project"):
		f.Kind = FollowLandProject
	case kind == "meeting":
		f.Kind = FollowMeeting
	}
	f.ID = strings.TrimRight(m[2], ".:/-") // a sentence's full stop is not part of the id
	return f, f.Kind != ""
}

// FollowScope states a follow watch's scope, as its mails and manage page
// say it.
func FollowScope(f Follow, title string) string {
	s := "Changes to " + f.Noun()
	if title = strings.TrimSpace(title); title != "" {
		s += fmt.Sprintf(" (%s)", oneLineTitle(title))
	}
	return s
}

func oneLineTitle(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 120 {
		s = string(r[:119]) + "…"
	}
	return s
}

// understandFollow is how a plain-English follow request was read: the
// object, no search; its cadence note last (as Parse's).
func understandFollow(f Follow, form int, cadence string, cadNote record.Note) (Understanding, error) {
	f, err := f.Check(form)
	if err != nil {
		return Understanding{}, err
	}
	u := Understanding{Filter: Filter{Lens: f.Lens()}, Follow: &f, Scope: FollowScope(f, ""), Cadence: CadenceDaily}
	u.AddNote(withParts(record.N("watch.read.follow"), f.NounPart()))
	if cadence != "" {
		u.Cadence = cadence
		u.AddNote(cadNote)
	} else {
		u.AddNote(withParts(record.N("watch.read.follow_daily"), weekdayPart(WeeklyDay)))
	}
	return u, nil
}

// FollowView is a follow's object as observed now: what a preview shows
// (the baseline a watch would start from, with no mail for it).
type FollowView struct {
	Kind     string  `json:"kind"`
	ID       string  `json:"id"`
	Title    string  `json:"title"`
	Link     string  `json:"link"`
	Followed []Field `json:"followed_fields"`
}

// PreviewNote is what every follow preview says.
const PreviewNote = "A preview subscribes nothing. A follow watch mails when one of these fields changes (old → new), never for what they hold now."

// PreviewFollow checks a follow for a form and observes its object: the
// view, the follow as checked and its scope. Errors: EINVALID for a bad
// follow, ENOTFOUND for an object not held.
func (rd Readers) PreviewFollow(ctx context.Context, f Follow, form int, links view.Links) (FollowView, Follow, string, error) {
	f, err := f.Check(form)
	if err != nil {
		return FollowView{}, f, "", err
	}
	snap, err := rd.Observe(ctx, f, links)
	if err != nil {
		return FollowView{}, f, "", err
	}
	return FollowView{Kind: f.Kind, ID: f.ID, Title: snap.Title, Link: snap.Link, Followed: snap.Fields}, f, FollowScope(f, snap.Title), nil
}
