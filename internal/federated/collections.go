package federated

import (
	"context"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/view"
)

// collectionKinds are the object kinds each collection returns.
var collectionKinds = map[string][]string{
	CollectionNotices: {KindNotice}, CollectionAgencies: {KindAgency}, CollectionCommunityBoards: {KindCommunityBoard},
	CollectionVendors: {KindVendor}, CollectionContracts: {KindContract}, CollectionLandProjects: {KindLandProject},
	CollectionMeetings: {KindMeeting}, CollectionPeople: {KindPerson, KindOrganization}, CollectionPayroll: {KindPayrollRow},
	CollectionPayments: {KindPayment},
}

// matchedOn documents, per collection, what the query is compared with.
var matchedOn = map[string]string{
	CollectionNotices: "full text of City Record notices (keywords OR-matched, phrases, exclusions; the search_notices rules), " +
		"and the exact request id; the other collections link from the 100 newest matched notices",
	CollectionAgencies: "the crosswalk's one rule for a named agency (canonical id, printed name, reviewed short form, nickname, " +
		"acronym, family) on the whole query or on each short form typed in capitals; then every query word among the words " +
		"of a canonical agency name. The crosswalk is not an official agency registry",
	CollectionCommunityBoards: "every query word among the words of a community board's name as the meeting sources print it " +
		`("CB" reads as "community board"); boards are those whose meetings are held`,
	CollectionVendors: "the vendor name stem of the whole query (suffix and case variants meet), held in award notices, " +
		"registered contracts or as the payee of payments; then vendor stems holding every query word, among the stems of the " +
		"matched notices, of the registered contracts and of the payees (each read when at most 20,000 rows are held)",
	CollectionContracts: "exact contract ID or row id, exact PIN or 10-character base PIN, the vendor stem of the query, and " +
		"(related) the agencies the query resolved to and the registrations of the matched notices (the same PIN, or the " +
		"notice the source joined them to)",
	CollectionLandProjects: "exact ZAP project id, application (ULURP) number, BBL and CEQR number, and (related) a community " +
		"district such as M11 or an application number printed in a matched notice; project names are not keys, so a name word " +
		"finds a project only through a notice that prints its application number",
	CollectionMeetings: "exact meeting id, the body name as a whole (committee or board), and (related) the agencies the query " +
		"resolved to and meetings announced by a matched notice; meeting titles are not keys",
	CollectionPeople: "exact row id, every query word among the name, acronym and name-variant words of a row of the newest " +
		"roster release, the organization the resolved agency is and (related) the people its roster row prints; names never " +
		"create identity",
	CollectionPayroll: "exact row id, a name (one word, or a full name in either order) or a title as printed, and (related) " +
		"the agencies the query resolved to; a payroll name is not matched to a person",
	CollectionPayments: "Checkbook NYC spending payments by exact contract id (the payment's own field, whether or not the " +
		"registration is held), exact PIN, the payee's name stem of the query, and (related) the agencies the query resolved to; " +
		"payees redacted for privacy carry no name and are never matched by one",
}

// collectionSources are the coverage rows of a collection's record types.
func collectionSources(collection string, cov []record.SourceCoverage) []record.SourceCoverage {
	types := map[string][]string{
		CollectionNotices: {"notice"}, CollectionCommunityBoards: {meeting.Kind.Name}, CollectionVendors: {"notice", procure.ContractKind.Name, procure.KindPayment},
		CollectionContracts: {procure.ContractKind.Name}, CollectionLandProjects: {land.ProjectKind.Name},
		CollectionMeetings: {meeting.Kind.Name}, CollectionPeople: {people.KindPerson, people.KindOrganization},
		CollectionPayroll: {procure.PayrollKind.Name}, CollectionPayments: {procure.KindPayment},
	}[collection]
	var out []record.SourceCoverage
	for _, c := range cov {
		if slices.Contains(types, c.RecordType) {
			out = append(out, c)
		}
	}
	return out
}

// held reports whether a collection has records to search: agencies are the
// crosswalk's (always held); the others need a source row.
func held(collection string, sources []record.SourceCoverage) bool {
	if collection == CollectionAgencies {
		return true
	}
	for _, c := range sources {
		if c.Records > 0 {
			return true
		}
	}
	return false
}

// understand reads the query for the key collections: its words (without
// exclusions and synonyms), the agencies it names and its vendor stem.
func (s *Service) understand(q string, k search.Keywords) Understood {
	u := Understood{Excluded: k.Excluded, Agencies: []entity.Resolution{}, Words: []string{}}
	for _, w := range search.Words(wholeOf(q)) {
		if !slices.Contains(u.Words, w) {
			u.Words = append(u.Words, w)
		}
	}
	whole := wholeOf(q)
	if r, err := s.Crosswalk.ResolveName("q", whole); err == nil && r.Method != entity.MethodOwn {
		u.Agencies = append(u.Agencies, r)
	} else {
		u.Agencies = append(u.Agencies, s.Crosswalk.AgencyShortForms(q)...)
	}
	if st := entity.VendorStem(whole); entity.StemLongEnough(st) {
		u.VendorStem = st
	}
	return u
}

// wholeOf is the query without its exclusions (-word, -"phrase") and
// quote marks.
func wholeOf(q string) string {
	var keep []string
	skip := false // inside an excluded "phrase"
	for _, f := range strings.Fields(q) {
		if skip {
			skip = !strings.ContainsAny(f, `"“”`)
			continue
		}
		if strings.HasPrefix(f, "-") && len(f) > 1 {
			if rest := strings.TrimPrefix(f, "-"); strings.IndexAny(rest, `"“”`) == 0 {
				skip = !strings.ContainsAny(strings.TrimLeft(rest, `"“”`), `"“”`)
			}
			continue
		}
		if f = strings.Trim(f, `"“”`); f != "" {
			keep = append(keep, f)
		}
	}
	return strings.Join(keep, " ")
}

// agencyIDs are the canonical ids the query resolved to.
func (u Understood) agencyIDs() []string {
	var ids []string
	for _, r := range u.Agencies {
		for _, id := range r.IDs {
			if id != "" && !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
	}
	return ids
}

// run is one federated search in progress.
type run struct {
	s       *Service
	u       Understood
	k       search.Keywords
	q       string
	depth   int
	notices []record.Notice // the notices matched, best first
}

func (r *run) records() (search.Records, error) {
	if r.s.Records == nil {
		return nil, record.Errorf(record.EUNAVAILABLE, "this deployment's search engine holds no records of this collection")
	}
	return r.s.Records, nil
}

func (r *run) collection(ctx context.Context, l string) (*collectionOut, error) {
	switch l {
	case CollectionNotices:
		return r.noticesCollection(ctx)
	case CollectionAgencies:
		return r.agenciesCollection()
	case CollectionCommunityBoards:
		return r.boardsCollection(ctx)
	case CollectionVendors:
		return r.vendorsCollection(ctx)
	case CollectionContracts:
		return r.contractsCollection(ctx)
	case CollectionLandProjects:
		return r.landCollection(ctx)
	case CollectionMeetings:
		return r.meetingsCollection(ctx)
	case CollectionPeople:
		return r.peopleCollection(ctx)
	case CollectionPayroll:
		return r.payrollCollection(ctx)
	case CollectionPayments:
		return r.paymentsCollection(ctx)
	}
	return nil, record.Invalid("collections", "unknown collection %q", l)
}

// excluded reports whether a title holds an excluded word or phrase (the
// exclusions of the query apply to every collection's titles).
func (r *run) excluded(title string) bool {
	if len(r.k.Excluded) == 0 {
		return false
	}
	t := " " + strings.Join(search.Words(title), " ") + " "
	for _, x := range r.k.Excluded {
		if strings.Contains(t, " "+x+" ") {
			return true
		}
	}
	return false
}

// add appends a candidate unless its title is excluded or its id is
// already there (the first, stronger, match wins; the collection's matched
// count loses the duplicate).
func (r *run) add(o *collectionOut, c cand) {
	for _, h := range o.cands {
		if h.Kind == c.Kind && h.ID == c.ID {
			o.dups++
			return
		}
	}
	if r.excluded(c.Title) {
		o.dropped++
		return
	}
	c.tier = tierRank[c.Match.Tier]
	o.cands = append(o.cands, c)
}

func (r *run) link(path string) string { return r.s.Links.Base + path }

// --- notices ---

var requestIDRE = regexp.MustCompile(`^[0-9]{6,14}$`)

func (r *run) noticesCollection(ctx context.Context) (*collectionOut, error) {
	if r.s.Notices == nil {
		return nil, record.Errorf(record.EUNAVAILABLE, "no notice index on this deployment")
	}
	o := &collectionOut{}
	notice := func(n record.Notice, tier, rule string, score float64) cand {
		c := cand{Result: Result{Kind: KindNotice, Collection: CollectionNotices, ID: n.RequestID, Title: n.Title, Source: n.Source,
			Date: day(n.StartDate), Route: "/api/notices/" + n.RequestID, Permalink: r.s.Links.Notice(n.RequestID),
			OfficialURL: n.OfficialURL, Match: Match{Tier: tier, Rule: rule, Score: score}}}
		c.NoticeFields = r.s.noticeFields(n)
		if c.Date != "" {
			c.DateLabel = "published"
		}
		return c
	}
	whole := wholeOf(r.q)
	if requestIDRE.MatchString(whole) {
		n, err := r.s.Notices.Get(ctx, whole)
		switch {
		case err == nil:
			r.add(o, notice(n, TierExact, "exact request id", 1))
			r.notices = append(r.notices, n)
			o.matched++
		case record.ErrorCode(err) != record.ENOTFOUND:
			return nil, err
		}
	}
	// always the first MaxDepth notices, whatever the page: a deeper page
	// must not reorder a shallower one
	res, err := r.s.Notices.Search(ctx, search.Query{Text: r.q, Sort: search.SortRelevance, Limit: min(MaxDepth, search.MaxLimit), Facets: true, ExactCount: true})
	if err != nil {
		return nil, err
	}
	best := 0.0
	for _, h := range res.Hits {
		best = max(best, h.Score)
	}
	for _, h := range res.Hits {
		score := 1.0
		if best > 0 {
			score = h.Score / best
		}
		r.add(o, notice(h.Notice, TierName, "full text", round3(score)))
	}
	o.matched += res.Total
	// the other collections link from the newest matched notices (at most
	// MaxDepth): an order every engine gives alike, where relevance
	// differs by engine statistics
	linked := res.Hits
	if res.Total > len(res.Hits) {
		nr, err := r.s.Notices.Search(ctx, search.Query{Text: r.q, Sort: search.SortNewest, Limit: min(MaxDepth, search.MaxLimit)})
		if err != nil {
			return nil, err
		}
		linked = nr.Hits
	}
	for _, h := range linked {
		if !slices.ContainsFunc(r.notices, func(n record.Notice) bool { return n.RequestID == h.Notice.RequestID }) {
			r.notices = append(r.notices, h.Notice)
		}
	}
	var by []string
	for _, f := range res.Facets[search.FacetLens] {
		by = append(by, f.Value+" "+itoa(f.Count))
	}
	if len(by) > 0 {
		o.note = "matched notices by notice lens: " + strings.Join(by, ", ")
	}
	o.browse = []string{"/api/search?" + url.Values{"q": {r.q}}.Encode()}
	for _, id := range r.u.agencyIDs() {
		o.browse = append(o.browse, "/api/search?"+url.Values{"agency": {id}}.Encode())
	}
	return o, nil
}

// --- agencies ---

// agencyStop are words too common in agency names to match by alone.
var agencyStop = map[string]bool{"of": true, "the": true, "and": true, "for": true, "nyc": true, "new": true, "york": true,
	"city": true, "department": true, "dept": true, "office": true, "mayors": true}

func (r *run) agenciesCollection() (*collectionOut, error) {
	o := &collectionOut{}
	cw := r.s.Crosswalk
	agency := func(id, name, tier, rule string, score float64) cand {
		return cand{Result: Result{Kind: KindAgency, Collection: CollectionAgencies, ID: id, Title: name, Source: "crosswalk",
			SourceLabel: "Recordwatch agency crosswalk (a reviewed mapping, not an official registry)",
			Route:       "/api/agencies/" + id, Permalink: r.s.Links.Agency(id, name), Match: Match{Tier: tier, Rule: rule, Score: score}}}
	}
	for _, res := range r.u.Agencies {
		for _, id := range res.IDs {
			name := res.Name
			if a, ok := cw.Agency(id); ok {
				name = a.Name
			}
			r.add(o, agency(id, name, TierExact, "agency "+res.Method+": "+strings.TrimSpace(res.Input), 1))
		}
	}
	var words []string
	for _, w := range r.u.Words {
		if !agencyStop[w] && len(w) > 1 {
			words = append(words, strings.ToUpper(w))
		}
	}
	if len(words) > 0 {
		type hit struct {
			a     entity.Agency
			score float64
		}
		var hits []hit
		for _, a := range cw.Agencies() {
			nw := strings.Fields(entity.AgencyKey(a.Name))
			all := true
			for _, w := range words {
				if !slices.Contains(nw, w) {
					all = false
					break
				}
			}
			if all {
				hits = append(hits, hit{a, float64(len(words)) / float64(len(nw))})
			}
		}
		sort.SliceStable(hits, func(i, j int) bool { return hits[i].score > hits[j].score })
		for _, h := range hits {
			r.add(o, agency(h.a.ID, h.a.Name, TierName, "every query word in the agency name", round3(min(h.score, 1))))
		}
	}
	o.matched, o.dups, o.dropped = len(o.cands), 0, 0
	o.browse = []string{"/agencies"}
	return o, nil
}

// --- community boards ---

func (r *run) boardsCollection(ctx context.Context) (*collectionOut, error) {
	rs, err := r.records()
	if err != nil {
		return nil, err
	}
	o := &collectionOut{}
	var words []string
	for _, w := range r.u.Words {
		switch w {
		case "cb":
			words = append(words, "community", "board")
		case "bd":
			words = append(words, "board")
		default:
			words = append(words, meeting.BodyKey(w))
		}
	}
	t, err := search.TotalsOf(ctx, rs, meeting.Kind, search.RecordQuery{Keys: map[string][]string{meeting.KeyBodyKind: {meeting.BodyCommunityBoard}}},
		[]string{meeting.KeyBody}, 0)
	if err != nil {
		return nil, err
	}
	whole := meeting.BodyKey(strings.Join(words, " "))
	type hit struct {
		b          search.Bucket
		tier, rule string
		score      float64
	}
	var hits []hit
	for _, b := range t.Groups[meeting.KeyBody] {
		parts := strings.Split(b.Value, "-")
		all := len(words) > 0
		for _, w := range words {
			if !slices.Contains(parts, w) {
				all = false
				break
			}
		}
		if !all {
			continue
		}
		h := hit{b, TierName, "every query word in the board's name", round3(min(float64(len(words))/float64(len(parts)), 1))}
		if b.Value == whole {
			h.tier, h.rule, h.score = TierExact, "the board's name", 1
		}
		hits = append(hits, h)
	}
	// every board is scored before the first depth are read, so a deeper
	// page never reorders a shallower one
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].tier != hits[j].tier {
			return tierRank[hits[i].tier] < tierRank[hits[j].tier]
		}
		if hits[i].score != hits[j].score {
			return hits[i].score > hits[j].score
		}
		return hits[i].b.Value < hits[j].b.Value
	})
	o.matched = len(hits)
	for _, h := range hits[:min(len(hits), r.depth)] {
		p, err := search.Find(ctx, rs, meeting.Kind, search.RecordQuery{Keys: map[string][]string{meeting.KeyBody: {h.b.Value}}, Sort: search.RecordSortDateDesc, Limit: 1})
		if err != nil {
			return nil, err
		}
		q := url.Values{"body": {h.b.Value}}.Encode()
		c := cand{Result: Result{Kind: KindCommunityBoard, Collection: CollectionCommunityBoards, ID: h.b.Value, Title: h.b.Value,
			Route: "/api/meetings?" + q, Permalink: r.link("/meetings?" + q),
			Match: Match{Tier: h.tier, Rule: h.rule + " (" + itoa(h.b.Count) + " meetings held)", Score: h.score}}}
		if len(p.Items) > 0 {
			m := p.Items[0]
			c.Title, c.Source, c.SourceLabel, c.ObservedAt = m.Body, m.Source, m.SourceLabel, m.Observed.At
		}
		r.add(o, c)
	}
	if o.matched > 0 {
		o.note = "a board's route lists its meetings in the next 31 days; add from and to for other dates"
	}
	return o, nil
}

// --- vendors ---

func (r *run) vendorsCollection(ctx context.Context) (*collectionOut, error) {
	o := &collectionOut{}
	vendor := func(stem, name, tier, rule string, score float64) cand {
		if name == "" {
			name = stem
		}
		slug := entity.StemSlug(stem)
		return cand{Result: Result{Kind: KindVendor, Collection: CollectionVendors, ID: slug, Title: name, Source: "vendor_stem",
			SourceLabel: "vendor name stem of award notices, registered contracts and payees",
			Route:       "/api/vendors/" + slug, Permalink: r.s.Links.Vendor(stem, name), Match: Match{Tier: tier, Rule: rule, Score: score}}}
	}
	if st := r.u.VendorStem; st != "" {
		n := 0
		name := ""
		if r.s.Notices != nil {
			res, err := r.s.Notices.Search(ctx, search.Query{VendorStems: []string{st}, Sort: search.SortNewest, Limit: 1, ExactCount: true})
			if err != nil {
				return nil, err
			}
			n += res.Total
			if len(res.Hits) > 0 {
				name = strings.TrimSpace(res.Hits[0].Notice.VendorName)
			}
		}
		if r.s.Records != nil {
			p, err := search.Find(ctx, r.s.Records, procure.ContractKind, search.RecordQuery{Keys: map[string][]string{search.KeyVendorStem: {st}}, Sort: search.RecordSortID, Limit: 1})
			if err != nil {
				return nil, err
			}
			n += p.Total
			if name == "" && len(p.Items) > 0 {
				name = strings.TrimSpace(p.Items[0].VendorName)
			}
			pays, err := search.Find(ctx, r.s.Records, procure.PaymentKind, search.RecordQuery{Kinds: []string{procure.KindPayment},
				Keys: map[string][]string{search.KeyVendorStem: {st}}, Sort: search.RecordSortID, Limit: 1})
			if err != nil {
				return nil, err
			}
			n += pays.Total
			if name == "" && len(pays.Items) > 0 {
				name = strings.TrimSpace(pays.Items[0].VendorName)
			}
		}
		if n > 0 {
			r.add(o, vendor(st, name, TierExact, "vendor name stem "+st+" ("+itoa(n)+" notices, contract rows and payments)", 1))
		}
	}
	words := r.u.Words
	match := func(stem string) (float64, bool) {
		sw := search.Words(stem)
		if len(words) == 0 || len(sw) == 0 {
			return 0, false
		}
		for _, w := range words {
			if !slices.Contains(sw, w) {
				return 0, false
			}
		}
		return float64(len(words)) / float64(len(sw)), true
	}
	type hit struct {
		stem, name string
		score      float64
	}
	var hits []hit
	seen := map[string]bool{r.u.VendorStem: true}
	for _, n := range r.notices {
		if n.VendorStem == "" || seen[n.VendorStem] {
			continue
		}
		if sc, ok := match(n.VendorStem); ok {
			seen[n.VendorStem] = true
			hits = append(hits, hit{n.VendorStem, strings.TrimSpace(n.VendorName), sc})
		}
	}
	if r.s.Records != nil {
		// the stems of every registered contract, when few enough are held
		// to read them per search
		held, err := search.Find(ctx, r.s.Records, procure.ContractKind, search.RecordQuery{Sort: search.RecordSortID, Limit: 1})
		if err != nil {
			return nil, err
		}
		var t search.Totals
		if held.Total <= maxStemScan {
			if t, err = search.TotalsOf(ctx, r.s.Records, procure.ContractKind, search.RecordQuery{}, []string{search.KeyVendorStem}, 0); err != nil {
				return nil, err
			}
		} else {
			o.note = "more than " + itoa(maxStemScan) + " contract rows are held: name words were matched against the vendor stems of the notices this search matched only; a whole vendor name still matches by stem"
		}
		// and the payees' stems, when few enough payments are held
		pays, err := search.Find(ctx, r.s.Records, procure.PaymentKind, search.RecordQuery{Kinds: []string{procure.KindPayment}, Sort: search.RecordSortID, Limit: 1})
		if err != nil {
			return nil, err
		}
		if pays.Total <= maxStemScan {
			pt, err := search.TotalsOf(ctx, r.s.Records, procure.PaymentKind, search.RecordQuery{Kinds: []string{procure.KindPayment}}, []string{search.KeyVendorStem}, 0)
			if err != nil {
				return nil, err
			}
			t.Groups = map[string][]search.Bucket{search.KeyVendorStem: append(slices.Clone(t.Groups[search.KeyVendorStem]), pt.Groups[search.KeyVendorStem]...)}
		} else if o.note == "" {
			o.note = "more than " + itoa(maxStemScan) + " payments are held: name words were not matched against the payees' stems; a whole vendor name still matches by stem"
		}
		for _, b := range t.Groups[search.KeyVendorStem] {
			if seen[b.Value] {
				continue
			}
			if sc, ok := match(b.Value); ok {
				seen[b.Value] = true
				hits = append(hits, hit{b.Value, "", sc})
			}
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].score != hits[j].score {
			return hits[i].score > hits[j].score
		}
		return hits[i].stem < hits[j].stem
	})
	for _, h := range hits {
		r.add(o, vendor(h.stem, h.name, TierName, "every query word in the vendor name stem", round3(min(h.score, 1))))
	}
	o.matched, o.dups, o.dropped = len(o.cands), 0, 0
	if len(o.cands) > r.depth {
		o.cands = o.cands[:r.depth]
	}
	return o, nil
}

// maxStemScan bounds the registered contracts whose vendor stems one
// search reads for name words.
const maxStemScan = 20000

// --- contracts ---

func (r *run) contractsCollection(ctx context.Context) (*collectionOut, error) {
	rs, err := r.records()
	if err != nil {
		return nil, err
	}
	o := &collectionOut{}
	whole := wholeOf(r.q)
	type sub struct {
		q          search.RecordQuery
		tier, rule string
		sort       string
		browse     string
	}
	var subs []sub
	if whole != "" && !strings.Contains(whole, " ") {
		subs = append(subs,
			sub{q: search.RecordQuery{IDs: []string{whole}}, tier: TierExact, rule: "exact row id", sort: search.RecordSortID},
			sub{q: search.RecordQuery{Keys: map[string][]string{search.KeyContractID: uniq(whole, strings.ToUpper(whole))}}, tier: TierExact, rule: "exact contract ID", sort: search.RecordSortID})
	}
	if p := entity.NormalizePIN(whole); p != "" && !entity.JunkPIN(p) && len(p) >= 10 {
		if len(p) == 10 && entity.PINBase(p+"001") == p {
			subs = append(subs, sub{q: search.RecordQuery{Keys: map[string][]string{search.KeyPINBase: {p}}}, tier: TierExact, rule: "base PIN", sort: search.RecordSortDateDesc})
		} else {
			subs = append(subs, sub{q: search.RecordQuery{Keys: map[string][]string{search.KeyPIN: {p}}}, tier: TierExact, rule: "exact PIN", sort: search.RecordSortDateDesc})
		}
	}
	if st := r.u.VendorStem; st != "" {
		subs = append(subs, sub{search.RecordQuery{Keys: map[string][]string{search.KeyVendorStem: {st}}}, TierName, "vendor name stem " + st, search.RecordSortDateDesc,
			"/api/contracts?" + url.Values{"vendor_stem": {st}}.Encode()})
	}
	for _, id := range r.u.agencyIDs() {
		subs = append(subs, sub{search.RecordQuery{Keys: map[string][]string{search.KeyAgencyID: {id}}}, TierRelated, "a contract of agency " + id, search.RecordSortDateDesc,
			"/api/contracts?" + url.Values{"agency_id": {id}}.Encode()})
	}
	// the registrations of the matched notices: the same PIN (the join
	// rule entity.PINExact) or the notice the source joined them to
	pinOf, ridOf := map[string]string{}, map[string]bool{}
	var pins, rids []string
	for _, n := range r.notices {
		if p := entity.NormalizePIN(n.PIN); p != "" && !entity.JunkPIN(p) && pinOf[p] == "" && len(pins) < search.MaxKeyValues {
			pinOf[p] = n.RequestID
			pins = append(pins, p)
		}
		if !ridOf[n.RequestID] && len(rids) < search.MaxKeyValues {
			ridOf[n.RequestID] = true
			rids = append(rids, n.RequestID)
		}
	}
	if len(pins) > 0 {
		subs = append(subs, sub{q: search.RecordQuery{Keys: map[string][]string{search.KeyPIN: pins}}, tier: TierRelated, rule: "the PIN of a matched notice", sort: search.RecordSortDateDesc})
	}
	if len(rids) > 0 {
		subs = append(subs, sub{q: search.RecordQuery{Keys: map[string][]string{search.KeyRequestID: rids}}, tier: TierRelated, rule: "joined by its source to a matched notice", sort: search.RecordSortDateDesc})
	}
	for _, sq := range subs {
		sq.q.Sort, sq.q.Limit = sq.sort, r.depth
		p, err := search.Find(ctx, rs, procure.ContractKind, sq.q)
		if err != nil {
			return nil, err
		}
		o.matched += p.Total
		if sq.browse != "" && p.Total > 0 {
			o.browse = append(o.browse, sq.browse)
		}
		for _, c := range p.Items {
			id := c.ContractID
			if id == "" {
				id = c.ID
			}
			title := strings.TrimSpace(c.VendorName)
			if c.Purpose != "" {
				title = strings.TrimSpace(title + " · " + c.Purpose)
			}
			if title == "" {
				title = "contract " + id
			}
			rule := sq.rule
			switch {
			case sq.q.Keys[search.KeyPIN] != nil && sq.tier == TierRelated && pinOf[entity.NormalizePIN(c.PIN)] != "":
				rule = "PIN " + c.PIN + " of matched notice " + pinOf[entity.NormalizePIN(c.PIN)] + " (" + entity.PINExact + ", " + entity.ConfidenceHigh + ")"
			case sq.q.Keys[search.KeyRequestID] != nil:
				rule = "joined by its source to matched notice " + c.RequestID + " (" + entity.JoinSource + ", " + entity.ConfidenceMedium + ")"
			}
			res := Result{Kind: KindContract, Collection: CollectionContracts, ID: id, Title: title, Date: day(c.RegisteredOn), Source: c.Source,
				SourceLabel: c.SourceLabel, ObservedAt: c.ObservedAt, Route: "/api/contracts/" + url.PathEscape(id),
				Permalink: r.link("/contracts/" + url.PathEscape(id)), Match: Match{Tier: sq.tier, Rule: rule, Score: 1}}
			if res.Date != "" {
				res.DateLabel = "registered"
			}
			if len(c.Links) > 0 {
				res.OfficialURL = c.Links[0].URL
			}
			r.add(o, cand{Result: res})
		}
	}
	// a contract ID no registration held carries, which payments name:
	// the contract read answers it from those payments
	if whole != "" && !strings.Contains(whole, " ") && !slices.ContainsFunc(o.cands, func(c cand) bool { return c.Kind == KindContract && strings.EqualFold(c.ID, whole) }) {
		for _, id := range uniq(whole, strings.ToUpper(whole)) {
			p, err := search.Find(ctx, rs, procure.PaymentKind, search.RecordQuery{Kinds: []string{procure.KindPayment},
				Keys: map[string][]string{search.KeyContractID: {id}}, Sort: search.RecordSortDate, Limit: 1})
			if err != nil {
				return nil, err
			}
			if p.Total == 0 {
				continue
			}
			pay := p.Items[0]
			o.matched++
			r.add(o, cand{Result: Result{Kind: KindContract, Collection: CollectionContracts, ID: id,
				Title: "contract " + id + ": registration not held; " + procure.PaymentsWord(p.Total) + " name it", Source: pay.Source, SourceLabel: pay.SourceLabel,
				ObservedAt: pay.ObservedAt, Route: "/api/contracts/" + url.PathEscape(id), Permalink: r.link("/contracts/" + url.PathEscape(id)),
				Match: Match{Tier: TierExact, Rule: "exact contract ID named by payments (" + entity.JoinContractIDField + ", " + entity.ConfidenceHigh + "); its registration is not held", Score: 1}}})
			break
		}
	}
	return o, nil
}

// --- land projects ---

var bblRE = regexp.MustCompile(`^[1-5][0-9]{9}$`)

func (r *run) landCollection(ctx context.Context) (*collectionOut, error) {
	rs, err := r.records()
	if err != nil {
		return nil, err
	}
	o := &collectionOut{}
	whole := wholeOf(r.q)
	type sub struct {
		keys       map[string][]string
		ids        []string
		tier, rule string
	}
	var subs []sub
	if id, err := land.CheckID(whole); err == nil {
		subs = append(subs, sub{ids: []string{id}, tier: TierExact, rule: "exact project id"})
	}
	if k := land.ULURPKey(whole); k != "" {
		subs = append(subs, sub{keys: map[string][]string{land.KeyULURP: {k}}, tier: TierExact, rule: "application (ULURP) number " + k})
	}
	if bblRE.MatchString(whole) {
		subs = append(subs, sub{keys: map[string][]string{land.KeyBBL: {whole}}, tier: TierExact, rule: "BBL " + whole})
	}
	if !strings.Contains(whole, " ") && strings.ContainsFunc(whole, unicode.IsDigit) && strings.ContainsFunc(whole, unicode.IsLetter) {
		subs = append(subs, sub{keys: map[string][]string{land.KeyCEQR: {strings.ToUpper(whole)}}, tier: TierExact, rule: "CEQR number"})
	}
	if cd := land.CommunityDistrict(whole); cd != "" {
		subs = append(subs, sub{keys: map[string][]string{land.KeyCD: {cd}}, tier: TierRelated, rule: "a project of community district " + cd})
		o.browse = append(o.browse, "/api/land-projects?"+url.Values{"community_district": {cd}}.Encode())
	}
	// application numbers the matched notices print (land.ULURPKeys, the
	// rule the land source reads them with)
	printedIn := map[string]string{}
	var printed []string
	for _, n := range r.notices {
		_, keys := land.ULURPKeys(n.Title + "\n" + n.Text)
		for _, k := range keys {
			if _, ok := printedIn[k]; !ok && len(printed) < search.MaxKeyValues {
				printedIn[k] = n.RequestID
				printed = append(printed, k)
			}
		}
	}
	if len(printed) > 0 {
		subs = append(subs, sub{keys: map[string][]string{land.KeyULURP: printed}, tier: TierRelated, rule: "an application (ULURP) number printed in a matched notice"})
	}
	// by name, applicant or address (a name match ranks above the related
	// ones, so it runs after the exact subqueries and before the others)
	named := false
	byName := func() error {
		if named {
			return nil
		}
		named = true
		// the projects holding every query word (read by the rarest word,
		// as the people collection does)
		words := land.NameWords(strings.Join(r.u.Words, " "))
		if len(words) == 0 || len(words) > land.MaxNameWords {
			return nil
		}
		rare, fewest, err := land.RarestWord(ctx, rs, words, nil)
		if err != nil {
			return err
		}
		if fewest <= 0 {
			return nil
		}
		p, err := search.Find(ctx, rs, land.ProjectKind, search.RecordQuery{Keys: map[string][]string{land.KeyToken: {rare}}, Sort: search.RecordSortDateDesc, Limit: maxPeopleScan})
		if err != nil {
			return err
		}
		n := 0
		for i, pr := range p.Items {
			if !land.HoldsWords(p.Records[i], words) {
				continue
			}
			n++
			if n > r.depth {
				continue
			}
			rec := p.Records[i]
			res := Result{Kind: KindLandProject, Collection: CollectionLandProjects, ID: pr.ID, Title: pr.Name, Date: day(pr.LastDate), Source: rec.Source,
				SourceLabel: rec.SourceLabel, ObservedAt: rec.ObservedAt, Route: "/api/land-projects/" + pr.ID,
				Permalink: r.link("/land-projects/" + pr.ID), OfficialURL: pr.URL,
				Match: Match{Tier: TierName, Rule: "every query word in the project's name, applicant, brief (its address) or keywords", Score: round3(float64(len(words)) / float64(max(len(search.Words(pr.Name)), len(words))))}}
			if res.Date != "" {
				res.DateLabel = "last milestone"
			}
			r.add(o, cand{Result: res})
		}
		o.matched += n
		return nil
	}
	for _, sq := range subs {
		if sq.tier != TierExact {
			if err := byName(); err != nil {
				return nil, err
			}
		}
		p, err := search.Find(ctx, rs, land.ProjectKind, search.RecordQuery{IDs: sq.ids, Keys: sq.keys, Sort: search.RecordSortDateDesc, Limit: r.depth})
		if err != nil {
			return nil, err
		}
		o.matched += p.Total
		for i, pr := range p.Items {
			rec := p.Records[i]
			res := Result{Kind: KindLandProject, Collection: CollectionLandProjects, ID: pr.ID, Title: pr.Name, Date: day(pr.LastDate), Source: rec.Source,
				SourceLabel: rec.SourceLabel, ObservedAt: rec.ObservedAt, Route: "/api/land-projects/" + pr.ID,
				Permalink: r.link("/land-projects/" + pr.ID), OfficialURL: pr.URL, Match: Match{Tier: sq.tier, Rule: sq.rule, Score: 1}}
			if res.Date != "" {
				res.DateLabel = "last milestone"
			}
			if sq.keys[land.KeyULURP] != nil && sq.tier == TierRelated {
				for _, k := range pr.ULURPKeys() {
					if id, ok := printedIn[k]; ok {
						res.Match.Rule = "application (ULURP) number " + k + " printed in matched notice " + id
						break
					}
				}
			}
			r.add(o, cand{Result: res})
		}
	}
	if err := byName(); err != nil {
		return nil, err
	}
	return o, nil
}

// --- meetings ---

func (r *run) meetingsCollection(ctx context.Context) (*collectionOut, error) {
	rs, err := r.records()
	if err != nil {
		return nil, err
	}
	o := &collectionOut{}
	whole := wholeOf(r.q)
	type sub struct {
		q          search.RecordQuery
		tier, rule string
	}
	var subs []sub
	if strings.Contains(whole, ":") && !strings.Contains(whole, " ") {
		subs = append(subs, sub{search.RecordQuery{IDs: []string{whole}}, TierExact, "exact meeting id"})
	}
	body := meeting.BodyKey(whole)
	if body != "" {
		subs = append(subs, sub{search.RecordQuery{Keys: map[string][]string{meeting.KeyBody: {body}}}, TierName, "the body's name"})
	}
	if ids := r.u.agencyIDs(); len(ids) > 0 {
		subs = append(subs, sub{search.RecordQuery{Keys: map[string][]string{search.KeyAgencyID: ids}}, TierRelated, "a meeting of agency " + strings.Join(ids, ", ")})
	}
	var rids []string
	for _, n := range r.notices {
		rids = append(rids, n.RequestID)
	}
	if len(rids) > 0 {
		subs = append(subs, sub{search.RecordQuery{Keys: map[string][]string{meeting.KeyRequestID: rids}}, TierRelated, "announced by a matched notice"})
	}
	for _, sq := range subs {
		sq.q.Sort, sq.q.Limit = search.RecordSortDateDesc, r.depth
		p, err := search.Find(ctx, rs, meeting.Kind, sq.q)
		if err != nil {
			return nil, err
		}
		o.matched += p.Total
		if sq.q.Keys[meeting.KeyBody] != nil && p.Total > 0 {
			o.browse = append(o.browse, "/api/meetings?"+url.Values{"body": {body}}.Encode())
		}
		for i, m := range p.Items {
			rec := p.Records[i]
			title := m.Title
			if m.Body != "" && !strings.Contains(title, m.Body) {
				title = m.Body + " · " + title
			}
			res := Result{Kind: KindMeeting, Collection: CollectionMeetings, ID: m.ID, Title: title, Date: m.When.Date, DateLabel: rec.DateLabel,
				Source: m.Source, SourceLabel: m.SourceLabel, ObservedAt: m.Observed.At, Route: "/api/meetings/" + url.PathEscape(m.ID),
				Permalink: r.link("/meetings/" + url.PathEscape(m.ID)), OfficialURL: m.SourceURL, Match: Match{Tier: sq.tier, Rule: sq.rule, Score: 1}}
			r.add(o, cand{Result: res})
		}
	}
	return o, nil
}

// --- people and organizations ---

// maxPeopleScan bounds the rows read for one name word.
const maxPeopleScan = 1000

func (r *run) peopleCollection(ctx context.Context) (*collectionOut, error) {
	rs, err := r.records()
	if err != nil {
		return nil, err
	}
	o := &collectionOut{}
	// the newest release held: the row with the latest release date
	// (rows of a release with no date sort last)
	newest, err := search.Find(ctx, rs, people.Kind, search.RecordQuery{Sort: search.RecordSortDateDesc, Limit: 1})
	if err != nil {
		return nil, err
	}
	if len(newest.Items) == 0 {
		return o, nil
	}
	release := newest.Items[0].Release.Key()
	withRelease := func(keys map[string][]string) map[string][]string {
		keys[people.KeyRelease] = []string{release}
		return keys
	}
	row := func(p people.Row, tier, rule string, score float64) cand {
		kind, page := KindOrganization, "/organizations/"+strings.TrimPrefix(people.Route(p.ID), "/api/people/")+"/"
		if p.Type == people.TypePerson {
			kind, page = KindPerson, "/people/"+strings.TrimPrefix(people.Route(p.ID), "/api/people/")
		}
		res := Result{Kind: kind, Collection: CollectionPeople, ID: p.ID, Title: p.Name, Date: p.Release.Date, Source: p.Source, SourceLabel: p.SourceLabel,
			ObservedAt: p.ObservedAt, Route: people.Route(p.ID), Permalink: r.link(page), Match: Match{Tier: tier, Rule: rule, Score: score}}
		if res.Date != "" {
			res.DateLabel = "roster release"
		}
		return cand{Result: res}
	}
	whole := wholeOf(r.q)
	if whole != "" {
		p, err := search.Find(ctx, rs, people.Kind, search.RecordQuery{Keys: withRelease(map[string][]string{people.KeyRowID: {whole}}), Sort: search.RecordSortID, Limit: 1})
		if err != nil {
			return nil, err
		}
		for _, it := range p.Items {
			r.add(o, row(it, TierExact, "exact row id", 1))
			o.matched++
		}
	}
	if ids := r.u.agencyIDs(); len(ids) > 0 {
		// the organization the agency is (name tier) and the people its
		// release row prints (related: a dated roster entry, not identity)
		for _, kind := range []string{people.KindOrganization, people.KindPerson} {
			p, err := search.Find(ctx, rs, people.Kind, search.RecordQuery{Kinds: []string{kind},
				Keys: withRelease(map[string][]string{people.KeyAgencyID: ids}), Sort: search.RecordSortID, Limit: r.depth})
			if err != nil {
				return nil, err
			}
			for _, it := range p.Items {
				if kind == people.KindOrganization {
					r.add(o, row(it, TierName, "the organization row of agency "+it.AgencyID, 1))
				} else {
					r.add(o, row(it, TierRelated, "printed in the roster row of agency "+it.AgencyID+" ("+it.Release.AsOf()+")", 1))
				}
			}
			o.matched += p.Total
		}
	}
	var tokens []string
	for _, w := range r.u.Words {
		if tk := people.Token(w); tk != "" && !slices.Contains(tokens, tk) {
			tokens = append(tokens, tk)
		}
	}
	if len(tokens) > 0 && len(tokens) <= 8 {
		// read the rows of the rarest word, keep those holding every word
		rare, fewest := "", -1
		for _, tk := range tokens {
			tp, err := search.Find(ctx, rs, people.Kind, search.RecordQuery{Keys: withRelease(map[string][]string{people.KeyToken: {tk}}), Sort: search.RecordSortID, Limit: 1})
			if err != nil {
				return nil, err
			}
			if fewest < 0 || tp.Total < fewest {
				rare, fewest = tk, tp.Total
			}
		}
		if fewest > 0 {
			p, err := search.Find(ctx, rs, people.Kind, search.RecordQuery{Keys: withRelease(map[string][]string{people.KeyToken: {rare}}), Sort: search.RecordSortID, Limit: maxPeopleScan})
			if err != nil {
				return nil, err
			}
			type hit struct {
				row   people.Row
				score float64
			}
			var hits []hit
			for i, it := range p.Items {
				held := p.Records[i].Keys[people.KeyToken]
				all := true
				for _, tk := range tokens {
					if !slices.Contains(held, tk) {
						all = false
						break
					}
				}
				if all {
					nameWords := max(len(search.Words(it.Name)), len(tokens))
					hits = append(hits, hit{it, round3(float64(len(tokens)) / float64(nameWords))})
				}
			}
			// scored before the first depth are kept: a deeper page never
			// reorders a shallower one
			sort.SliceStable(hits, func(i, j int) bool { return hits[i].score > hits[j].score })
			for _, h := range hits[:min(len(hits), r.depth)] {
				r.add(o, row(h.row, TierName, "every query word in the row's names", h.score))
			}
			n := len(hits)
			o.matched += n
			if p.Total > maxPeopleScan {
				o.note = "name words were checked on the first " + itoa(maxPeopleScan) + " rows holding the rarest word"
			}
		}
	}
	return o, nil
}

// --- payroll ---

func (r *run) payrollCollection(ctx context.Context) (*collectionOut, error) {
	rs, err := r.records()
	if err != nil {
		return nil, err
	}
	o := &collectionOut{}
	whole := wholeOf(r.q)
	type sub struct {
		q          search.RecordQuery
		tier, rule string
		browse     string
	}
	var subs []sub
	if whole != "" && !strings.Contains(whole, " ") {
		subs = append(subs, sub{search.RecordQuery{IDs: []string{whole}}, TierExact, "exact row id", ""})
	}
	if k := record.PayrollNameKey(whole); k != "" {
		subs = append(subs, sub{search.RecordQuery{Keys: map[string][]string{procure.KeyPayrollName: {k}}}, TierName, "name as printed",
			"/api/payroll?" + url.Values{"name": {whole}}.Encode()})
	}
	if t := record.PayrollText(whole); t != "" {
		subs = append(subs, sub{search.RecordQuery{Keys: map[string][]string{procure.KeyPayrollTitle: {t}}}, TierName, "title as printed",
			"/api/payroll?" + url.Values{"title": {whole}}.Encode()})
	}
	for _, id := range r.u.agencyIDs() {
		subs = append(subs, sub{search.RecordQuery{Keys: map[string][]string{search.KeyAgencyID: {id}}}, TierRelated, "a payroll row of agency " + id,
			"/api/payroll?" + url.Values{"agency": {id}}.Encode()})
	}
	for _, sq := range subs {
		sq.q.Sort, sq.q.Limit = search.RecordSortDateDesc, r.depth
		p, err := search.Find(ctx, rs, procure.PayrollKind, sq.q)
		if err != nil {
			return nil, err
		}
		o.matched += p.Total
		if sq.browse != "" && p.Total > 0 {
			o.browse = append(o.browse, sq.browse)
		}
		for i, row := range p.Items {
			rec := p.Records[i]
			res := Result{Kind: KindPayrollRow, Collection: CollectionPayroll, ID: row.ID, Title: rec.Title, Date: day(rec.Date), DateLabel: rec.DateLabel,
				Source: row.Source, SourceLabel: row.SourceLabel, ObservedAt: row.ObservedAt, Route: "/api/payroll/" + url.PathEscape(row.ID),
				Match: Match{Tier: sq.tier, Rule: sq.rule, Score: 1}}
			r.add(o, cand{Result: res})
		}
	}
	return o, nil
}

func uniq(vs ...string) []string {
	var out []string
	for _, v := range vs {
		if v != "" && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

func round3(f float64) float64 { return float64(int(f*1000+0.5)) / 1000 }

func itoa(n int) string { return strconv.Itoa(n) }

// --- payments ---

func (r *run) paymentsCollection(ctx context.Context) (*collectionOut, error) {
	rs, err := r.records()
	if err != nil {
		return nil, err
	}
	o := &collectionOut{}
	whole := wholeOf(r.q)
	type sub struct {
		q          search.RecordQuery
		tier, rule string
		browse     url.Values
	}
	var subs []sub
	if whole != "" && !strings.Contains(whole, " ") {
		for _, id := range uniq(whole, strings.ToUpper(whole)) {
			subs = append(subs, sub{search.RecordQuery{Keys: map[string][]string{search.KeyContractID: {id}}}, TierExact,
				"exact contract id " + id + " (the payment's own field)", url.Values{"contract_id": {id}, "kind": {procure.RowPayment}}})
		}
	}
	if p := entity.NormalizePIN(whole); p != "" && !entity.JunkPIN(p) && len(p) > 10 {
		subs = append(subs, sub{search.RecordQuery{Keys: map[string][]string{search.KeyPIN: {p}}}, TierExact, "exact PIN",
			url.Values{"pin": {p}, "kind": {procure.RowPayment}}})
	}
	if st := r.u.VendorStem; st != "" {
		subs = append(subs, sub{search.RecordQuery{Keys: map[string][]string{search.KeyVendorStem: {st}}}, TierName, "payee name stem " + st,
			url.Values{"vendor_stem": {st}, "kind": {procure.RowPayment}}})
	}
	for _, id := range r.u.agencyIDs() {
		subs = append(subs, sub{search.RecordQuery{Keys: map[string][]string{search.KeyAgencyID: {id}}}, TierRelated, "a payment of agency " + id,
			url.Values{"agency_id": {id}, "kind": {procure.RowPayment}}})
	}
	for _, sq := range subs {
		sq.q.Kinds, sq.q.Sort, sq.q.Limit = []string{procure.KindPayment}, search.RecordSortAmount, r.depth
		p, err := search.Find(ctx, rs, procure.PaymentKind, sq.q)
		if err != nil {
			return nil, err
		}
		o.matched += p.Total
		browse := "/api/rows?" + sq.browse.Encode()
		if p.Total > 0 {
			o.browse = append(o.browse, browse)
		}
		for _, pay := range p.Items {
			title := strings.TrimSpace(pay.VendorName)
			if title == "" {
				title = procure.PayeeNotNamed
			}
			if pay.AmountValid {
				title += " · " + view.Money(pay.Amount)
			}
			if pay.Title != "" {
				title += " · " + pay.Title
			}
			res := Result{Kind: KindPayment, Collection: CollectionPayments, ID: pay.ID, Title: title, Date: day(pay.Date), DateLabel: pay.DateLabel,
				Source: pay.Source, SourceLabel: pay.SourceLabel, ObservedAt: pay.ObservedAt, Route: browse, OfficialURL: pay.URL,
				Match: Match{Tier: sq.tier, Rule: sq.rule, Score: 1}}
			if pay.ContractID != "" {
				res.Permalink = r.link("/contracts/" + url.PathEscape(pay.ContractID))
			} else {
				res.Permalink = r.link("/rows?" + sq.browse.Encode())
			}
			r.add(o, cand{Result: res})
		}
	}
	return o, nil
}
