package api

import (
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// BlanketAwards: a PIN carried by more award notices than this, with no
// solicitation, is a blanket chain, not one procurement.
const BlanketAwards = 5

// Matter kinds.
const (
	MatterProcurement = "procurement"
	MatterBlanket     = "blanket_chain"
)

// MatterView is the JSON twin of a procurement matter: a timeline of every
// notice with the PIN, its registrations and payments, each step labelled
// with how it was linked.
type MatterView struct {
	Status   record.Availability `json:"status"`
	PIN      string              `json:"pin"`
	BasePIN  string              `json:"base_pin"`
	Prefix   string              `json:"prefix_pin,omitempty"`
	Kind     string              `json:"kind"`
	KindNote string              `json:"kind_note"`
	Timeline []MatterStep        `json:"timeline"`
	Counts   map[string]int      `json:"counts"`
	Totals   MatterTotals        `json:"totals"`
	Methods  map[string]string   `json:"link_methods"`
	Links    map[string]string   `json:"links"`
	Scope    record.Scope        `json:"scope"`
	Absence  []string            `json:"absence_notes"`
}

// MatterTotals sums the valid amounts of a matter's steps.
type MatterTotals struct {
	Awarded    MoneyView `json:"awarded"`
	Registered MoneyView `json:"registered"`
	Paid       MoneyView `json:"paid"`
	Note       string    `json:"note"`
}

// MatterStep is one step of a timeline.
type MatterStep struct {
	Step       string      `json:"step"`
	Date       string      `json:"date,omitempty"`
	DateLabel  string      `json:"date_label"`
	Record     string      `json:"record"` // notice, contract, payment
	PIN        string      `json:"pin,omitempty"`
	Link       StepLink    `json:"link"`
	Notice     *HitView    `json:"notice,omitempty"`
	Entry      *EntryView  `json:"entry,omitempty"`
	Amount     *AmountView `json:"amount,omitempty"`
	Title      string      `json:"title"`
	Agency     string      `json:"agency,omitempty"`
	Vendor     string      `json:"vendor,omitempty"`
	Permalink  string      `json:"permalink,omitempty"`
	sortDate   time.Time
	rank       int
	identifier string
}

// StepLink says how a step was tied to the PIN asked for.
type StepLink struct {
	Method string `json:"method"`
	Note   string `json:"note"`
}

var matterMethods = map[string]string{
	entity.PINExact:   "the record carries the same PIN",
	entity.PINRenewal: "the same PIN once renewal suffixes (R001 …) are removed: another renewal of the same contract",
	entity.PINPrefix:  "the same 10-character base PIN (agency, fiscal year, method, sequence): a solicitation and the awards and registrations that followed it",
	"contract":        "a payment that names the contract id of a registration linked by PIN",
	"source":          "the source itself joined this registration to the notice",
}

// stepOf names a notice's step and its order within a day.
func stepOf(n record.Notice) (string, int) {
	t := strings.ToLower(n.NoticeType)
	switch {
	case strings.EqualFold(n.Section, record.SectionContractHearings):
		return "hearing", 3
	case t == "solicitation":
		return "solicitation", 1
	case t == "vendor list":
		return "vendor list", 1
	case strings.HasPrefix(t, "intent"):
		return "intent", 2
	case t == "award":
		return "award", 4
	case t == "":
		return record.Slug(n.Section), 5
	}
	return record.Slug(n.NoticeType), 5
}

func (s *Server) matter(c *gin.Context) {
	if err := newParams(c.Request.URL.Query()).err; err != nil {
		writeError(c, err)
		return
	}
	asked := strings.TrimSpace(strings.TrimPrefix(c.Param("pin"), "/"))
	if entity.JunkPIN(asked) {
		writeError(c, &record.Error{Code: record.ENOTFOUND, Param: "pin",
			Message: strconv.Quote(asked) + " is a placeholder, not a PIN: blank, N/A, NONE, TBD, 0 and the like never form a procurement matter"})
		return
	}
	if len(asked) > 64 {
		writeError(c, record.Invalid("pin", "a PIN is at most 64 characters"))
		return
	}
	er, err := s.entityReader()
	if err != nil {
		writeError(c, err)
		return
	}
	ctx := c.Request.Context()
	norm := entity.NormalizePIN(asked)
	base := entity.StripRenewal(norm)
	prefix := entity.PINBase(base)
	exact := uniqueNonEmpty([]string{asked, norm, base})

	// notices: the PIN as written, without renewals, or with the same base
	var notices []record.Notice
	for _, q := range []search.Query{{PINs: exact, Sort: search.SortOldest, Limit: search.MaxLimit}, {PINPrefixes: uniqueNonEmpty([]string{prefix}), Sort: search.SortOldest, Limit: search.MaxLimit}} {
		if len(q.PINPrefixes) == 1 && q.PINPrefixes[0] == "" {
			continue
		}
		for pages := 0; pages < 5; pages++ {
			res, err := s.deps.Search.Search(ctx, q)
			if err != nil {
				writeError(c, err)
				return
			}
			for _, h := range res.Hits {
				notices = append(notices, h.Notice)
			}
			if res.NextCursor == "" {
				break
			}
			q.Cursor = res.NextCursor
		}
	}
	eq := search.EntryQuery{PINs: exact, Kinds: []string{search.EntryContract}, Limit: search.MaxEntryLimit}
	regs, err := er.Entries(ctx, eq)
	if err != nil {
		writeError(c, err)
		return
	}
	var entries []search.Entry
	entries = append(entries, regs.Entries...)
	if prefix != "" {
		more, err := er.Entries(ctx, search.EntryQuery{PINBases: []string{prefix}, Kinds: []string{search.EntryContract}, Limit: search.MaxEntryLimit})
		if err != nil {
			writeError(c, err)
			return
		}
		entries = append(entries, more.Entries...)
	}
	var contractIDs []string
	for _, e := range entries {
		if e.ContractID != "" {
			contractIDs = append(contractIDs, e.ContractID)
		}
	}
	var payments []search.Entry
	if len(contractIDs) > 0 {
		pr, err := er.Entries(ctx, search.EntryQuery{ContractIDs: uniqueNonEmpty(contractIDs), Kinds: []string{search.EntryPayment}, Limit: search.MaxEntryLimit})
		if err != nil {
			writeError(c, err)
			return
		}
		payments = pr.Entries
	}

	now := s.deps.Now()
	v := MatterView{Status: record.Found, PIN: asked, BasePIN: base, Prefix: prefix, Kind: MatterProcurement, Timeline: []MatterStep{},
		Counts: map[string]int{}, Methods: matterMethods}
	seen := map[string]bool{}
	var matched []record.Notice
	var awarded, registered, paid float64
	for _, n := range notices {
		if seen["n:"+n.RequestID] {
			continue
		}
		method, ok := entity.PINLink(asked, n.PIN)
		if !ok {
			continue
		}
		seen["n:"+n.RequestID] = true
		step, rank := stepOf(n)
		matched = append(matched, n)
		h := s.hitView(n, 0, now)
		ms := MatterStep{Step: step, Date: entityDay(n.StartDate), DateLabel: "published", Record: "notice", PIN: n.PIN,
			Link: StepLink{Method: method, Note: matterMethods[method]}, Notice: &h, Amount: amountView(n), Title: n.Title,
			Agency: n.AgencyName, Vendor: strings.TrimSpace(n.VendorName), Permalink: h.Links.Permalink,
			sortDate: n.StartDate, rank: rank, identifier: n.RequestID}
		if n.AmountValid && (step == "award" || step == "intent") {
			awarded += n.Amount
		}
		v.Timeline = append(v.Timeline, ms)
		v.Counts["notices"]++
	}
	linked := map[string]string{} // contract id → how its registration was linked
	for _, e := range entries {
		if seen["e:"+e.ID] {
			continue
		}
		method, ok := entity.PINLink(asked, e.PIN)
		if !ok {
			continue
		}
		seen["e:"+e.ID] = true
		ev := s.entryView(e)
		step := "registration"
		if e.DateLabel != "registered" {
			step = "contract (" + strings.TrimSpace(e.Status+" "+e.DateLabel) + ")"
		}
		note := matterMethods[method]
		if e.RequestID != "" {
			note += "; the source also joins it to notice " + e.RequestID
		}
		v.Timeline = append(v.Timeline, MatterStep{Step: step, Date: entityDay(e.Date), DateLabel: e.DateLabel, Record: "contract", PIN: e.PIN,
			Link: StepLink{Method: method, Note: note}, Entry: &ev, Amount: ev.Amount, Title: e.Title, Agency: e.AgencyName,
			Vendor: strings.TrimSpace(e.VendorName), sortDate: e.Date, rank: 6, identifier: e.ID})
		if e.AmountValid && e.DateLabel == "registered" {
			registered += e.Amount
		}
		if e.ContractID != "" {
			linked[e.ContractID] = method
		}
		v.Counts["contracts"]++
	}
	for _, e := range payments {
		if seen["e:"+e.ID] || linked[e.ContractID] == "" {
			continue
		}
		seen["e:"+e.ID] = true
		ev := s.entryView(e)
		v.Timeline = append(v.Timeline, MatterStep{Step: "payment", Date: entityDay(e.Date), DateLabel: e.DateLabel, Record: "payment",
			Link:  StepLink{Method: "contract", Note: matterMethods["contract"] + " (" + e.ContractID + ", registration linked by " + linked[e.ContractID] + ")"},
			Entry: &ev, Amount: ev.Amount, Title: e.Title, Agency: e.AgencyName, Vendor: strings.TrimSpace(e.VendorName),
			sortDate: e.Date, rank: 7, identifier: e.ID})
		if e.AmountValid {
			paid += e.Amount
		}
		v.Counts["payments"]++
	}
	sort.SliceStable(v.Timeline, func(i, j int) bool {
		a, b := v.Timeline[i], v.Timeline[j]
		if a.sortDate.IsZero() != b.sortDate.IsZero() {
			return !a.sortDate.IsZero()
		}
		if !a.sortDate.Equal(b.sortDate) {
			return a.sortDate.Before(b.sortDate)
		}
		if a.rank != b.rank {
			return a.rank < b.rank
		}
		return a.identifier < b.identifier
	})
	scope, err := s.entityScope(ctx, er, "procurement_matter", map[string]string{"pin": asked, "base_pin": base, "pin_prefix": prefix}, len(v.Timeline))
	if err != nil {
		writeError(c, err)
		return
	}
	searchLink := s.searchURL(url.Values{"q": {asked}})
	if len(v.Timeline) == 0 {
		c.Header("Cache-Control", "no-store")
		c.AbortWithStatusJSON(http.StatusNotFound, gin.H{
			"status": record.NotFound, "pin": asked,
			"error": record.Error{Code: record.ENOTFOUND, Param: "pin",
				Message: "no notice, registration or payment held here carries this PIN. The official City Record and Checkbook NYC may still have it; a full-text search may find it written another way: " + searchLink},
			"scope": scope, "absence_rules": record.AbsenceRules,
		})
		return
	}
	if blanket, n := blanketChain(asked, matched); blanket {
		v.Kind = MatterBlanket
		v.KindNote = "This PIN is carried by " + strconv.Itoa(n) + " award or intent notices and no solicitation: it is a blanket PIN shared by many awards (a pre-qualified list, a renewal chain or an umbrella contract), shown as a chain of awards, not as one procurement."
	} else {
		v.KindNote = "One procurement: the notices, registrations and payments that share this PIN or its base."
	}
	v.Totals = MatterTotals{Awarded: moneyView(search.RoundCents(awarded)), Registered: moneyView(search.RoundCents(registered)),
		Paid: moneyView(search.RoundCents(paid)),
		Note: "Awarded sums valid award and intent amounts; registered sums registered contract amounts (value, not spending); paid sums payments held here. Placeholder and erroneous amounts are excluded."}
	v.Links = map[string]string{
		"self":      s.cfg.BaseURL + "/api/matters/" + pathEscape(asked),
		"permalink": s.permalinks().Matter(asked),
		"search":    searchLink,
	}
	v.Scope = scope
	v.Absence = []string{"The timeline holds the records held here that carry the PIN or its base; a step that is missing (no solicitation, no registration, no payment) may exist at the source."}
	if v.Counts["contracts"] == 0 {
		v.Absence = append(v.Absence, "No registration held here carries this PIN; Checkbook NYC and PASSPort may still have one.")
	}
	if v.Counts["payments"] == 0 {
		v.Absence = append(v.Absence, "No payment held here is linked to this PIN.")
	}
	renderJSON(c, http.StatusOK, v, CacheProfiles, scope.CorpusObservedAt)
}

// blanketChain reports whether more than BlanketAwards notices carry
// exactly the PIN asked for and every one of them is an award or intent
// notice; n is how many carry it.
func blanketChain(asked string, notices []record.Notice) (bool, int) {
	n := 0
	for _, x := range notices {
		if m, ok := entity.PINLink(asked, x.PIN); !ok || m != entity.PINExact {
			continue
		}
		n++
		if step, _ := stepOf(x); step != "award" && step != "intent" {
			return false, n
		}
	}
	return n > BlanketAwards, n
}

func uniqueNonEmpty(list []string) []string {
	var out []string
	for _, s := range list {
		if s == "" {
			continue
		}
		dup := false
		for _, o := range out {
			if o == s {
				dup = true
			}
		}
		if !dup {
			out = append(out, s)
		}
	}
	return out
}
