package view

import (
	"net/url"
	"strings"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
)

// Links is the one permalink rule (SPEC §4.5, §4.8): every surface — API
// JSON, feeds, MCP tools, digests, watch previews, shares, entity pages —
// builds a record's human address through it, so the same record has the
// same address everywhere.
//
//	notice  /#notice/<request_id>
//	vendor  /vendors/<stem slug>/ (Form 1) or /#vendor/<name> (Form 2)
//	agency  /agencies/<id>/ (Form 1) or /#agency/<name> (Form 2)
//	matter  /#matter/<pin>
//	digest  /r/<kind>/<request_id>
//
// Base is the service's base address without a trailing slash ("" gives
// site-relative paths); Form is 1 or 2 (anything but 2 is Form 1).
type Links struct {
	Base string
	Form int
}

// Notice is the permalink of one notice.
func (l Links) Notice(requestID string) string {
	return l.Base + "/#notice/" + requestID
}

// NoticeJSON is the JSON twin of one notice.
func (l Links) NoticeJSON(requestID string) string {
	return l.Base + "/api/notices/" + requestID
}

// Vendor is the vendor profile permalink: by stem slug in Form 1, by name
// in Form 2. In Form 2 an empty name falls back to the stem; in Form 1 an
// empty stem is derived from the name.
func (l Links) Vendor(stem, name string) string {
	if l.Form == 2 {
		if strings.TrimSpace(name) == "" {
			name = stem
		}
		return l.Base + "/#vendor/" + url.PathEscape(strings.TrimSpace(name))
	}
	if stem == "" {
		stem = name
	}
	// a stem stored under an earlier rule links to its current form
	// each segment escaped: a stem may hold "/" (INTER CONTRACTING/LA
	// PERUTA JV), which the page's route reads whole
	segs := strings.Split(entity.StemSlug(entity.VendorStem(stem)), "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return l.Base + "/vendors/" + strings.Join(segs, "/") + "/"
}

// Agency is the agency profile permalink: by canonical id in Form 1, by
// name in Form 2. In Form 2 an empty name falls back to the id.
func (l Links) Agency(id, name string) string {
	if l.Form == 2 {
		if name == "" {
			name = id
		}
		return l.Base + "/#agency/" + url.PathEscape(name)
	}
	return l.Base + "/agencies/" + url.PathEscape(id) + "/"
}

// Matter is the procurement matter timeline permalink of a PIN.
func (l Links) Matter(pin string) string {
	return l.Base + "/#matter/" + url.PathEscape(pin)
}

// Digest is the counted redirect a digest mail links a notice through
// (GET /r/<kind>/<request_id>, which redirects to Notice).
func (l Links) Digest(kind, requestID string) string {
	return l.Base + "/r/" + kind + "/" + requestID
}

// NoticeLinks are the addresses of one notice as the API and feeds show
// them.
type NoticeLinks struct {
	Permalink string `json:"permalink"`
	JSON      string `json:"json"`
	Official  string `json:"official"`
	OpenData  string `json:"open_data"`
	Vendor    string `json:"vendor,omitempty"`
	Agency    string `json:"agency,omitempty"`
	Matter    string `json:"matter,omitempty"`
}

// ForNotice is every address of a notice: its permalink and JSON twin,
// the official and open-data sources, and the vendor (when it names one),
// agency and matter (when it has a PIN) permalinks.
func (l Links) ForNotice(n record.Notice) NoticeLinks {
	out := NoticeLinks{
		Permalink: l.Notice(n.RequestID),
		JSON:      l.NoticeJSON(n.RequestID),
		Official:  n.OfficialURL,
		OpenData:  n.OpenDataURL,
		Agency:    l.Agency(n.AgencyID, n.AgencyName),
	}
	if n.VendorStem != "" {
		out.Vendor = l.Vendor(n.VendorStem, n.VendorName)
	}
	if n.PIN != "" {
		out.Matter = l.Matter(n.PIN)
	}
	return out
}

// Confirm is the confirmation link of a Form 2 watch request.
func (l Links) Confirm(token string) string { return l.Base + "/confirm/" + token }

// Manage is a watch's manage link.
func (l Links) Manage(token string) string { return l.Base + "/manage/" + token }

// Unsubscribe is a watch's one-click unsubscribe link.
func (l Links) Unsubscribe(token string) string { return l.Base + "/u/" + token }

// RemoveAll is an address's "this wasn't me — remove everything" link
// (one click, RFC 8058): it ends every watch of the address and drops its
// queued mail.
func (l Links) RemoveAll(token string) string { return l.Base + "/remove/" + token }
