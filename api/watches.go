package api

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/api/web"
	"github.com/recordwatch/recordwatch/internal/notices"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/view"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// Watch request bounds.
const (
	maxWatchBody = 8 << 10
	previewHits  = 10
)

// watchRoutes mounts this file's routes: preview and create under /api,
// and the pages behind the emailed links (confirm, manage, unsubscribe).
// Link pages change state only on POST, so link scanners that fetch a
// link do not confirm or unsubscribe.
func (s *Server) watchRoutes(r *gin.Engine, api *gin.RouterGroup) {
	api.GET("/watches/preview", s.previewWatch)
	api.POST("/watches/preview", maxBody(maxWatchBody), s.previewWatch)
	api.POST("/watches", maxBody(maxWatchBody), s.createWatch)
	if s.cfg.Form != 2 { // Form 2 takes plain English only
		api.GET("/watches/choices", s.watchChoices)
	}

	links := r.Group("", s.rateLimit(), linkPageHeaders())
	links.GET("/confirm/:token", s.confirmPage)
	links.POST("/confirm/:token", maxBody(4<<10), s.confirmWatch)
	links.GET("/manage/:token", s.managePage)
	links.POST("/manage/:token", maxBody(4<<10), s.manageCadence)
	links.GET("/u/:token", s.unsubscribePage)
	links.POST("/u/:token", maxBody(4<<10), s.unsubscribe)
	// "this wasn't me — remove everything", in every unasked mail
	links.GET("/remove/:token", s.removeAllPage)
	links.POST("/remove/:token", maxBody(4<<10), s.removeAll)
	// the Follow control of the object pages (a plain HTML form)
	links.POST("/follow", maxBody(4<<10), s.followForm)
}

// followForm is the Follow control of an object page: a form POST with
// email, kind and id (cadence optional). It goes through the same
// lifecycle as POST /api/watches with "follow": active at once in Form 1
// (a welcome mail), a confirmation mail in Form 2.
func (s *Server) followForm(c *gin.Context) {
	m := s.watches(c)
	if m == nil {
		return
	}
	f := watch.Follow{Kind: c.PostForm("kind"), ID: c.PostForm("id")}
	email, cadence := c.PostForm("email"), c.PostForm("cadence")
	lang := c.GetString(langKey)
	fail := func(err error) {
		status, body := errorOf(c, err)
		respond(c, status, page{Title: web.Word(lang, "watch.follow.failed"), Message: body.Error.Message}, body)
	}
	for name, v := range map[string]string{"email": email, "follow.kind": f.Kind, "follow.id": f.ID, "cadence": cadence} {
		if err := watch.CheckText(name, v, false); err != nil {
			fail(err)
			return
		}
	}
	if _, err := watch.NormalizeEmail(email); err != nil {
		fail(err)
		return
	}
	f, err := f.Check(s.cfg.Form)
	if err != nil {
		fail(err)
		return
	}
	if err := m.Allow(c.Request.Context(), clientKey(c)); err != nil {
		if reset, ok := watch.ResetAt(err); ok {
			c.Header("Retry-After", strconv.Itoa(max(int(reset.Sub(s.deps.Now()).Seconds()), 0)+1))
		}
		fail(err)
		return
	}
	out, err := m.Subscribe(c.Request.Context(), watch.Request{Email: email, Follow: &f, Cadence: cadence, Client: clientKey(c), Channel: watch.ChannelWeb})
	if err != nil {
		fail(err)
		return
	}
	title := fmt.Sprintf(web.Word(lang, "watch.follow.title"), fmt.Sprintf(web.Label(lang, "follow_kind", f.Kind), f.ID))
	if out.Status != watch.StatusActive {
		title = web.Word(lang, "watch.check.email")
	}
	respond(c, http.StatusOK, page{Title: title, Message: web.NoteIn(lang, out.MessageKey), Scope: out.Scope},
		out.Created(nil, nil))
}

// linkPageHeaders gives the token pages the security headers every HTML
// page of the site carries (web.SecurityHeaders: CSP, X-Frame-Options,
// X-Content-Type-Options), and keeps them out of caches, search engines
// and Referer headers (no-referrer, stricter than the site's policy).
func linkPageHeaders() gin.HandlerFunc {
	return func(c *gin.Context) {
		h := c.Writer.Header()
		web.SecurityHeaders(h)
		noStore.set(h)
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Robots-Tag", "noindex, nofollow")
		c.Next()
	}
}

// WatchInput is a preview or create request. Form 2 takes text (plain
// English); Form 1 takes a structured filter (lens, q, agency, vendor,
// min, max, borough, awards, bids, category, requirement, within, from,
// until) with an optional description, and may preview plain English too.
// The structured fields are the filters plain English can name, read by
// the same rules (watch.Build), so both make the same watch.
type WatchInput struct {
	Email string `json:"email,omitempty"`
	Text  string `json:"text,omitempty"`
	// FieldRequest is the structured filter, the one type of a watch's
	// fields (watch.FieldRequest: lens, q, agency, vendor, min and max —
	// a number or a string such as "100k", watch.Amount —, borough,
	// awards, bids — which keeps a money watch with an amount on open
	// solicitations —, category — construction, goods, services,
	// professional services, human services —, requirement — mwbe,
	// small_business —, within — a moving window ahead ("3 months") over
	// due dates of open solicitations and dates of hearings —, from and
	// until — YYYY-MM-DD bounds of the due, hearing or publication date —
	// and, for the land lens, community_district, procedure, stage and
	// action, with at most one borough).
	watch.FieldRequest
	Description string `json:"description,omitempty"`
	// Cadence is "daily" (the default) or "weekly" (digests on Mondays).
	Cadence string `json:"cadence,omitempty"`
	// Follow names one object to follow instead of a search (kind notice,
	// matter, contract, land_project or meeting; Form 2: notice or
	// matter): a mail when a followed field changes, old → new.
	Follow *watch.Follow `json:"follow,omitempty"`
	// Manage is the manage link (or its token) of one of the address's
	// own mails: the request is the owner's, so its mail goes at once and
	// the bound on watches the owner never acted on does not apply.
	Manage string `json:"manage,omitempty"`
}

// manageToken is the token of a manage link given whole or as its token.
func (in WatchInput) manageToken() string {
	t := strings.TrimSpace(in.Manage)
	if _, after, ok := strings.Cut(t, "/manage/"); ok {
		t = after
	}
	t, _, _ = strings.Cut(t, "?")
	return t
}

func (in WatchInput) structured() bool {
	return in.Lens != "" || in.Q != "" || len(in.Agency)+len(in.Vendor)+len(in.Borough)+len(in.Category)+len(in.Requirement) > 0 ||
		in.Min != nil || in.Max != nil || in.Awards || in.Bids || in.Within != "" || in.From != "" || in.Until != "" ||
		in.CommunityDistrict != "" || in.Procedure != "" || in.Stage != "" || in.Action != ""
}

// readWatchInput reads query parameters (GET) or a JSON body (POST).
func readWatchInput(c *gin.Context, withEmail bool) (WatchInput, error) {
	var in WatchInput
	if c.Request.Method == http.MethodGet {
		p := newParams(c.Request.URL.Query(), "text", "lens", "q", "agency", "vendor", "min", "max", "borough", "awards",
			"bids", "category", "requirement", "within", "from", "until")
		in = WatchInput{Text: p.str("text"), FieldRequest: watch.FieldRequest{Lens: p.str("lens"), Q: p.str("q"), Agency: p.list("agency"),
			Vendor: p.names("vendor"), Borough: p.list("borough"), Awards: p.boolean("awards"), Bids: p.boolean("bids"),
			Category: p.list("category"), Requirement: p.list("requirement"), Within: p.str("within"), From: p.str("from"), Until: p.str("until")}}
		if v := p.str("min"); v != "" {
			in.Min = watch.ParseAmount(v)
		}
		if v := p.str("max"); v != "" {
			in.Max = watch.ParseAmount(v)
		}
		if p.err != nil {
			return in, p.err
		}
		return in, in.check()
	}
	body, err := io.ReadAll(c.Request.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return in, record.Errorf(record.ETOOLARGE, "request body is larger than %d bytes", mbe.Limit)
		}
		return in, record.InvalidNote("body", "param.body")
	}
	if err := decodeStrict(body, &in); err != nil { // exact field names: "Text" is not "text"
		return in, err
	}
	if !withEmail && in.Email != "" {
		return in, record.InvalidNote("email", "watch.error.preview_email")
	}
	return in, in.check()
}

// check refuses control characters in every field (each can reach a
// mail): text and description may hold line breaks and tabs, the others
// are one line. The error names the field.
func (in WatchInput) check() error {
	one := map[string][]string{"email": {in.Email}, "lens": {in.Lens}, "q": {in.Q}, "agency": in.Agency, "vendor": in.Vendor,
		"borough": in.Borough, "cadence": {in.Cadence},
		"category": in.Category, "requirement": in.Requirement, "within": {in.Within}, "from": {in.From}, "until": {in.Until},
		"manage": {in.Manage}}
	for _, name := range []string{"email", "lens", "q", "agency", "vendor", "borough", "cadence",
		"category", "requirement", "within", "from", "until", "manage"} {
		for _, v := range one[name] {
			if err := watch.CheckText(name, v, false); err != nil {
				return err
			}
		}
	}
	if in.Follow != nil {
		if in.structured() || strings.TrimSpace(in.Text) != "" {
			return record.InvalidNote("follow", "watch.error.follow_alone")
		}
		for name, v := range map[string]string{"follow.kind": in.Follow.Kind, "follow.id": in.Follow.ID} {
			if err := watch.CheckText(name, v, false); err != nil {
				return err
			}
		}
	}
	for name, v := range map[string]string{"text": in.Text, "description": in.Description} {
		if err := watch.CheckText(name, v, true); err != nil {
			return err
		}
	}
	return nil
}

// understanding turns the input into a filter: the parser for text, the
// structured fields otherwise.
func (s *Server) understanding(in WatchInput) (watch.Understanding, error) {
	if strings.TrimSpace(in.Text) != "" {
		if in.structured() {
			return watch.Understanding{}, record.InvalidNote("text", "watch.error.text_or_filter")
		}
		return watch.Parse(in.Text, watch.ParseOptions{Crosswalk: s.deps.Crosswalk, Form: s.cfg.Form, Now: s.deps.Now()})
	}
	if s.cfg.Form == 2 {
		return watch.Understanding{}, record.InvalidNote("text", "watch.error.say_english")
	}
	st, err := in.FieldRequest.Structured()
	if err != nil {
		return watch.Understanding{}, err
	}
	st.Now = s.deps.Now()
	return watch.Build(st, s.deps.Crosswalk, s.cfg.Form)
}

// PreviewResponse is what a watch would deliver now, without subscribing:
// the watch service's preview with the matched notices as hits.
type PreviewResponse struct {
	notices.Preview
	// Hits are the first matched notices (the meetings lens: those not
	// held as meetings).
	Hits []view.LinkedHit `json:"hits"`
	// Filter is understood.filter again, where answers before 2026-11-27
	// had it.
	//
	// Deprecated: read understood.filter (docs/api.md, Change log).
	Filter watch.Filter `json:"filter" deprecated:"understood.filter"`
}

// newPreviewResponse is the preview p with its deprecated aliases filled.
func newPreviewResponse(p notices.Preview) PreviewResponse {
	return PreviewResponse{Preview: p, Hits: []view.LinkedHit{}, Filter: p.Understood.Filter}
}

// previewFollow answers a preview of a follow: the object's fields now.
func (s *Server) previewFollow(c *gin.Context, f watch.Follow, notes []string) {
	v, f, scope, err := s.watchReaders().PreviewFollow(c.Request.Context(), f, s.cfg.Form, view.Links{Base: s.cfg.BaseURL, Form: s.cfg.Form})
	if err != nil {
		writeError(c, err)
		return
	}
	out := newPreviewResponse(notices.FollowPreview(v, f, scope, notes))
	renderJSON(c, http.StatusOK, out, 0, time.Time{})
}

func (s *Server) previewWatch(c *gin.Context) {
	in, err := readWatchInput(c, false)
	if err != nil {
		writeError(c, err)
		return
	}
	if in.Follow != nil {
		s.previewFollow(c, *in.Follow, nil)
		return
	}
	u, err := s.understanding(in)
	if err != nil {
		writeError(c, err)
		return
	}
	if u.Follow != nil {
		s.previewFollow(c, *u.Follow, u.Notes)
		return
	}
	now := s.deps.Now()
	// the watch's one answer (notices.Service.Filter): what its digests deliver
	a, err := s.deps.Notices.Filter(c.Request.Context(), u.Filter, s.answerOptions())
	if err != nil {
		writeError(c, err)
		return
	}
	out := newPreviewResponse(notices.MatchPreview(u, a, s.cfg.BaseURL, previewHits, s.cfg.Form))
	for i, h := range a.Hits {
		if i == previewHits {
			break
		}
		out.Hits = append(out.Hits, s.hitView(h.Notice, 0, now))
	}
	maxAge := cacheSearch
	if c.Request.Method != http.MethodGet {
		maxAge = 0
	}
	renderJSON(c, http.StatusOK, out, maxAge, a.Scope.CorpusObservedAt)
}

// answerOptions are what a watch filter's answer reads on this
// deployment (its form and permalinks; a watch's limits).
func (s *Server) answerOptions() notices.AnswerOptions {
	return notices.AnswerOptions{Form: s.cfg.Form, Links: view.Links{Base: s.cfg.BaseURL, Form: s.cfg.Form}}
}

// watchReaders are what a follow reads: the engine and the services
// main.go built.
func (s *Server) watchReaders() watch.Readers {
	return watch.Readers{Search: s.deps.Search, People: s.deps.People, Meetings: s.deps.Meetings, Procure: s.deps.Procure, Land: s.deps.Land}
}

// watches is the subscription lifecycle (watch.Service); without one it
// answers unavailable.
func (s *Server) watches(c *gin.Context) *watch.Service {
	if s.deps.Watches == nil {
		writeError(c, record.Errorf(record.EUNAVAILABLE, "watches are not available: this server sends no mail"))
		return nil
	}
	return s.deps.Watches
}

// watchError writes a create error; a ceiling's refusal says when to
// retry.
func (s *Server) watchError(c *gin.Context, err error) {
	if reset, ok := watch.ResetAt(err); ok {
		c.Header("Retry-After", strconv.Itoa(max(int(reset.Sub(s.deps.Now()).Seconds()), 0)+1))
	}
	writeError(c, err)
}

func (s *Server) createWatch(c *gin.Context) {
	m := s.watches(c)
	if m == nil {
		return
	}
	in, err := readWatchInput(c, true)
	if err != nil {
		writeError(c, err)
		return
	}
	if _, err := watch.NormalizeEmail(in.Email); err != nil {
		writeError(c, err)
		return
	}
	if _, err := watch.CheckCadence(in.Cadence); err != nil {
		writeError(c, err)
		return
	}
	req := watch.Request{Email: in.Email, Client: clientKey(c), Channel: watch.ChannelWeb, Cadence: in.Cadence, Manage: in.manageToken()}
	var u watch.Understanding
	if in.Follow != nil {
		f, err := in.Follow.Check(s.cfg.Form)
		if err != nil {
			writeError(c, err)
			return
		}
		req.Follow, req.Description = &f, in.Description
	} else if s.cfg.Form == 1 {
		if strings.TrimSpace(in.Text) != "" {
			writeError(c, record.InvalidNote("text", "watch.error.create_structured"))
			return
		}
		if u, err = s.understanding(in); err != nil {
			writeError(c, err)
			return
		}
		req.Filter, req.Agencies, req.Description = &u.Filter, u.Agencies, in.Description
	} else {
		if in.structured() || in.Description != "" {
			writeError(c, record.InvalidNote("text", "watch.error.text_only"))
			return
		}
		if u, err = s.understanding(in); err != nil {
			writeError(c, err)
			return
		}
		req.Text = in.Text
	}
	if err := m.Allow(c.Request.Context(), clientKey(c)); err != nil {
		s.watchError(c, err)
		return
	}
	out, err := m.Subscribe(c.Request.Context(), req)
	if err != nil {
		s.watchError(c, err)
		return
	}
	status := http.StatusAccepted
	if out.Status == watch.StatusActive {
		status = http.StatusCreated
	}
	renderJSON(c, status, out.Created(u.Notes, u.NoteKeys), noStore, time.Time{})
}

// Link pages.

type page struct {
	Title, Message, Scope string
	// ScopeKey is Scope as a note, when the page has one (a watch being
	// confirmed, or managed: Watch.ScopeNote): said in the page's
	// language; Scope otherwise, as stored.
	ScopeKey       record.Note
	Notes          []string
	Action, Button string
	OneClick       bool
	// CadenceAction and CadenceTo: the manage page's switch between daily
	// and weekly digests.
	CadenceAction, CadenceTo string
	// Ledger (the manage page, ShowLedger): every run of the watch kept.
	ShowLedger bool
	Ledger     []watch.LedgerEntry
	// Again links to where a new request can be made (an expired or used
	// confirmation link).
	Again, AgainText string
}

// respond renders a link page as HTML (web/templates/watch_link.html), or
// its JSON twin when the client asks for JSON; never cached (the route
// group's linkPageHeaders set the security headers).
func respond(c *gin.Context, status int, p page, twin any) {
	if c.NegotiateFormat(gin.MIMEHTML, gin.MIMEJSON) == gin.MIMEJSON {
		renderJSON(c, status, twin, noStore, time.Time{})
		return
	}
	renderPage(c, status, web.Page{Kind: web.WatchLink, Title: p.Title, Robots: "noindex, nofollow", Data: p}, noStore, time.Time{})
}

// linkError answers a link that cannot be used: the error table's status
// and body (errorOf), the token named as the parameter at fault.
func linkError(c *gin.Context, err error) {
	status, body := errorOf(c, err)
	if status < http.StatusInternalServerError {
		body.Error.Param = "token"
	}
	respond(c, status, page{Title: web.Word(c.GetString(langKey), "watch.link.unusable"), Message: body.Error.Message}, body)
}

// confirmLinkError answers a confirmation link that cannot be used (forged
// and expired alike): the page says links expire and offers a new request.
func (s *Server) confirmLinkError(c *gin.Context, m *watch.Service, err error) {
	status, body := errorOf(c, err)
	if status < http.StatusInternalServerError {
		body.Error.Param = "token"
	}
	lang := c.GetString(langKey)
	respond(c, status, page{Title: web.Word(lang, "watch.link.unusable"), Message: body.Error.Message,
		Notes:     []string{fmt.Sprintf(web.Word(lang, "watch.link.expiry"), int(m.ConfirmTTL().Hours()))},
		Again:     s.cfg.BaseURL + "/" + langQuery(c),
		AgainText: web.Word(lang, "watch.again")}, body)
}

func (s *Server) confirmPage(c *gin.Context) {
	m := s.watches(c)
	if m == nil {
		return
	}
	out, err := m.Pending(c.Param("token"))
	if err != nil {
		s.confirmLinkError(c, m, err)
		return
	}
	ttl := int(m.ConfirmTTL().Hours())
	lang := c.GetString(langKey)
	respond(c, http.StatusOK, page{Title: web.Word(lang, "watch.confirm.title"), Message: web.Word(lang, "watch.confirm.message"),
		Scope: out.Scope, ScopeKey: out.ScopeKey, Action: view.Links{}.Confirm(url.PathEscape(c.Param("token"))) + langQuery(c), Button: web.Word(lang, "watch.confirm.button"),
		Notes: []string{fmt.Sprintf(web.Word(lang, "watch.confirm.note"), ttl)}},
		gin.H{"status": out.Status, "scope": out.Scope, "filter": out.Filter, "confirm": "POST this URL to confirm", "expires_after_hours": ttl})
}

func (s *Server) confirmWatch(c *gin.Context) {
	m := s.watches(c)
	if m == nil {
		return
	}
	out, err := m.Confirm(c.Request.Context(), c.Param("token"))
	if err != nil {
		s.confirmLinkError(c, m, err)
		return
	}
	respond(c, http.StatusOK, page{Title: web.Word(c.GetString(langKey), "watch.active.title"), Message: web.NoteIn(c.GetString(langKey), out.MessageKey), Scope: out.Scope,
		ScopeKey: out.ScopeKey}, gin.H{"status": out.Status, "scope": out.Scope, "filter": out.Filter, "message": out.Message})
}

func (s *Server) managePage(c *gin.Context) {
	m := s.watches(c)
	if m == nil {
		return
	}
	w, err := m.Manage(c.Request.Context(), c.Param("token"))
	if err != nil {
		linkError(c, err)
		return
	}
	if w.Status != watch.StatusActive {
		respond(c, http.StatusOK, endedPage(c), w)
		return
	}
	respond(c, http.StatusOK, s.managedPage(c, m, w), w)
}

// endedPage is the manage page of a watch that has ended.
func endedPage(c *gin.Context) page {
	lang := c.GetString(langKey)
	return page{Title: web.Word(lang, "watch.ended.title"), Message: web.Word(lang, "watch.ended.message")}
}

// schedule says when a cadence's digests go out, in the page's language
// (the service's Schedule says it in English for the JSON and the mails).
func schedule(lang string, m *watch.Service, cadence string) string {
	if cadence == watch.CadenceWeekly {
		return fmt.Sprintf(web.Word(lang, "watch.schedule.weekly"), web.Label(lang, "weekday", watch.WeeklyDay.String()), m.DigestHour())
	}
	return fmt.Sprintf(web.Word(lang, "watch.schedule.daily"), m.DigestHour())
}

func (s *Server) managedPage(c *gin.Context, m *watch.Service, w watch.Managed) page {
	lang, token := c.GetString(langKey), c.Param("token")
	p := page{Title: web.Word(lang, "watch.manage.title"), Message: fmt.Sprintf(web.Word(lang, "watch.manage.since"), w.ActiveSince.In(record.NewYork).Format("2006-01-02")),
		Scope: w.Scope, ScopeKey: w.ScopeKey, Action: view.Links{}.Unsubscribe(url.PathEscape(token)) + langQuery(c), Button: web.Word(lang, "watch.unsub.button"), OneClick: true,
		CadenceAction: view.Links{}.Manage(url.PathEscape(token)) + langQuery(c), CadenceTo: watch.CadenceWeekly}
	if w.Cadence == watch.CadenceWeekly {
		p.CadenceTo = watch.CadenceDaily
	}
	sched := schedule(lang, m, w.Cadence)
	p.Notes = []string{fmt.Sprintf(web.Word(lang, "watch.manage.digests"), sched)}
	if w.Follow != nil {
		p.Notes = []string{fmt.Sprintf(web.Word(lang, "watch.manage.changes"), sched)}
		for _, f := range w.Followed {
			v := f.Value
			if v == "" {
				v = web.Word(lang, "watch.manage.nofield")
			}
			p.Notes = append(p.Notes, fmt.Sprintf(web.Word(lang, "watch.manage.field"), web.Label(lang, "followed_field", f.Name), v))
		}
	}
	p.ShowLedger, p.Ledger = true, w.Ledger
	// a watch added from here is the owner's: its request carries this
	// link (app.js keeps it for the session), so it is not held to the
	// bound on watches an owner never acted on
	p.Again, p.AgainText = "/?manage="+url.QueryEscape(token)+strings.ReplaceAll(langQuery(c), "?", "&"), web.Word(lang, "watch.manage.add")
	if w.Description != "" {
		p.Notes = append(p.Notes, fmt.Sprintf(web.Word(lang, "watch.manage.desc"), w.Description))
	}
	return p
}

// manageCadence changes a watch's cadence from its manage link: a POST
// with cadence=daily or cadence=weekly (a form field, or JSON
// {"cadence": …}).
func (s *Server) manageCadence(c *gin.Context) {
	m := s.watches(c)
	if m == nil {
		return
	}
	cadence := ""
	if strings.HasPrefix(c.ContentType(), "application/json") {
		var in struct {
			Cadence string `json:"cadence"`
		}
		body, err := io.ReadAll(c.Request.Body)
		if err == nil {
			err = decodeStrict(body, &in)
		}
		if err != nil {
			writeError(c, record.InvalidNote("cadence", "watch.error.cadence_body"))
			return
		}
		cadence = in.Cadence
	} else {
		cadence = c.PostForm("cadence")
	}
	if cadence == "" {
		writeError(c, record.InvalidNote("cadence", "watch.error.cadence_plain"))
		return
	}
	w, err := m.SetCadence(c.Request.Context(), c.Param("token"), cadence)
	if err != nil {
		if errors.Is(err, watch.ErrBadLink) {
			linkError(c, err)
			return
		}
		writeError(c, err)
		return
	}
	if w.Status != watch.StatusActive {
		respond(c, http.StatusOK, endedPage(c), w)
		return
	}
	p := s.managedPage(c, m, w)
	p.Message = fmt.Sprintf(web.Word(c.GetString(langKey), "watch.manage.changed"), schedule(c.GetString(langKey), m, w.Cadence)) + " " + p.Message
	respond(c, http.StatusOK, p, w)
}

func (s *Server) unsubscribePage(c *gin.Context) {
	m := s.watches(c)
	if m == nil {
		return
	}
	w, err := m.Manage(c.Request.Context(), c.Param("token"))
	if err != nil {
		linkError(c, err)
		return
	}
	if w.Status != watch.StatusActive {
		respond(c, http.StatusOK, page{Title: web.Word(c.GetString(langKey), "watch.unsub.done"), Message: web.Word(c.GetString(langKey), "watch.unsub.ended")},
			gin.H{"status": "ended"})
		return
	}
	lang := c.GetString(langKey)
	respond(c, http.StatusOK, page{Title: web.Word(lang, "watch.unsub.title"), Message: web.Word(lang, "watch.unsub.message"), Scope: w.Scope, ScopeKey: w.ScopeKey,
		Action: view.Links{}.Unsubscribe(url.PathEscape(c.Param("token"))) + langQuery(c), Button: web.Word(lang, "watch.unsub.button"), OneClick: true},
		gin.H{"status": w.Status, "scope": w.Scope, "unsubscribe": "POST this URL with List-Unsubscribe=One-Click"})
}

// unsubscribe is the RFC 8058 one-click endpoint (a POST whose body is
// List-Unsubscribe=One-Click) and the page's button.
func (s *Server) unsubscribe(c *gin.Context) {
	m := s.watches(c)
	if m == nil {
		return
	}
	if err := m.Unsubscribe(c.Request.Context(), c.Param("token")); err != nil {
		linkError(c, err)
		return
	}
	respond(c, http.StatusOK, page{Title: web.Word(c.GetString(langKey), "watch.unsub.done"), Message: web.Word(c.GetString(langKey), "watch.unsub.ended")},
		gin.H{"status": "ended"})
}

// removeAllPage is the page behind an unasked mail's "this wasn't me —
// remove everything" link: what it would remove, and the button (a link
// scanner's GET removes nothing).
func (s *Server) removeAllPage(c *gin.Context) {
	m := s.watches(c)
	if m == nil {
		return
	}
	r, err := m.Removable(c.Request.Context(), c.Param("token"))
	if err != nil {
		linkError(c, err)
		return
	}
	lang := c.GetString(langKey)
	respond(c, http.StatusOK, page{Title: web.Word(lang, "watch.remove.title"),
		Message: fmt.Sprintf(web.Word(lang, "watch.remove.message"), r.Watches, r.Mails),
		Action:  view.Links{}.RemoveAll(url.PathEscape(c.Param("token"))) + langQuery(c), Button: web.Word(lang, "watch.remove.button"), OneClick: true},
		r)
}

// removeAll is the RFC 8058 one-click endpoint of that link (a POST whose
// body is List-Unsubscribe=One-Click) and the page's button: every watch
// of the address ends and its queued mail is dropped.
func (s *Server) removeAll(c *gin.Context) {
	m := s.watches(c)
	if m == nil {
		return
	}
	r, err := m.RemoveAll(c.Request.Context(), c.Param("token"))
	if err != nil {
		if errors.Is(err, watch.ErrBadLink) {
			linkError(c, err)
			return
		}
		writeError(c, err)
		return
	}
	lang := c.GetString(langKey)
	respond(c, http.StatusOK, page{Title: web.Word(lang, "watch.remove.done"), Message: fmt.Sprintf(web.Word(lang, "watch.remove.ended"), r.Watches, r.Mails)}, r)
}
