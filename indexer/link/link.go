// Package link is the link stage of the indexer pipeline (fetch → parse →
// normalize → link → write). Sources give raw fields; this stage fills,
// once, what is derived from them by an identity rule:
//
//   - agency ids: the crosswalk resolution of the raw agency string, with
//     the method that made it (entity.Crosswalk.Resolve);
//   - vendor stems (entity.VendorStem);
//   - PIN keys: pin_key (entity.NormalizePIN) and pin_base (entity.PINBase);
//
// and finds the joins between City Record notices, registered contracts,
// payments, meetings and land-use projects, kept as link records
// (record.Link, written by the pipeline as joins.Kind) that carry
// their method, confidence and evidence (joins.go; the PIN rules are
// entity's Join*). Readers read the link records; none joins again.
// Engines store what they are given and apply no linking rule.
package link

import (
	"sort"
	"strings"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/joins"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
)

// Linker fills the derived fields of records. A nil Crosswalk is allowed:
// every agency then keeps its own id.
type Linker struct {
	Crosswalk *entity.Crosswalk
}

// Notice fills a notice's agency id and name, its vendor stem and its
// lenses from the raw fields, and returns how the agency was resolved. A
// land-use body may be recognized by its canonical name only, so the
// lenses are read under the printed and the canonical name and the longer
// list kept.
func (l Linker) Notice(n *record.Notice) entity.AgencyLink {
	a := l.Crosswalk.Resolve(n.AgencyRaw)
	n.AgencyID, n.AgencyName = a.ID, a.Name
	n.VendorStem = ""
	if n.VendorName != "" {
		n.VendorStem = entity.VendorStem(n.VendorName)
	} else if r := entity.VendorFromText(n.NoticeType, n.Text); r.Counted {
		// a vendor read from the text by a pattern measured at or above
		// entity.VendorTextCountBar is counted by its stem; VendorName
		// stays absent (the source has none) and views show the reading
		// marked as read from the text (entity.VendorFromText again)
		n.VendorStem = r.Stem
	}
	lenses := record.LensesFor(n.Section, n.AgencyRaw, n.Title, n.Text)
	if n.AgencyName != strings.TrimSpace(n.AgencyRaw) {
		if alt := record.LensesFor(n.Section, n.AgencyName, n.Title, n.Text); len(alt) > len(lenses) {
			lenses = alt
		}
	}
	n.Lenses = lenses
	if len(n.Lenses) > 0 {
		n.Lens = n.Lenses[0]
	}
	return a
}

// Notices links every notice in place.
func (l Linker) Notices(ns []record.Notice) {
	for i := range ns {
		l.Notice(&ns[i])
	}
}

// agency resolves a raw agency string (zero when there is none).
func (l Linker) agency(raw string) entity.AgencyLink {
	if raw == "" {
		return entity.AgencyLink{}
	}
	return l.Crosswalk.Resolve(raw)
}

// stem is the vendor stem of a vendor name ("" for none).
func stem(name string) string {
	if name == "" {
		return ""
	}
	return entity.VendorStem(name)
}

// Contract fills a contract's agency id and name (when the source names an
// agency), its vendor stem and its base PIN, and returns how the agency
// was resolved (zero when the contract names none). The PIN key it is
// matched by is PINKey.
func (l Linker) Contract(c *record.Contract) entity.AgencyLink {
	a := l.agency(c.AgencyLabel)
	c.AgencyID, c.AgencyName = a.ID, a.Name
	c.VendorStem = stem(c.VendorName)
	_, c.PINBase = entity.PINKeys(c.PIN)
	return a
}

// Contracts links every contract in place.
func (l Linker) Contracts(cs []record.Contract) {
	for i := range cs {
		l.Contract(&cs[i])
	}
}

// Payment fills a payment's agency id and name, vendor stem and base PIN
// as Contract does; a redacted payee (RedactedPayee) gets no stem, so it is
// never joined or counted by name.
func (l Linker) Payment(p *procure.Payment) entity.AgencyLink {
	a := l.agency(p.AgencyRaw)
	p.AgencyID, p.AgencyName = a.ID, a.Name
	p.VendorStem = ""
	if !RedactedPayee(p.VendorName) {
		p.VendorStem = stem(p.VendorName)
	}
	_, p.PINBase = entity.PINKeys(p.PIN)
	return a
}

// Payments links every payment in place.
func (l Linker) Payments(ps []procure.Payment) {
	for i := range ps {
		l.Payment(&ps[i])
	}
}

// PINKey is the key a record's PIN is matched by (pin_key).
func PINKey(pin string) string {
	key, _ := entity.PINKeys(pin)
	return key
}

// Ref names a record a link ties: a notice by request id, a contract row
// or a payment by id.
type Ref struct {
	Kind string `json:"kind"` // RefNotice, RefContract or RefPayment
	ID   string `json:"id"`
}

// Kinds of references.
const (
	RefNotice   = "notice"
	RefContract = "contract"
	RefPayment  = "payment"
)

// Link is one join from a notice to a contract row or a payment, with the
// method that made it and how sure it is, stored on the link. Key is the
// value the records share (a PIN, a base PIN, a contract id, a request id, a vendor stem).
type Link struct {
	ID   string `json:"id"`
	From Ref    `json:"from"`
	To   Ref    `json:"to"`
	Key  string `json:"key"`
	entity.Join
}

// rank orders joins of one pair of records: the strongest is kept.
func rank(j entity.Join) int {
	switch j.Method {
	case entity.PINExact:
		return 0
	case entity.PINRenewal:
		return 1
	case entity.JoinSource:
		if !j.SameProcurement {
			return 5
		}
		return 2
	case entity.JoinContractID:
		if j.SameProcurement {
			return 3
		}
		return 5
	case entity.PINPrefix:
		return 4
	}
	return 6
}

// MaxPINClique is the largest group of records of one kind sharing a PIN
// group (joins.PINGroup) that is linked pair by pair; in a larger group
// (a blanket PIN, a multi-award solicitation with a hundred registrations)
// each record is linked to the group's first record only, so the links of
// a group grow with its size, not with its square. A reader finds a
// group's records by the group (joins.KeyPINGroup), whatever the shape.
const MaxPINClique = 16

// pinRecord is a record of one kind with a PIN, for JoinSamePIN.
type pinRecord struct {
	ref Ref
	pin string
}

// joinSamePIN links records of one kind that share a PIN group: the same
// PIN (exact, high: a solicitation and its award), another renewal of it
// (renewal, high) or only the 10-character base (prefix, low),
// entity.JoinPINs. A link goes from the record with the lower id (a
// notice's request id begins with its publication date) to the other; a
// group of more than MaxPINClique records is linked to its first record
// only. Links are sorted by id.
func joinSamePIN(recs []pinRecord) []Link {
	groups := map[string][]pinRecord{}
	seen := map[Ref]bool{}
	for _, r := range recs {
		if entity.JunkPIN(r.pin) || seen[r.ref] {
			continue
		}
		seen[r.ref] = true
		g := joins.PINGroup(r.pin)
		groups[g] = append(groups[g], r)
	}
	var out []Link
	for _, g := range groups {
		sort.Slice(g, func(i, j int) bool { return g[i].ref.ID < g[j].ref.ID })
		firsts := len(g)
		if firsts > MaxPINClique {
			firsts = 1
		}
		for x := 0; x < firsts; x++ {
			for y := x + 1; y < len(g); y++ {
				a, b := g[x], g[y]
				j, ok := entity.JoinPINs(a.pin, b.pin)
				if !ok {
					continue
				}
				key, base := entity.PINKeys(a.pin)
				if j.Method == entity.PINPrefix {
					key = base
				} else {
					key = entity.StripRenewal(key)
				}
				out = append(out, Link{ID: a.ref.Kind + ":" + a.ref.ID + "→" + b.ref.Kind + ":" + b.ref.ID,
					From: a.ref, To: b.ref, Key: key, Join: j})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// JoinNotices finds the links between notices that share a PIN group
// (joinSamePIN): the notices of one procurement matter.
func JoinNotices(notices []record.Notice) []Link {
	recs := make([]pinRecord, 0, len(notices))
	for _, n := range notices {
		recs = append(recs, pinRecord{Ref{RefNotice, n.RequestID}, n.PIN})
	}
	return joinSamePIN(recs)
}

// JoinContracts finds the links between contract rows that share a PIN
// group (joinSamePIN): the registrations of one procurement matter, found
// by it even when no notice carries the PIN.
func JoinContracts(contracts []record.Contract) []Link {
	recs := make([]pinRecord, 0, len(contracts))
	for _, c := range contracts {
		recs = append(recs, pinRecord{Ref{RefContract, c.ID}, c.PIN})
	}
	return joinSamePIN(recs)
}

// touching keeps the links that have one of ids (of either kind) at an end.
func touching(ls []Link, ids map[Ref]bool) []Link {
	var out []Link
	for _, l := range ls {
		if ids[l.From] || ids[l.To] {
			out = append(out, l)
		}
	}
	return out
}

// Join finds the links from notices to registered contracts and payments
// (all already linked: agency ids, stems and base PINs filled):
//
//   - a contract whose PIN is the notice's (exact, high), another renewal
//     of it (renewal, high) or shares only its 10-character base (prefix,
//     low) — entity.JoinPINs;
//   - a contract row that names the notice's request id (source, medium;
//     low and not the same procurement when the two PINs disagree);
//   - a payment naming the contract id of a contract joined above (contract,
//     as sure as that contract's join) — entity.JoinByContract;
//   - a contract of the notice's vendor (stem) at the notice's agency, when
//     nothing above joins them (vendor_agency, low).
//
// Each pair of records gets one link, the strongest; links are sorted by
// id, so the same input gives the same links.
func Join(notices []record.Notice, contracts []record.Contract, payments []procure.Payment) []Link {
	byBase := map[string][]int{}
	byKey := map[string][]int{}
	byRequest := map[string][]int{}
	byContract := map[string][]int{}
	byVendor := map[string][]int{}
	for i, c := range contracts {
		if !entity.JunkPIN(c.PIN) {
			key, base := entity.PINKeys(c.PIN)
			if base != "" {
				byBase[base] = append(byBase[base], i)
			} else {
				byKey[entity.StripRenewal(key)] = append(byKey[entity.StripRenewal(key)], i)
			}
		}
		if c.RequestID != "" {
			byRequest[c.RequestID] = append(byRequest[c.RequestID], i)
		}
		if c.VendorStem != "" && c.AgencyID != "" {
			k := entity.VendorStem(c.VendorStem) + "\x00" + c.AgencyID // a stem stored under an earlier rule meets its current form
			byVendor[k] = append(byVendor[k], i)
		}
	}
	for i, p := range payments {
		if p.ContractID != "" && !p.Payroll {
			byContract[p.ContractID] = append(byContract[p.ContractID], i)
		}
	}
	best := map[[2]string]Link{}
	put := func(n record.Notice, to Ref, key string, j entity.Join) {
		pair := [2]string{n.RequestID, to.ID}
		if old, ok := best[pair]; ok && rank(old.Join) <= rank(j) {
			return
		}
		best[pair] = Link{ID: RefNotice + ":" + n.RequestID + "→" + to.Kind + ":" + to.ID, From: Ref{RefNotice, n.RequestID},
			To: to, Key: key, Join: j}
	}
	for _, n := range notices {
		reg := map[string]entity.Join{} // contract id → its strongest join
		joined := func(c record.Contract, key string, j entity.Join) {
			put(n, Ref{RefContract, c.ID}, key, j)
			if c.ContractID != "" {
				if old, ok := reg[c.ContractID]; !ok || rank(j) < rank(old) {
					reg[c.ContractID] = j
				}
			}
		}
		if !entity.JunkPIN(n.PIN) {
			key, base := entity.PINKeys(n.PIN)
			cands := byBase[base]
			if base == "" {
				cands = byKey[entity.StripRenewal(key)]
			}
			for _, i := range cands {
				if j, ok := entity.JoinPINs(n.PIN, contracts[i].PIN); ok {
					k := base
					if j.Method != entity.PINPrefix {
						k = entity.StripRenewal(key)
					}
					joined(contracts[i], k, j)
				}
			}
		}
		for _, i := range byRequest[n.RequestID] {
			j := entity.JoinBySource()
			if c := contracts[i]; !entity.JunkPIN(n.PIN) && !entity.JunkPIN(c.PIN) {
				if _, ok := entity.JoinPINs(n.PIN, c.PIN); !ok {
					// the source names the notice, but the PINs disagree: a
					// lead, never added to the notice's procurement
					j.Confidence, j.SameProcurement = entity.ConfidenceLow, false
				}
			}
			joined(contracts[i], n.RequestID, j)
		}
		ids := make([]string, 0, len(reg))
		for c := range reg {
			ids = append(ids, c)
		}
		sort.Strings(ids)
		for _, c := range ids {
			for _, i := range byContract[c] {
				put(n, Ref{RefPayment, payments[i].ID}, c, entity.JoinByContract(reg[c]))
			}
		}
		if n.VendorStem != "" && n.AgencyID != "" {
			for _, i := range byVendor[entity.VendorStem(n.VendorStem)+"\x00"+n.AgencyID] {
				c := contracts[i]
				if _, ok := best[[2]string{n.RequestID, c.ID}]; ok {
					continue
				}
				if j, ok := entity.JoinVendorAtAgency(n.VendorStem, n.AgencyID, c.VendorStem, c.AgencyID); ok {
					put(n, Ref{RefContract, c.ID}, n.VendorStem, j)
				}
			}
		}
	}
	out := make([]Link, 0, len(best))
	for _, l := range best {
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
