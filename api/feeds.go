package api

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/feed"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/notices"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/store"
	"github.com/recordwatch/recordwatch/internal/view"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// MaxFeedKeywords is SPEC §8's limit on a feed's q: words, quoted phrases
// and exclusions together.
const MaxFeedKeywords = 4

// feedParams are the parameters all three feed formats accept (SPEC §4.1).
var feedParams = []string{"lens", "q", "agency", "min", "kind", "name", "borough", "community_district", "procedure", "stage", "action"}

// feedLenses are the lenses a feed follows in every form; Form 1 adds
// the people lens (SPEC §2.13).
var feedLenses = []string{record.LensMoney, record.LensLand, record.LensProperty, record.LensRules,
	record.LensMeetings, watch.LensEntity}

// lenses are the feed lenses of this deployment's form.
func (s *Server) lenses() []string {
	if s.cfg.Form == 1 {
		return append(slices.Clone(feedLenses), record.LensPeople)
	}
	return feedLenses
}

// Entity kinds of the entity lens.
const (
	entityVendor = "vendor"
	entityAgency = "agency"
)

// feedFormat is one of the three renderings.
type feedFormat int

const (
	formatAtom feedFormat = iota
	formatJSON
	formatICS
	numFormats
)

var formatContentType = [numFormats]string{feed.ContentTypeAtom, feed.ContentTypeJSON, feed.ContentTypeICS}

// feedRoutes mounts this file's routes: the three feed formats and the
// digest link redirect.
func (s *Server) feedRoutes(r *gin.Engine) {
	fc := newFeedCache(cacheFeeds.maxAge(), feedCacheSize, s.deps.Now)
	g := r.Group("", s.rateLimit())
	for path, format := range map[string]feedFormat{"/feed.xml": formatAtom, "/feed.json": formatJSON, "/feed.ics": formatICS} {
		g.GET(path, s.serveFeed(fc, format))
		g.HEAD(path, s.serveFeed(fc, format)) // feed readers check with HEAD
	}
	g.GET("/r/*link", s.digestRedirect) // /r/<kind>/<request_id>
}

// feedRequest is a parsed, validated feed request.
type feedRequest struct {
	filter watch.Filter
	// canon is the normalized parameter set: the cache key and the query of
	// the feed's own URLs. Equivalent requests have the same canon.
	canon url.Values
	// agency and entity names, for titles.
	agencyName string
	entityKind string
	entityName string
}

// key identifies the feed in the response cache.
func (fr feedRequest) key() string { return fr.canon.Encode() }

// parseFeed reads and validates feed parameters. Unknown parameters,
// repeated ones, more than four keywords and contradictory combinations are
// EINVALID errors naming the parameter at fault.
func (s *Server) parseFeed(v url.Values) (feedRequest, error) {
	var fr feedRequest
	p := newParams(v, feedParams...)
	lens := strings.ToLower(p.str("lens"))
	text := p.str("q")
	agency := p.str("agency")
	minAmount := p.amount("min")
	kind := strings.ToLower(p.str("kind"))
	name := p.str("name")
	landFilters := map[string]string{} // the land lens's project filters (feedsLand)
	for _, k := range []string{"borough", "community_district", "procedure", "stage", "action"} {
		if v := p.str(k); v != "" {
			landFilters[k] = v
		}
	}
	if p.err != nil {
		return fr, p.err
	}
	if lens == "" {
		if kind == "" && name == "" {
			return fr, record.Invalid("lens", "lens is required: one of %s", strings.Join(s.lenses(), ", "))
		}
		lens = watch.LensEntity // kind and name name an entity
	}
	if !slices.Contains(s.lenses(), lens) {
		return fr, record.Invalid("lens", "unknown lens %q; a feed follows one of %s", lens, strings.Join(s.lenses(), ", "))
	}
	k, err := search.ParseKeywords(text)
	if err != nil {
		return fr, err
	}
	if n := k.Count(); n > MaxFeedKeywords {
		return fr, record.Invalid("q", "a feed takes at most %d keywords in q (a quoted phrase or an -exclusion counts as one); %d were given",
			MaxFeedKeywords, n)
	}
	if minAmount != nil && lens != record.LensMoney {
		return fr, record.Invalid("min", "min (a minimum award amount) applies to the money lens only, not to lens=%s", lens)
	}
	f := watch.Filter{Lens: lens, AnyOf: k.Terms, Phrases: k.Phrases, Exclude: k.Excluded, MinAmount: minAmount}
	canon := url.Values{"lens": {lens}}
	if t := f.Text(); t != "" {
		canon.Set("q", t)
	}
	if minAmount != nil {
		canon.Set("min", strconv.FormatFloat(*minAmount, 'f', -1, 64))
	}
	if lens == watch.LensEntity {
		switch {
		case agency != "":
			return fr, record.Invalid("agency", "the entity lens follows one entity: give an agency as kind=agency&name=…, not agency=")
		case kind == "":
			return fr, record.Invalid("kind", "the entity lens needs kind (vendor or agency) and name")
		case kind != entityVendor && kind != entityAgency:
			return fr, record.Invalid("kind", "kind must be vendor or agency, not %q", kind)
		case name == "":
			return fr, record.Invalid("name", "the entity lens needs the name of the %s", kind)
		}
		fr.entityKind = kind
		if kind == entityVendor {
			stem := entity.VendorStem(name)
			if !entity.StemLongEnough(stem) {
				return fr, record.Invalid("name", "vendor %q is too short to match by name stem (%d characters at least)", name, entity.MinStemChars)
			}
			f.Vendors = []string{stem}
			fr.entityName = stem
			canon.Set("name", stem)
		} else {
			ids, display, err := s.resolveAgency("name", name)
			if err != nil {
				return fr, err
			}
			f.AgencyIDs = ids
			fr.entityName = display
			canon["name"] = ids
		}
		canon.Set("kind", kind)
	} else {
		if kind != "" {
			return fr, record.Invalid("kind", "kind and name belong to the entity lens (lens=entity), not to lens=%s", lens)
		}
		if name != "" {
			return fr, record.Invalid("name", "kind and name belong to the entity lens (lens=entity), not to lens=%s", lens)
		}
		if agency != "" {
			ids, display, err := s.resolveAgency("agency", agency)
			if err != nil {
				return fr, err
			}
			f.AgencyIDs = ids
			fr.agencyName = display
			canon["agency"] = ids
		}
	}
	if err := landFeedFilters(&f, canon, landFilters); err != nil {
		return fr, err
	}
	if err := f.Validate(); err != nil {
		return fr, err
	}
	fr.filter, fr.canon = f, canon
	return fr, nil
}

// resolveAgency resolves an agency through the one agency rule
// (entity.ResolveName), as /api/search does; it returns the ids and a
// display name (the id when the input was one).
func (s *Server) resolveAgency(param, raw string) (ids []string, display string, err error) {
	r, err := s.deps.Crosswalk.ResolveName(param, raw)
	if err != nil {
		return nil, "", err
	}
	if r.Method == entity.MethodID || r.Method == entity.MethodOwn {
		return r.IDs, r.IDs[0], nil
	}
	return r.IDs, r.Name, nil
}

// feedURLs are the feed's own addresses in the three formats.
func (s *Server) feedURLs(canon url.Values) feed.Links {
	q := canon.Encode()
	return feed.Links{
		Atom: s.cfg.BaseURL + "/feed.xml?" + q,
		JSON: s.cfg.BaseURL + "/feed.json?" + q,
		ICS:  s.cfg.BaseURL + "/feed.ics?" + q,
	}
}

// serveFeed answers one format: parse, then the cached rendering or one
// backend call, then render with cache headers (304 on a matching
// conditional request).
func (s *Server) serveFeed(fc *feedCache, format feedFormat) gin.HandlerFunc {
	return func(c *gin.Context) {
		fr, err := s.parseFeed(c.Request.URL.Query())
		if err != nil {
			writeError(c, err)
			return
		}
		// a write through this process rebuilds the feed at its next
		// request (the engine's generation)
		key := fr.key() + "@" + strconv.FormatUint(s.deps.Search.Generation(), 10)
		ent, err := fc.get(c.Request.Context(), key, func(ctx context.Context) (ent *feedEntry, err error) {
			// a feed built cold is expensive; one from the cache is not
			err = s.inSlot(ctx, func() error {
				ent, err = s.buildFeed(ctx, fr)
				return err
			})
			return ent, err
		})
		if err != nil {
			writeError(c, err)
			return
		}
		if age := s.deps.Now().Sub(ent.built); age > 0 {
			c.Header("Age", strconv.Itoa(int(age.Seconds())))
		}
		s.countEvent(c.Request.Context(), store.CounterFeedRequest, 1)
		renderTagged(c, http.StatusOK, formatContentType[format], ent.bodies[format], ent.etags[format], cacheFeeds, ent.lastModified)
	}
}

// buildFeed runs the filter through watch's one code path (Compile, the
// search, Keep: what a preview and a digest run) and renders all three
// formats.
func (s *Server) buildFeed(ctx context.Context, fr feedRequest) (*feedEntry, error) {
	now := s.deps.Now()
	// the filter's one answer (notices.Service.Filter): what a preview
	// shows and a watch's digests deliver; a feed lists more meeting records
	o := s.answerOptions()
	o.Meetings = maxFeedMeetings
	a, err := s.deps.Notices.Filter(ctx, fr.filter, o)
	if err != nil {
		return nil, err
	}
	f := s.feedOf(fr, a.FilterResult, now, a.Meetings)
	f.Items = append(f.Items, s.landItems(a.Land)...) // land projects' milestones (land lens, Form 1)
	f.Scope.Items = len(f.Items)
	if len(f.Items) == 0 {
		// an empty feed says why, and the nearest search that holds something
		if f.Scope.AbsenceNote != "" {
			f.Description += " Empty: " + f.Scope.AbsenceNote
		}
		if a.Widening != nil {
			f.Scope.Widening = a.Widening.Note
			f.Description += " " + a.Widening.Note
		}
	}
	ent := &feedEntry{built: now, lastModified: f.Updated}
	ent.bodies[formatAtom] = feed.Atom(f)
	if ent.bodies[formatJSON], err = feed.JSON(f); err != nil {
		return nil, err
	}
	ent.bodies[formatICS] = feed.ICS(s.calendar(ctx, fr.key(), f)) // revised: SEQUENCE, LAST-MODIFIED, cancelled events
	for i, b := range ent.bodies {
		ent.etags[i] = etagOf(b)
	}
	return ent, nil
}

// feedOf assembles the feed of a search result; ml, when set, is the
// meetings lens over it: its meeting records become items by
// meeting.FeedItem (the rule of /meetings.ics), merged with the notices
// not held as meetings, soonest first.
func (s *Server) feedOf(fr feedRequest, res notices.FilterResult, now time.Time, ml *notices.MeetingLens) feed.Feed {
	q := res.Query
	host := s.tagHost()
	canonQuery := fr.canon.Encode()
	covers := s.feedCovers(fr, ml)
	f := feed.Feed{
		ID:        tagURI(host, "feed?"+canonQuery),
		Title:     "Recordwatch: " + s.feedTitle(fr),
		HomeURL:   s.feedHomeURL(fr, q),
		Self:      s.feedURLs(fr.canon),
		Updated:   feedUpdated(fr, res.Scope, now),
		Author:    feed.Author{Name: "Recordwatch", URL: s.cfg.BaseURL + "/"},
		Generator: "Recordwatch",
		TTL:       cacheFeeds.maxAge(),
		Rights: "Public records republished from the City Record Online (NYC Department of Citywide Administrative " +
			"Services; NYC Open Data dg92-zbpx). Recordwatch is not the official registry: the official City Record stays authoritative.",
	}
	sc := feed.Scope{
		Covers:           covers,
		Filter:           map[string]string{},
		Order:            q.Sort,
		Limit:            q.Limit,
		Matched:          res.Total,
		CorpusObservedAt: res.Scope.CorpusObservedAt,
		FirstSourceDate:  res.Scope.FirstSourceDate,
		LastSourceDate:   res.Scope.LastSourceDate,
		DateBoundsNote:   res.Scope.DateBoundsNote,
		AbsenceRules:     res.Scope.Absence,
		Official:         "The official City Record stays authoritative; every item links to its official notice page.",
		SearchURL:        s.cfg.BaseURL + "/api/search?" + searchValues(q).Encode(),
	}
	sc.MatchedRelation = lowerBound(res.TotalIsLowerBound)
	for k, vs := range fr.canon {
		sc.Filter[k] = strings.Join(vs, ",")
	}
	for _, src := range res.Scope.Sources {
		sc.Sources = append(sc.Sources, feedSource(src))
	}
	hits := res.Hits
	if ml != nil {
		hits = ml.Hits
	}
	for _, h := range hits {
		f.Items = append(f.Items, s.feedItem(h.Notice, host, now))
	}
	if ml != nil {
		for _, m := range ml.Meetings {
			if it, ok := meeting.FeedItem(s.cfg.BaseURL, m); ok {
				f.Items = append(f.Items, it)
			}
		}
		// soonest first; items without an event (none on this lens) last
		slices.SortStableFunc(f.Items, func(a, b feed.Item) int {
			switch {
			case a.Event == nil || b.Event == nil:
				return boolOrder(a.Event == nil, b.Event == nil)
			}
			return a.Event.Start.Compare(b.Event.Start)
		})
		sc.Matched, sc.Order, sc.Limit = ml.Matched, "start", maxFeedMeetings+watch.FeedLimit
		sc.MatchedRelation = lowerBound(ml.MatchedIsLowerBound)
		for _, c := range meetingFeedSources(ml.Page) {
			if !slices.ContainsFunc(sc.Sources, func(x feed.Source) bool { return x.Source == c.Source }) {
				sc.Sources = append(sc.Sources, c)
			}
		}
		f.Rights += " Meeting records come from their sources (NYC Council Legistar, community-board calendars, the City Record); none is the official calendar of any body."
		sc.Official = "The sources stay authoritative: each meeting links its Recordwatch page and, when the source gives one, its source page; each notice its official City Record page."
	}
	for _, it := range f.Items {
		if it.Event != nil {
			sc.Events++
		}
	}
	sc.Items = len(f.Items)
	feedAbsence(&sc, res.Scope) // sources.go: an empty feed says why
	f.Scope = sc
	f.Description = covers
	if !sc.CorpusObservedAt.IsZero() {
		f.Description += fmt.Sprintf(" Corpus observed %s", sc.CorpusObservedAt.In(record.NewYork).Format("2006-01-02"))
		if sc.FirstSourceDate != "" {
			f.Description += fmt.Sprintf("; source dates %s to %s", sc.FirstSourceDate, sc.LastSourceDate)
		}
		f.Description += "."
	}
	if len(sc.AbsenceRules) > 0 {
		f.Description += " " + sc.AbsenceRules[0]
	}
	return f
}

// feedUpdated is when the feed last changed: when the corpus was observed,
// or, for the lenses that depend on today's date (open solicitations,
// upcoming meetings), the start of today if later. Never after now.
func feedUpdated(fr feedRequest, sc record.Scope, now time.Time) time.Time {
	t := sc.CorpusObservedAt
	if dateRelative(fr.filter) {
		if today := search.DayStart(now); today.After(t) {
			t = today
		}
	}
	if t.IsZero() || t.After(now) {
		t = now
	}
	return t.In(record.NewYork).Truncate(time.Second)
}

// dateRelative reports whether the filter's compiled query depends on
// today's date.
func dateRelative(f watch.Filter) bool {
	return f.Lens == record.LensMeetings || f.Lens == record.LensMoney && f.MinAmount == nil
}

// feedTitle names the feed.
func (s *Server) feedTitle(fr feedRequest) string {
	f := fr.filter
	var t string
	switch f.Lens {
	case record.LensMoney:
		if f.MinAmount != nil {
			t = "Awards of " + dollars(*f.MinAmount) + " or more"
		} else {
			t = "Open solicitations"
		}
	case record.LensMeetings:
		t = "Upcoming hearings and meetings"
	case record.LensProperty:
		t = "Property dispositions"
	case record.LensRules:
		t = "Agency rules"
	case record.LensLand:
		t = "Land use"
	case record.LensPeople:
		t = "Changes in personnel"
	case watch.LensEntity:
		if fr.entityKind == entityVendor {
			t = "Vendor " + fr.entityName
		} else {
			t = "Agency " + fr.entityName
		}
	}
	if fr.agencyName != "" {
		t += " · " + fr.agencyName
	}
	if kw := f.Text(); kw != "" {
		t += " · " + kw
	}
	return t
}

// dollars writes an amount without cents when it has none ("$500,000").
func dollars(v float64) string { return strings.TrimSuffix(view.Money(v), ".00") }

// boolOrder orders false before true.
func boolOrder(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// feedCovers says in plain words what the feed delivers (ml: the meetings
// lens over meeting records, when it applies).
func (s *Server) feedCovers(fr feedRequest, ml *notices.MeetingLens) string {
	f := fr.filter
	var b strings.Builder
	switch {
	case ml != nil:
		b.WriteString(ml.Rule)
		if ml.KeywordsOnly {
			b.WriteString(" Hearings and meetings in the City Record with an event date today or later, soonest first.")
		}
	default:
		s.feedCoversLens(&b, fr)
	}
	if fr.agencyName != "" {
		fmt.Fprintf(&b, " Agency: %s (%s), as resolved through the agency crosswalk, which is not an official registry.",
			fr.agencyName, f.AgencyIDs[0])
	}
	if !(search.Keywords{Terms: f.AnyOf, Phrases: f.Phrases}).Empty() || len(f.Exclude) > 0 {
		fmt.Fprintf(&b, " Keywords: %s (any word or phrase may match; -words exclude).", f.Text())
	}
	if ml != nil {
		fmt.Fprintf(&b, " At most %d notices and %d meetings.", watch.FeedLimit, maxFeedMeetings)
	} else {
		fmt.Fprintf(&b, " At most %d items.", watch.FeedLimit)
	}
	return b.String()
}

// feedCoversLens is the lens's own sentence for a notice feed.
func (s *Server) feedCoversLens(b *strings.Builder, fr feedRequest) {
	f := fr.filter
	switch f.Lens {
	case record.LensMoney:
		if f.MinAmount != nil {
			fmt.Fprintf(b, "Award and intent-to-award notices in the City Record with a valid amount of at least %s, newest first. "+
				"Invalid amounts (placeholders such as -1 or 0, entry errors) never pass.", dollars(*f.MinAmount))
		} else {
			b.WriteString("Open solicitations in the City Record: due today or later, soonest due first; " +
				"solicitations with no fixed deadline (rolling) are included and labelled, and are never calendar events.")
		}
	case record.LensMeetings:
		b.WriteString("Public hearings and meetings in the City Record with an event date today or later, soonest first.")
	case record.LensProperty:
		b.WriteString("Property Disposition notices in the City Record, newest first.")
	case record.LensRules:
		b.WriteString("Agency Rules notices in the City Record, newest first.")
	case record.LensLand:
		b.WriteString("Land-use notices in the City Record (hearings on zoning, ULURP and before land-use bodies), newest first.")
	case record.LensPeople:
		b.WriteString("Changes in Personnel notices in the City Record (appointments, separations, salary changes), newest first. " +
			"Names are printed as the payroll system writes them (LAST,FIRST); a name is matched only as keywords, never as a person's identity.")
	case watch.LensEntity:
		if fr.entityKind == entityVendor {
			fmt.Fprintf(b, "Every City Record notice naming the vendor %s, matched by name stem so that suffix and case variants "+
				"(Inc., LLC, Corp. …) are included, newest first.", fr.entityName)
		} else {
			fmt.Fprintf(b, "Every City Record notice of the agency %s (%s), newest first.", fr.entityName, f.AgencyIDs[0])
		}
	}
}

// feedHomeURL is the human view of the same search.
func (s *Server) feedHomeURL(fr feedRequest, q search.Query) string {
	view := fr.filter.Lens
	if view == watch.LensEntity {
		view = "search"
	}
	v := searchValues(q)
	v.Del("limit")
	return s.cfg.BaseURL + "/#" + view + "?" + v.Encode()
}

// searchValues writes a compiled query as /api/search parameters, so the
// feed's items can be listed (and checked) through the search API.
func searchValues(q search.Query) url.Values {
	v := url.Values{}
	setList := func(name string, vals []string) {
		if len(vals) > 0 {
			v.Set(name, strings.Join(vals, ","))
		}
	}
	if q.Text != "" {
		v.Set("q", q.Text)
	}
	setList("lens", q.Lenses)
	setList("type", q.NoticeTypes)
	setList("agency", q.AgencyIDs)
	setList("vendor", q.VendorStems)
	if q.MinAmount != nil {
		v.Set("min", strconv.FormatFloat(*q.MinAmount, 'f', -1, 64))
	}
	if q.ValidAmountOnly && q.MinAmount == nil && q.MaxAmount == nil {
		v.Set("valid_amount", "true")
	}
	day := func(name string, t time.Time) {
		if !t.IsZero() {
			v.Set(name, t.In(record.NewYork).Format("2006-01-02"))
		}
	}
	day("due_from", q.DueFrom)
	day("event_from", q.EventFrom)
	if q.IncludeRolling {
		v.Set("rolling", "true")
	}
	v.Set("sort", q.Sort)
	v.Set("limit", strconv.Itoa(q.Limit))
	return v
}

// feedItem is one notice as a feed item, with its calendar event when dated.
func (s *Server) feedItem(n record.Notice, host string, now time.Time) feed.Item {
	l := s.links(n)
	it := feed.Item{
		ID:        tagURI(host, "notice/"+n.RequestID),
		Title:     noticeTitle(n),
		Summary:   view.Summary(n),
		URL:       l.Permalink,
		SourceURL: l.Official,
		Published: n.StartDate,
		Updated:   n.StartDate,
		Extension: s.hitView(n, 0, now),
	}
	for _, c := range []string{n.Lens, n.NoticeType, n.AgencyName} {
		if c != "" && !slices.Contains(it.Categories, c) {
			it.Categories = append(it.Categories, c)
		}
	}
	if n.DueRolling {
		it.Categories = append(it.Categories, "rolling deadline")
	}
	var b strings.Builder
	b.WriteString(it.Summary)
	for _, fl := range view.Flags(n, now) {
		b.WriteString("\n• " + fl.Label)
	}
	if ex := excerpt(n.Text, 600); ex != "" {
		b.WriteString("\n\n" + ex)
	}
	b.WriteString("\n\nOfficial notice: " + l.Official + "\nOn Recordwatch: " + l.Permalink)
	it.Content = b.String()
	it.Event = feedEvent(n, host, l)
	return it
}

func noticeTitle(n record.Notice) string {
	if t := strings.Join(strings.Fields(n.Title), " "); t != "" {
		return t
	}
	kind := n.NoticeType
	if kind == "" {
		kind = n.Section
	}
	return kind + " by " + n.AgencyName
}

// excerpt is the first max characters of text, cut at a word boundary.
func excerpt(text string, max int) string {
	text = strings.Join(strings.Fields(text), " ")
	rs := []rune(text)
	if len(rs) <= max {
		return text
	}
	cut := max
	for cut > max/2 && rs[cut] != ' ' {
		cut--
	}
	return strings.TrimSpace(string(rs[:cut])) + " …"
}

// feedEvent is the calendar entry of a dated notice: the event date of a
// hearing or meeting, the due date of a solicitation. Undated notices and
// rolling deadlines (placeholders, never dates) give nil.
func feedEvent(n record.Notice, host string, l view.NoticeLinks) *feed.Event {
	var when time.Time
	var label, kind string
	hasDue := !n.DueDate.IsZero() && !n.DueRolling && n.DueDate.Year() < record.RollingYear
	switch {
	case hasDue && strings.EqualFold(n.NoticeType, "Solicitation"):
		when, label, kind = n.DueDate, "Due", "due"
	case !n.EventDate.IsZero():
		when, label, kind = n.EventDate, eventLabel(n), "event"
	case hasDue:
		when, label, kind = n.DueDate, "Due", "due"
	default:
		return nil
	}
	when = when.In(record.NewYork)
	h, m, sec := when.Clock()
	e := &feed.Event{
		UID:         n.RequestID + "-" + kind + "@" + host,
		Summary:     label + ": " + noticeTitle(n),
		Start:       when,
		AllDay:      h == 0 && m == 0 && sec == 0,
		Categories:  []string{label, n.Lens},
		Description: view.Summary(n) + "\n\nOn Recordwatch: " + l.Permalink + "\nOfficial notice: " + l.Official,
	}
	if kind == "event" {
		e.Location = n.EventPlace
	}
	return e
}

func eventLabel(n record.Notice) string {
	typ, sec := strings.ToLower(n.NoticeType), strings.ToLower(n.Section)
	switch {
	case strings.Contains(typ, "meeting"):
		return "Meeting"
	case strings.Contains(typ, "hearing"), strings.Contains(sec, "hearing"):
		return "Hearing"
	case strings.Contains(sec, "meeting"):
		return "Meeting"
	}
	return "Event"
}

// tagHost is the host name in tag URIs (RFC 4151): the base URL's, without port.
func (s *Server) tagHost() string {
	if u, err := url.Parse(s.cfg.BaseURL); err == nil && u.Hostname() != "" {
		return u.Hostname()
	}
	return "localhost"
}

// tagDate is the date part of every tag URI; it never changes, so ids are stable.
const tagDate = "2026"

func tagURI(host, specific string) string { return "tag:" + host + "," + tagDate + ":" + specific }

// lowerBound is the relation of a count that may be a lower bound
// (record.CountAtLeast, "gte"), "" when it is exact.
func lowerBound(atLeast bool) string {
	if atLeast {
		return record.CountAtLeast
	}
	return ""
}
