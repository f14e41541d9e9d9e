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
	evidence []string
}

func landLinks(ctx context.Context, r search.Reader, p land.Project) ([]land.NoticeLink, error) {
	found := map[string]*landCandidate{}
	var order []string
	consider := func(n record.Notice, method, evidence string) {
		c, ok := found[n.RequestID]
		if !ok {
			c = &landCandidate{n: n, method: method}
			found[n.RequestID] = c
			order = append(order, n.RequestID)
		}
		if rankLand(method) < rankLand(c.method) {
			c.method = method
		}
		if !slices.Contains(c.evidence, evidence) {
			c.evidence = append(c.evidence, evidence)
		}
	}
	search1 := func(text string) ([]record.Notice, error) {
		res, err := r.Search(ctx, search.Query{Text: text, Limit: maxLandCandidates})
		if err != nil {
			return nil, err
		}
		out := make([]record.Notice, 0, len(res.Hits))
		for _, h := range res.Hits {
			out = append(out, h.Notice)
		}
		return out, nil
	}
	for _, a := range p.Actions {
		if a.ULURPKey == "" || len(a.ULURPKey) < 9 {
			continue
		}
		digits, letters := a.ULURPKey[:6], strings.TrimSuffix(a.ULURPKey, "(A)")
		letters = letters[len(letters)-3:]
		re := regexp.MustCompile(`(?i)(^|[^0-9A-Z])([A-Z]\s?)?` + digits + `\s?` + letters + `([^A-Z0-9]|$)`)
		ns, err := search1(`"` + digits + `"`)
		if err != nil {
			return nil, err
		}
		for _, n := range ns {
			if m := re.FindString(n.Title + "\n" + n.Text); m != "" {
				consider(n, LandByULURP, fmt.Sprintf("the notice names application number %s (project action %s)", strings.Trim(m, " .,;:()\n"), a.ULURPNumber))
			}
		}
	}
	if c := strings.ToUpper(strings.TrimSpace(p.Environmental.CEQRNumber)); c != "" {
		ns, err := search1(`"` + c + `"`)
		if err != nil {
			return nil, err
		}
		for _, n := range ns {
			if strings.Contains(strings.ToUpper(n.Text), c) {
				consider(n, LandByCEQR, "the notice names CEQR number "+c)
			}
		}
	}
	// lots: search each block once, keep notices whose extracted BBLs hold a project lot
	lots := map[string]bool{}
	blocks := map[string]bool{}
	for _, l := range p.Lots {
		lots[l.BBL] = true
		blocks[strings.TrimLeft(l.BBL[1:6], "0")] = true
	}
	var bl []string
	for b := range blocks {
		bl = append(bl, b)
	}
	sort.Strings(bl)
	for _, b := range bl {
		ns, err := search1(`"block ` + b + `"`)
		if err != nil {
			return nil, err
		}
		for _, n := range ns {
			for _, bbl := range entity.ExtractPlaces(n.Text).BBLs {
				if lots[bbl] {
					consider(n, LandByBBL, "the notice's block and lot resolve to BBL "+bbl+", a lot of the project")
				}
			}
		}
	}
	hearings := map[string]string{}
	for _, rec := range p.Recommendations {
		if !rec.HearingDate.IsZero() {
			hearings[rec.HearingDate.In(record.NewYork).Format("2006-01-02")] = rec.Body + " hearing"
		}
	}
	for _, m := range p.Milestones {
		if !m.ReviewMeeting.IsZero() {
			hearings[m.ReviewMeeting.In(record.NewYork).Format("2006-01-02")] = m.Milestone
		}
	}
	// hearing dates: a notice of an event on a recorded hearing day that
	// names the project
	if name := strings.TrimSpace(p.Name); len(name) >= minLandName {
		days := make([]string, 0, len(hearings))
		for d := range hearings {
			days = append(days, d)
		}
		sort.Strings(days)
		for _, d := range days {
			day, err := time.ParseInLocation("2006-01-02", d, record.NewYork)
			if err != nil {
				continue
			}
			res, err := r.Search(ctx, search.Query{Text: `"` + strings.ReplaceAll(name, `"`, "") + `"`, EventFrom: day, EventTo: day, Limit: maxLandCandidates})
			if err != nil {
				return nil, err
			}
			for _, h := range res.Hits {
				if strings.Contains(strings.ToLower(h.Notice.Text), strings.ToLower(name)) {
					consider(h.Notice, LandByHearing, "the notice names the project ("+name+") and its event date "+d+" is the date of the recorded "+hearings[d])
				}
			}
		}
	}
	out := []land.NoticeLink{}
	for _, id := range order {
		c := found[id]
		if !c.n.EventDate.IsZero() && c.method != LandByHearing {
			d := c.n.EventDate.In(record.NewYork).Format("2006-01-02")
			if what, ok := hearings[d]; ok {
				c.evidence = append(c.evidence, "the notice's event date "+d+" is the date of the recorded "+what)
			}
		}
		conf := "high"
		if c.method == LandByBBL || c.method == LandByHearing {
			conf = "medium"
		}
		out = append(out, land.NoticeLink{RequestID: id, Method: c.method, Confidence: conf, Evidence: c.evidence})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].RequestID < out[j].RequestID })
	return out, nil
}

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
