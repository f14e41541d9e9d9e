package mcp

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/recordwatch/recordwatch/internal/notices"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/view"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// previewLimit bounds the matches a preview returns.
const previewLimit = 10

// structuredIn is Form 1's watch: a lens and a structured filter.
type structuredIn struct {
	// Lens is required unless Follow is given.
	Lens      string   `json:"lens,omitempty"`
	Q         string   `json:"q,omitempty"`
	Agency    []string `json:"agency,omitempty"`
	Vendor    []string `json:"vendor,omitempty"`
	Borough   []string `json:"borough,omitempty"`
	MinAmount *float64 `json:"min_amount,omitempty"`
	MaxAmount *float64 `json:"max_amount,omitempty"`
	Awards    bool     `json:"awards,omitempty"`
	// The filters plain English names, set directly (watch.Build reads
	// them by the parser's rules).
	Bids        bool     `json:"bids,omitempty"`
	Category    []string `json:"category,omitempty"`
	Requirement []string `json:"requirement,omitempty"`
	Within      string   `json:"within,omitempty"`
	From        string   `json:"from,omitempty"`
	Until       string   `json:"until,omitempty"`
	Description string   `json:"description,omitempty"`
	// Land lens: the land projects' filters (with at most one borough).
	CommunityDistrict string `json:"community_district,omitempty"`
	Procedure         string `json:"procedure,omitempty"`
	Stage             string `json:"stage,omitempty"`
	Action            string `json:"action,omitempty"`
	// Follow names one object instead of a search (no lens or filter).
	Follow *watch.Follow `json:"follow,omitempty"`
}

type structuredCreateIn struct {
	Email   string `json:"email"`
	Cadence string `json:"cadence,omitempty"`
	structuredIn
}

type plainIn struct {
	Request string `json:"request"`
}

type plainCreateIn struct {
	Email   string `json:"email"`
	Request string `json:"request"`
	Cadence string `json:"cadence,omitempty"`
}

// PreviewOut is what a watch would deliver now: the watch service's
// preview with the matched notices as results.
type PreviewOut struct {
	notices.Preview
	// Results are the first matched notices (the meetings lens: those
	// not held as meetings).
	Results []NoticeRef `json:"results"`
}

var watchLensEnum = []any{record.LensMoney, record.LensLand, record.LensProperty, record.LensRules, record.LensMeetings, record.LensPeople, watch.LensEntity}

func shapeStructured(s *jsonschema.Schema) {
	p := prop(s, "lens")
	p.Enum = watchLensEnum
	p.Description = "What to follow: money (procurement), land, property, rules, meetings, people, or entity (one vendor or agency everywhere)."
	bounded(s, "q", search.MaxTextLen, `Keywords, any of which may match; "quoted phrases"; -word excludes.`)
	for _, name := range []string{"agency", "vendor", "borough"} {
		p := prop(s, name)
		p.MaxItems = ptr(watch.MaxValues)
		p.Items = &jsonschema.Schema{Type: "string", MaxLength: ptr(record.MaxNameLen)}
	}
	prop(s, "agency").Description = "Agencies as printed in records (Parks and Recreation) or short forms (DOT, HPD)."
	prop(s, "vendor").Description = "Vendors; suffix and case variants match."
	prop(s, "borough").Description = "Manhattan, Brooklyn, Queens, Bronx or Staten Island."
	prop(s, "borough").Items.Enum = stringEnum(watch.Boroughs)
	prop(s, "min_amount").Minimum = ptr(0.0)
	prop(s, "min_amount").Description = "Minimum valid award amount in dollars (money lens: an award watch)."
	prop(s, "max_amount").ExclusiveMinimum = ptr(0.0)
	prop(s, "max_amount").Description = "Maximum valid award amount in dollars."
	// amounts at or above record.MaxValidAmount are data-entry errors: the
	// watch filter refuses them as bounds (watch.Filter.Validate)
	prop(s, "min_amount").ExclusiveMaximum = ptr(float64(record.MaxValidAmount))
	prop(s, "max_amount").ExclusiveMaximum = ptr(float64(record.MaxValidAmount))
	prop(s, "awards").Description = "Money lens: award notices instead of open solicitations."
	prop(s, "bids").Description = "Money lens: stay on open solicitations even with an amount bound (the amount then filters the amounts solicitations state); not with awards."
	enumList := func(name string, values []string, desc string) {
		p := prop(s, name)
		p.MaxItems = ptr(watch.MaxValues)
		enum := make([]any, len(values))
		for i, v := range values {
			enum[i] = v
		}
		p.Items = &jsonschema.Schema{Type: "string", Enum: enum}
		p.Description = desc
	}
	enumList("category", watch.CategoryNames, "Money lens: City Record procurement categories, any of which may match "+
		"(a notice filed under no category counts when its words say one).")
	enumList("requirement", watch.RequirementNames, "Money lens: special requirements the notice text mentions, any of which may match: "+
		"mwbe (M/WBE participation), small_business.")
	bounded(s, "within", 20, `A moving window ahead from each digest day, such as "30 days", "2 weeks", "3 months" (at most 3 years): `+
		"due dates of open solicitations (money lens, not awards) or dates of hearings (meetings lens).")
	dateProp(s, "from", "First day (YYYY-MM-DD) of the due date (open solicitations), hearing date (meetings) or publication date (everything else).")
	dateProp(s, "until", "Last day (YYYY-MM-DD) of the same date as from.")
	bounded(s, "description", record.MaxRequestTextLen, "Optional plain-English description kept with the watch.")
	bounded(s, "community_district", 20, "Land lens: the land projects' community district, a borough letter and a number (M11, K03).")
	bounded(s, "procedure", 20, "Land lens: the land projects' review procedure (ulurp, non_ulurp, elurp, unknown).")
	bounded(s, "stage", 40, "Land lens: the stage the land projects are at (their decision path).")
	bounded(s, "action", 2, "Land lens: an action code of the land projects (ZM zoning map, ZR zoning text …).")
	shapeFollow(s, watch.FollowKinds)
}

// shapeFollow describes the follow object of a form's watch tools.
func shapeFollow(s *jsonschema.Schema, kinds []string) {
	f := prop(s, "follow")
	f.Description = "Follow one object instead of a search (give no lens or filter with it): a mail when one of its followed fields " +
		"changes, saying old → new (a notice's due date, amount, award and vendor, a new notice in its matter; a contract's payments and " +
		"amendments; a land project's milestone, stage, hearing, vote or decision; a meeting's date, time, place, cancellation, minutes). " +
		"Nothing is sent for what it holds now."
	prop(f, "kind").Enum = stringEnum(kinds)
	prop(f, "kind").Description = "notice (request id), matter (PIN), contract (contract ID), land_project (ZAP project id), meeting (meeting id)."
	prop(f, "id").MinLength = ptr(1)
	prop(f, "id").MaxLength = ptr(record.MaxNameLen)
}

func shapePlain(s *jsonschema.Schema) {
	p := prop(s, "request")
	p.MinLength = ptr(1)
	p.MaxLength = ptr(record.MaxRequestTextLen)
	p.Description = `What to watch, in plain English, e.g. "construction contract awards over $500k from Parks, not Queens"; ` +
		`or one notice or procurement matter to follow, e.g. "follow PIN 85619B0012" or "follow notice 20240115001" (a mail when a field changes, old → new).`
}

func shapeCadence(s *jsonschema.Schema) {
	p := prop(s, "cadence")
	p.Enum = []any{watch.CadenceDaily, watch.CadenceWeekly}
	p.Description = "How often digests go out: daily (default; mail only on days with something new, and a short note after two quiet weeks) " +
		"or weekly (every " + watch.WeeklyDay.String() + ", with a short check-in when nothing new matched). Changeable later through the manage link."
}

func shapeEmail(s *jsonschema.Schema) {
	p := prop(s, "email")
	p.MaxLength = ptr(254)
	p.Description = "The address the watch's mail goes to."
}

// onlyFollow refuses a follow given with a lens or a filter.
func (in structuredIn) onlyFollow() error {
	if in.Lens != "" || in.Q != "" || len(in.Agency)+len(in.Vendor)+len(in.Borough)+len(in.Category)+len(in.Requirement) > 0 ||
		in.MinAmount != nil || in.MaxAmount != nil || in.Awards || in.Bids || in.Within != "" || in.From != "" || in.Until != "" ||
		in.CommunityDistrict != "" || in.Procedure != "" || in.Stage != "" || in.Action != "" {
		return record.Invalid("follow", "follow names one object: give it without a lens or a filter")
	}
	return nil
}

func (d *Deps) build(in structuredIn) (watch.Understanding, error) {
	return watch.Build(watch.Structured{Lens: in.Lens, Q: in.Q, Agencies: in.Agency, Vendors: in.Vendor, Boroughs: in.Borough,
		Min: in.MinAmount, Max: in.MaxAmount, Awards: in.Awards, Bids: in.Bids, Categories: in.Category, Requirements: in.Requirement,
		Within: in.Within, From: in.From, Until: in.Until, CommunityDistrict: in.CommunityDistrict, Procedure: in.Procedure, Stage: in.Stage,
		Action: in.Action, Now: d.now()}, d.Crosswalk, 1)
}

func (d *Deps) understand(text string, form int) (watch.Understanding, error) {
	// control characters are refused, not read as spaces: the request's
	// understanding can reach a mail
	if err := watch.CheckText("request", text, true); err != nil {
		return watch.Understanding{}, err
	}
	return watch.Parse(text, watch.ParseOptions{Crosswalk: d.Crosswalk, Form: form, Now: d.now()})
}

func (d *Deps) preview(ctx context.Context, u watch.Understanding, form int) (PreviewOut, error) {
	if u.Follow != nil {
		return d.previewFollow(ctx, *u.Follow, u.Notes, form)
	}
	return d.previewRun(ctx, u, form)
}

// previewFollow is a follow's preview: its object's fields now.
func (d *Deps) previewFollow(ctx context.Context, f watch.Follow, notes []string, form int) (PreviewOut, error) {
	v, f, scope, err := d.watchReaders().PreviewFollow(ctx, f, form, view.Links{Base: d.BaseURL, Form: form})
	if err != nil {
		return PreviewOut{}, err
	}
	return PreviewOut{Preview: notices.FollowPreview(v, f, scope, notes), Results: []NoticeRef{}}, nil
}

// previewRun is a search watch's preview: its one answer
// (notices.Service.Filter, what its digests deliver) with the first
// matched notices.
func (d *Deps) previewRun(ctx context.Context, u watch.Understanding, form int) (PreviewOut, error) {
	if d.Notices == nil {
		return PreviewOut{}, record.Errorf(record.EUNAVAILABLE, "previews are not available on this deployment")
	}
	a, err := d.Notices.Filter(ctx, u.Filter, notices.AnswerOptions{Form: form, Links: view.Links{Base: d.BaseURL, Form: form}})
	if err != nil {
		return PreviewOut{}, err
	}
	out := PreviewOut{Preview: notices.MatchPreview(u, a, d.BaseURL, previewLimit, form), Results: []NoticeRef{}}
	for i, h := range a.Hits {
		if i == previewLimit {
			break
		}
		out.Results = append(out.Results, d.ref(h.Notice))
	}
	return out, nil
}

// watchReaders are what a follow reads: the engine and the services.
func (d *Deps) watchReaders() watch.Readers {
	return watch.Readers{Search: d.Search, People: d.People, Meetings: d.Meetings, Procure: d.Procure, Land: d.Land}
}

func (d *Deps) create(ctx context.Context, req watch.Request) (watch.Created, error) {
	if d.Watches == nil {
		return watch.Created{}, record.Errorf(record.EUNAVAILABLE, "watches are not available on this deployment")
	}
	if err := watch.CheckText("email", req.Email, false); err != nil {
		return watch.Created{}, err
	}
	req.Client = clientOf(ctx)
	req.Channel = watch.ChannelMCP
	if err := d.Watches.Allow(ctx, req.Client); err != nil {
		return watch.Created{}, err
	}
	o, err := d.Watches.Subscribe(ctx, req)
	if err != nil {
		return watch.Created{}, err
	}
	return o.Created(nil, nil), nil
}

const previewDesc = "Show what a standing email watch would deliver now, without subscribing: the filter as understood " +
	"(with a plain-English scope), the current matches (bounded), and the search scope. Zero matches do not mean no record exists. " +
	"A people-lens watch with an agency also follows the agency's roster releases: roster lists, per agency, the releases held " +
	"and the releases that change its leader (each dated; none says who holds the role now)."

func previewWatchForm1(d *Deps) Tool {
	t := newTool(d, "preview_watch", "Preview a watch", ClassRead,
		previewDesc+" Takes a lens and a structured filter.", []int{1}, shapeStructured,
		func(ctx context.Context, d *Deps, in structuredIn) (PreviewOut, error) {
			if in.Follow != nil {
				if err := in.onlyFollow(); err != nil {
					return PreviewOut{}, err
				}
				return d.previewFollow(ctx, *in.Follow, nil, 1)
			}
			u, err := d.build(in)
			if err != nil {
				return PreviewOut{}, err
			}
			return d.previewRun(ctx, u, 1)
		})
	t.Limits = []string{"at most 10 matches shown", "q: at most 500 characters", "at most 10 agencies, vendors or boroughs"}
	t.Examples = []Example{{"Parks construction awards of at least $1 million", map[string]any{"lens": "money", "q": "construction", "agency": []string{"Parks"}, "min_amount": 1000000}},
		{"Construction bids over $100,000 due in the next 3 months", map[string]any{"lens": "money", "bids": true, "min_amount": 100000, "category": []string{"construction"}, "within": "3 months"}}}
	return t
}

func previewWatchForm2(d *Deps) Tool {
	t := newTool(d, "preview_watch", "Preview a watch", ClassRead,
		previewDesc+" Takes the request in plain English and says how it was understood.", []int{2}, shapePlain,
		func(ctx context.Context, d *Deps, in plainIn) (PreviewOut, error) {
			u, err := d.understand(in.Request, 2)
			if err != nil {
				return PreviewOut{}, err
			}
			return d.preview(ctx, u, 2)
		})
	t.Limits = []string{"request: at most 600 characters", "at most 10 matches shown"}
	t.Examples = []Example{{"Plain English", map[string]any{"request": "construction contract awards over $500k from Parks, not Queens"}}}
	return t
}

func createWatchForm1(d *Deps) Tool {
	t := newTool(d, "create_watch", "Create an email watch", ClassMutation,
		"Create a standing email watch from a lens and a structured filter (optional plain-English description). "+
			"It is active at once: a welcome email states its scope and carries manage and unsubscribe links. "+
			"Watches are managed only through those emailed links; knowing an address never reveals or controls its watches. "+
			"Per-client and daily ceilings apply.",
		[]int{1}, func(s *jsonschema.Schema) { shapeStructured(s); shapeEmail(s); shapeCadence(s) },
		func(ctx context.Context, d *Deps, in structuredCreateIn) (watch.Created, error) {
			if in.Follow != nil {
				if err := in.onlyFollow(); err != nil {
					return watch.Created{}, err
				}
				return d.create(ctx, watch.Request{Email: in.Email, Follow: in.Follow, Description: in.Description, Cadence: in.Cadence})
			}
			u, err := d.build(in.structuredIn)
			if err != nil {
				return watch.Created{}, err
			}
			return d.create(ctx, watch.Request{Email: in.Email, Filter: &u.Filter, Agencies: u.Agencies, Description: in.Description, Cadence: in.Cadence})
		})
	t.Limits = []string{"per-client and daily ceilings on subscription requests", "one welcome mail per watch"}
	t.Examples = []Example{{"Parks construction awards, weekly", map[string]any{"email": "reporter@example.org", "lens": "money", "q": "construction", "agency": []string{"Parks"}, "min_amount": 1000000, "cadence": "weekly"}}}
	return t
}

func createWatchForm2(d *Deps) Tool {
	t := newTool(d, "create_watch", "Request an email watch", ClassMutation,
		"Request a standing email watch in plain English, with double opt-in: a confirmation email describes how the "+
			"request was understood, and nothing is stored until its link is followed; digests start only then. "+
			"Watches are managed only through emailed links. Per-client and daily ceilings apply.",
		[]int{2}, func(s *jsonschema.Schema) { shapePlain(s); shapeEmail(s); shapeCadence(s) },
		func(ctx context.Context, d *Deps, in plainCreateIn) (watch.Created, error) {
			if _, err := d.understand(in.Request, 2); err != nil {
				return watch.Created{}, err
			}
			return d.create(ctx, watch.Request{Email: in.Email, Text: in.Request, Cadence: in.Cadence})
		})
	t.Limits = []string{"request: at most 600 characters", "per-client and daily ceilings on subscription requests"}
	t.Examples = []Example{{"Plain English", map[string]any{"email": "resident@example.org", "request": "rezonings in the Bronx"}},
		{"Weekly", map[string]any{"email": "resident@example.org", "request": "rezonings in the Bronx", "cadence": "weekly"}}}
	return t
}
