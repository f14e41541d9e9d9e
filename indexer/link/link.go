// Package link is the link stage of the indexer pipeline (fetch → parse →
// normalize → link → write). Sources give raw fields; this stage fills,
// once, what is derived from them by an identity rule:
//
//   - agency ids: the crosswalk resolution of the raw agency string, with
//     the method that made it (entity.Crosswalk.Resolve);
//   - vendor stems (entity.VendorStem);
//   - PIN keys: pin_key (entity.NormalizePIN) and pin_base (entity.PINBase);
//
// and finds the joins between City Record notices and payments-dataset
// entries (contracts, payments) as Link values that carry their method and
// confidence (the rules are entity's Join*, shared with the read side).
// Engines store what they are given and apply no linking rule.
package link

import (
	"sort"
	"strings"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Linker fills the derived fields of records. A nil Crosswalk is allowed:
// every agency then keeps its own id.
type Linker struct {
	Crosswalk *entity.Crosswalk
}

// Notice fills a notice's agency id and name and its vendor stem from the
// raw fields, and returns how the agency was resolved. A land-use body
// may be recognized by its canonical name only, so the lenses are read
// again under the canonical name and the longer list kept.
func (l Linker) Notice(n *record.Notice) entity.AgencyLink {
	a := l.Crosswalk.Resolve(n.AgencyRaw)
	n.AgencyID, n.AgencyName = a.ID, a.Name
	n.VendorStem = ""
	if n.VendorName != "" {
		n.VendorStem = entity.VendorStem(n.VendorName)
	}
	if n.AgencyName != strings.TrimSpace(n.AgencyRaw) {
		if alt := record.LensesFor(n.Section, n.AgencyName, n.Title, n.Text); len(alt) > len(n.Lenses) {
			n.Lenses = alt
		}
	}
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

// Entry fills an entry's agency id and name (when the source names an
// agency), its vendor stem and its base PIN, and returns how the agency
// was resolved (zero when the entry names none). The PIN key the entry is
// matched by is PINKey.
func (l Linker) Entry(e *search.Entry) entity.AgencyLink {
	var a entity.AgencyLink
	e.AgencyID, e.AgencyName = "", ""
	if e.AgencyRaw != "" {
		a = l.Crosswalk.Resolve(e.AgencyRaw)
		e.AgencyID, e.AgencyName = a.ID, a.Name
	}
	e.VendorStem = ""
	if e.VendorName != "" {
		e.VendorStem = entity.VendorStem(e.VendorName)
	}
	_, e.PINBase = entity.PINKeys(e.PIN)
	return a
}

// Entries links every entry in place.
func (l Linker) Entries(es []search.Entry) {
	for i := range es {
		l.Entry(&es[i])
	}
}

// PINKey is the key a record's PIN is matched by (pin_key).
func PINKey(pin string) string {
	key, _ := entity.PINKeys(pin)
	return key
}

// Ref names a record a link ties: a notice by request id, an entry by id.
type Ref struct {
	Kind string `json:"kind"` // "notice" or the entry kind (contract, payment)
	ID   string `json:"id"`
}

// RefNotice is the kind of a notice reference.
const RefNotice = "notice"

// Link is one join from a notice to an entry, with the method that made it
// and how sure it is, stored on the link. Key is the value the records
// share (a PIN, a base PIN, a contract id, a request id, a vendor stem).
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

// JoinNotices finds the links between notices that share a PIN: the same
// PIN (exact, high: a solicitation and its award), another renewal of it
// (renewal, high) or only the 10-character base (prefix, low). A link goes
// from the notice with the lower request id (request ids begin with the
// publication date) to the other; links are sorted by id.
func JoinNotices(notices []record.Notice) []Link {
	groups := map[string][]int{}
	for i, n := range notices {
		if entity.JunkPIN(n.PIN) {
			continue
		}
		key, base := entity.PINKeys(n.PIN)
		if base == "" {
			base = "\x00" + entity.StripRenewal(key)
		}
		groups[base] = append(groups[base], i)
	}
	var out []Link
	for _, g := range groups {
		for x := range g {
			for y := range g {
				a, b := notices[g[x]], notices[g[y]]
				if a.RequestID >= b.RequestID {
					continue
				}
				j, ok := entity.JoinPINs(a.PIN, b.PIN)
				if !ok {
					continue
				}
				key, base := entity.PINKeys(a.PIN)
				if j.Method == entity.PINPrefix {
					key = base
				} else {
					key = entity.StripRenewal(key)
				}
				out = append(out, Link{ID: RefNotice + ":" + a.RequestID + "→" + RefNotice + ":" + b.RequestID,
					From: Ref{RefNotice, a.RequestID}, To: Ref{RefNotice, b.RequestID}, Key: key, Join: j})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Join finds the links from notices to entries (both already linked:
// agency ids, stems and base PINs filled):
//
//   - a contract whose PIN is the notice's (exact, high), another renewal
//     of it (renewal, high) or shares only its 10-character base (prefix,
//     low) — entity.JoinPINs;
//   - a contract row that names the notice's request id (source, medium);
//   - a payment naming the contract id of a contract joined above (contract,
//     as sure as that contract's join) — entity.JoinByContract;
//   - a contract of the notice's vendor (stem) at the notice's agency, when
//     nothing above joins them (vendor_agency, low).
//
// Each pair of records gets one link, the strongest; links are sorted by
// id, so the same input gives the same links.
func Join(notices []record.Notice, entries []search.Entry) []Link {
	byBase := map[string][]int{}
	byKey := map[string][]int{}
	byRequest := map[string][]int{}
	byContract := map[string][]int{}
	byVendor := map[string][]int{}
	for i, e := range entries {
		switch e.Kind {
		case search.EntryContract:
			if !entity.JunkPIN(e.PIN) {
				key, base := entity.PINKeys(e.PIN)
				if base != "" {
					byBase[base] = append(byBase[base], i)
				} else {
					byKey[entity.StripRenewal(key)] = append(byKey[entity.StripRenewal(key)], i)
				}
			}
			if e.RequestID != "" {
				byRequest[e.RequestID] = append(byRequest[e.RequestID], i)
			}
			if e.VendorStem != "" && e.AgencyID != "" {
				k := entity.VendorStem(e.VendorStem) + "\x00" + e.AgencyID // a stem stored under an earlier rule meets its current form
				byVendor[k] = append(byVendor[k], i)
			}
		case search.EntryPayment:
			if e.ContractID != "" {
				byContract[e.ContractID] = append(byContract[e.ContractID], i)
			}
		}
	}
	best := map[[2]string]Link{}
	put := func(n record.Notice, e search.Entry, key string, j entity.Join) {
		pair := [2]string{n.RequestID, e.ID}
		if old, ok := best[pair]; ok && rank(old.Join) <= rank(j) {
			return
		}
		best[pair] = Link{ID: RefNotice + ":" + n.RequestID + "→" + e.Kind + ":" + e.ID, From: Ref{RefNotice, n.RequestID},
			To: Ref{e.Kind, e.ID}, Key: key, Join: j}
	}
	for _, n := range notices {
		reg := map[string]entity.Join{} // contract id → its strongest join
		joined := func(e search.Entry, key string, j entity.Join) {
			put(n, e, key, j)
			if e.ContractID != "" {
				if old, ok := reg[e.ContractID]; !ok || rank(j) < rank(old) {
					reg[e.ContractID] = j
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
				if j, ok := entity.JoinPINs(n.PIN, entries[i].PIN); ok {
					k := base
					if j.Method != entity.PINPrefix {
						k = entity.StripRenewal(key)
					}
					joined(entries[i], k, j)
				}
			}
		}
		for _, i := range byRequest[n.RequestID] {
			joined(entries[i], n.RequestID, entity.JoinBySource())
		}
		contracts := make([]string, 0, len(reg))
		for c := range reg {
			contracts = append(contracts, c)
		}
		sort.Strings(contracts)
		for _, c := range contracts {
			for _, i := range byContract[c] {
				put(n, entries[i], c, entity.JoinByContract(reg[c]))
			}
		}
		if n.VendorStem != "" && n.AgencyID != "" {
			for _, i := range byVendor[entity.VendorStem(n.VendorStem)+"\x00"+n.AgencyID] {
				e := entries[i]
				if _, ok := best[[2]string{n.RequestID, e.ID}]; ok {
					continue
				}
				if j, ok := entity.JoinVendorAtAgency(n.VendorStem, n.AgencyID, e.VendorStem, e.AgencyID); ok {
					put(n, e, n.VendorStem, j)
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
