package link

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Land link methods and confidences.
const (
	LandByULURP = "ulurp_number" // the notice text names one of the project's application numbers
	LandByCEQR  = "ceqr_number"  // the notice text names the project's CEQR number
	LandByBBL   = "bbl"          // the notice's extracted BBLs include one of the project's lots
	// LandByHearing: the notice's event date is a hearing date the project
	// records and its text names the project.
	LandByHearing = "hearing_date_and_name"
)

// minLandName is the shortest project name a hearing link matches on.
const minLandName = 8

// maxLandCandidates bounds the notices one search of the link stage reads.
const maxLandCandidates = 50

// LandProjects links land projects to the City Record notices held: a
// notice whose text names one of a project's application (ULURP) numbers
// (digits and letters, with or without the prefix letter and spaces) or
// its CEQR number is linked with high confidence; one whose extracted
// BBLs include a lot of the project, or whose event falls on a hearing
// date the project records and whose text names the project, with medium
// confidence (a lot can see several projects; a name can repeat). A
// hearing date that matches is added as evidence to the other links too.
// A link is only made with its evidence stated. The links are kept as link
// records (env.Links, notice → land_project), which the land service reads
// (land.Service.Project); the projects themselves carry none, only
// whether their notice links were decided (NoticeLinksState): with no
// notices held (env.Notices nil or empty) none is decided, and the
// project says so, apart from one that no notice held names. The joins to
// the meetings held that name the projects are kept too
// (JoinMeetingsLand), and those to the land events held that name them
// (JoinEventsLand).
func LandProjects(ctx context.Context, env Env, items []land.Project) []error {
	var errs []error
	undecided := noticesUndecided(ctx, env.Notices)
	for i := range items {
		if undecided != "" {
			items[i].NoticeLinksState, items[i].NoticeLinksNote = land.NoticeLinksUndecided, land.NoticeLinksUndecidedNote(undecided)
			continue
		}
		links, err := landLinks(ctx, env.Notices, items[i])
		if err != nil {
			errs = append(errs, fmt.Errorf("land project %s: notice links not decided: %w", items[i].ID, err))
			items[i].NoticeLinksState = land.NoticeLinksUndecided
			items[i].NoticeLinksNote = land.NoticeLinksUndecidedNote("the City Record notices held could not be searched when the project was linked")
			continue
		}
		items[i].NoticeLinksState, items[i].NoticeLinksNote = land.NoticeLinksDecided, land.NoticeLinksDecidedNote
		landLinkRecords(env, items[i].ID, links)
	}
	if err := landMeetingLinks(ctx, env, items); err != nil {
		errs = append(errs, fmt.Errorf("land projects: joins to the meetings held not found: %w", err))
	}
	if err := landEventLinks(ctx, env, items); err != nil {
		errs = append(errs, fmt.Errorf("land projects: joins to the land events held not found: %w", err))
	}
	return errs
}

// noticesUndecided is why no notice link can be decided ("" when it
// can): no notice is held, or the notices held cannot be read.
func noticesUndecided(ctx context.Context, r search.Reader) string {
	if r == nil {
		return "no City Record notices were held when the project was linked"
	}
	res, err := r.Search(ctx, search.Query{Limit: 1})
	if err != nil {
		return "the City Record notices held could not be read when the project was linked"
	}
	if res.Total == 0 {
		return "no City Record notices were held when the project was linked"
	}
	return ""
}

type landCandidate struct {
	n        record.Notice
	method   string
	evidence record.Notes
}

// landRule is the one rule a notice is linked to a project by, whichever
// end is written first (LandProjects from the project, NoticeLand from
// the notice): the project's application numbers, CEQR number, lots and
// recorded hearing days, judged on one notice at a time (judge).
type landRule struct {
	p        land.Project
	ulurp    []*regexp.Regexp // one per action with an application number
	actions  []land.Action
	ceqr     string
	lots     map[string]bool
	hearings map[string]landHearing // New York day → what the project records on it
}

// landHearing is what a project records on a day: a recommending body's
// hearing (body set) or a milestone's review meeting.
type landHearing struct{ body, milestone string }

// what is the body (a hearing) or the milestone, and whether it is a
// hearing.
func (h landHearing) what() (string, bool) {
	if h.body != "" {
		return h.body, true
	}
	return h.milestone, false
}

func newLandRule(p land.Project) landRule {
	r := landRule{p: p, lots: map[string]bool{}, hearings: map[string]landHearing{},
		ceqr: strings.ToUpper(strings.TrimSpace(p.Environmental.CEQRNumber))}
	for _, a := range p.Actions {
		if a.ULURPKey == "" || len(a.ULURPKey) < 9 {
			continue
		}
		digits, letters := a.ULURPKey[:6], strings.TrimSuffix(a.ULURPKey, "(A)")
		letters = letters[len(letters)-3:]
		r.ulurp = append(r.ulurp, regexp.MustCompile(`(?i)(^|[^0-9A-Z])([A-Z]\s?)?`+digits+`\s?`+letters+`([^A-Z0-9]|$)`))
		r.actions = append(r.actions, a)
	}
	for _, l := range p.Lots {
		r.lots[l.BBL] = true
	}
	for _, rec := range p.Recommendations {
		if !rec.HearingDate.IsZero() {
			r.hearings[rec.HearingDate.In(record.NewYork).Format("2006-01-02")] = landHearing{body: rec.Body}
		}
	}
	for _, m := range p.Milestones {
		if !m.ReviewMeeting.IsZero() {
			r.hearings[m.ReviewMeeting.In(record.NewYork).Format("2006-01-02")] = landHearing{milestone: m.Milestone}
		}
	}
	return r
}

// judge is the link of one notice to the project, nil when the notice
// names it in none of the rule's ways: its strongest method and every
// piece of evidence, in the order application numbers, CEQR number, lots,
// hearing day and name.
func (r landRule) judge(n record.Notice) *landCandidate {
	var c *landCandidate
	add := func(method string, evidence record.Note) {
		if c == nil {
			c = &landCandidate{n: n, method: method}
		}
		if rankLand(method) < rankLand(c.method) {
			c.method = method
		}
		if !slices.ContainsFunc(c.evidence, func(e record.Note) bool { return e.String() == evidence.String() }) {
			c.evidence = append(c.evidence, evidence)
		}
	}
	text := n.Title + "\n" + n.Text
	for i, re := range r.ulurp {
		if m := re.FindString(text); m != "" {
			add(LandByULURP, record.N("land.join.ulurp", strings.Trim(m, " .,;:()\n"), r.actions[i].ULURPNumber))
		}
	}
	if r.ceqr != "" && strings.Contains(strings.ToUpper(n.Text), r.ceqr) {
		add(LandByCEQR, record.N("land.join.ceqr", r.ceqr))
	}
	if len(r.lots) > 0 {
		for _, bbl := range entity.ExtractPlaces(n.Text).BBLs {
			if r.lots[bbl] {
				add(LandByBBL, record.N("land.join.bbl", bbl))
			}
		}
	}
	d := ""
	if !n.EventDate.IsZero() {
		d = n.EventDate.In(record.NewYork).Format("2006-01-02")
	}
	if name, h := strings.TrimSpace(r.p.Name), r.hearings[d]; d != "" && len(name) >= minLandName && (h.body != "" || h.milestone != "") &&
		strings.Contains(strings.ToLower(n.Text), strings.ToLower(name)) {
		what, hearing := h.what()
		add(LandByHearing, land.JoinNamed(name, d, what, hearing))
	}
	if c != nil && d != "" && c.method != LandByHearing {
		if h, ok := r.hearings[d]; ok {
			what, hearing := h.what()
			c.evidence = append(c.evidence, land.JoinEventDate(d, what, hearing))
		}
	}
	return c
}

// link is the notice link of a judged candidate, with its confidence.
func (c *landCandidate) link() land.NoticeLink {
	conf := "high"
	if c.method == LandByBBL || c.method == LandByHearing {
		conf = "medium"
	}
	l := land.NoticeLink{RequestID: c.n.RequestID, Method: c.method, Confidence: conf, Evidence: []string{}, EvidenceKeys: c.evidence}
	for _, e := range c.evidence {
		l.Evidence = append(l.Evidence, e.String())
	}
	return l
}

// landLinks finds the notices held that may name the project (searches by
// application number digits, CEQR number, block, and the project's name
// on its recorded hearing days) and keeps those the rule links.
func landLinks(ctx context.Context, r search.Reader, p land.Project) ([]land.NoticeLink, error) {
	rule := newLandRule(p)
	seen := map[string]bool{}
	var order []record.Notice
	searchQ := func(q search.Query) error {
		q.Limit = maxLandCandidates
		res, err := r.Search(ctx, q)
		if err != nil {
			return err
		}
		for _, h := range res.Hits {
			if !seen[h.Notice.RequestID] {
				seen[h.Notice.RequestID] = true
				order = append(order, h.Notice)
			}
		}
		return nil
	}
	for _, a := range rule.actions {
		if err := searchQ(search.Query{Text: `"` + a.ULURPKey[:6] + `"`}); err != nil {
			return nil, err
		}
	}
	if rule.ceqr != "" {
		if err := searchQ(search.Query{Text: `"` + rule.ceqr + `"`}); err != nil {
			return nil, err
		}
	}
	// lots: search each block once
	blocks := map[string]bool{}
	for bbl := range rule.lots {
		blocks[strings.TrimLeft(bbl[1:6], "0")] = true
	}
	bl := make([]string, 0, len(blocks))
	for b := range blocks {
		bl = append(bl, b)
	}
	sort.Strings(bl)
	for _, b := range bl {
		if err := searchQ(search.Query{Text: `"block ` + b + `"`}); err != nil {
			return nil, err
		}
	}
	// hearing dates: a notice of an event on a recorded hearing day that
	// names the project
	if name := strings.TrimSpace(p.Name); len(name) >= minLandName {
		days := make([]string, 0, len(rule.hearings))
		for d := range rule.hearings {
			days = append(days, d)
		}
		sort.Strings(days)
		for _, d := range days {
			day, err := time.ParseInLocation("2006-01-02", d, record.NewYork)
			if err != nil {
				continue
			}
			if err := searchQ(search.Query{Text: `"` + strings.ReplaceAll(name, `"`, "") + `"`, EventFrom: day, EventTo: day}); err != nil {
				return nil, err
			}
		}
	}
	out := []land.NoticeLink{}
	for _, n := range order {
		if c := rule.judge(n); c != nil {
			out = append(out, c.link())
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].RequestID < out[j].RequestID })
	return out, nil
}

// NoticeLand links the notices of a batch to the land projects held that
// they name, as the City Record job loads them (not only when the land
// job runs again): the projects whose application numbers, CEQR number or
// lots the notices name are read and the same rule (landRule) judges each
// pair. The links are kept as link records (env.Links), like those
// LandProjects keeps. With no records held (env.Records nil) none is kept.
func NoticeLand(ctx context.Context, env Env, ns []record.Notice) error {
	if env.Links == nil || env.Records == nil || len(ns) == 0 {
		return nil
	}
	if t, err := env.Records.RecordTotals(ctx, search.RecordQuery{Kinds: []string{land.ProjectKind.Name}}, nil, 0); err != nil {
		return err
	} else if t.Count == 0 {
		return nil // no land project held yet: they link to the notices when they are loaded
	}
	var keys, ceqrs, bbls []string
	for _, n := range ns {
		_, ks := land.ULURPKeys(n.Title + "\n" + n.Text)
		keys = append(keys, ks...)
		ceqrs = append(ceqrs, ceqrInText.FindAllString(strings.ToUpper(n.Text), -1)...)
		bbls = append(bbls, entity.ExtractPlaces(n.Text).BBLs...)
	}
	if len(keys)+len(ceqrs)+len(bbls) == 0 {
		return nil
	}
	var ps []land.Project
	for _, part := range []struct {
		key    string
		values []string
	}{{land.KeyULURP, keys}, {land.KeyCEQR, ceqrs}, {land.KeyBBL, bbls}} {
		got, err := heldRecords(ctx, env.Records, land.ProjectKind, part.key, part.values)
		if err != nil {
			return err
		}
		ps = append(ps, got...)
	}
	done := map[string]bool{}
	for _, p := range ps {
		if done[p.ID] {
			continue
		}
		done[p.ID] = true
		rule := newLandRule(p)
		var links []land.NoticeLink
		for _, n := range ns {
			if c := rule.judge(n); c != nil {
				links = append(links, c.link())
			}
		}
		landLinkRecords(env, p.ID, links)
	}
	return nil
}

// ceqrInText is the shape of a CEQR number in a notice's text
// ("24DCP123M"), the candidates NoticeLand looks projects up by.
var ceqrInText = regexp.MustCompile(`\b[0-9]{2}[A-Z]{2,6}[0-9]{1,4}[A-Z]?\b`)

func rankLand(method string) int {
	switch method {
	case LandByULURP:
		return 0
	case LandByCEQR:
		return 1
	case LandByBBL:
		return 2
	}
	return 3
}
