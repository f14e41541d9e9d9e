package api

import (
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/store"
	"github.com/recordwatch/recordwatch/internal/view"
)

// MaxBatchName bounds one name of a batch request, in characters.
const MaxBatchName = 200

// BatchRequest is the body of POST /batch.
type BatchRequest struct {
	Names []string `json:"names"`
}

// BatchResponse answers POST /batch: one result per name, in order.
type BatchResponse struct {
	Results []BatchResult     `json:"results"`
	Limits  map[string]int    `json:"limits"`
	Scope   record.Scope      `json:"scope"`
	Notes   map[string]string `json:"notes"`
}

// BatchResult is what the service holds for one name.
type BatchResult struct {
	Name     string        `json:"name"`
	Stem     string        `json:"stem"`
	Awards   BatchAwards   `json:"awards"`
	Mentions BatchMentions `json:"mentions"`
	// Payments are the payments, registered contract rows and payroll rows
	// held under the stem (the vendor as payee or contractor), with the
	// row list that pages them (Form 1).
	Payments BatchRows `json:"payments"`
	// Entity is the vendor profile permalink, present when awards,
	// payments or contract rows are held.
	Entity string `json:"entity,omitempty"`
}

// BatchRows sums the rows held under a name's stem: payments (checks
// issued), registered value of registered contract rows (rows not
// registered apart).
type BatchRows struct {
	procure.RowSums
	Rows string `json:"rows,omitempty"`
	CSV  string `json:"csv,omitempty"`
}

// BatchAwards are the award and intent notices naming the vendor, by stem,
// all years.
type BatchAwards struct {
	Total        int           `json:"total"`
	ValidAmounts int           `json:"valid_amounts"`
	Amount       procure.Money `json:"amount"`
	Notices      []BatchHit    `json:"notices"`
	More         string        `json:"more"`
}

// BatchMentions are full-text hits in the last two years of editions.
type BatchMentions struct {
	Total   int        `json:"total"`
	Query   string     `json:"q"`
	From    string     `json:"from"`
	To      string     `json:"to"`
	Notices []BatchHit `json:"notices"`
	More    string     `json:"more"`
}

// BatchHit is one notice of a batch result.
type BatchHit struct {
	RequestID  string `json:"request_id"`
	Title      string `json:"title"`
	Published  string `json:"published,omitempty"`
	NoticeType string `json:"notice_type,omitempty"`
	Agency     string `json:"agency"`
	Vendor     string `json:"vendor,omitempty"`
	// VendorFromText is the vendor read from the text of an award or
	// intent without a vendor field (view.VendorFromText): how a notice
	// without one came to be counted under the name, or why it is not.
	VendorFromText *entity.VendorReading `json:"vendor_from_text,omitempty"`
	Amount         *view.AmountView      `json:"amount,omitempty"`
	Permalink      string                `json:"permalink"`
}

func (s *Server) batchHit(n record.Notice) BatchHit {
	return BatchHit{RequestID: n.RequestID, Title: n.Title, Published: entityDay(n.StartDate), NoticeType: n.NoticeType,
		Agency: n.AgencyName, Vendor: strings.TrimSpace(n.VendorName), VendorFromText: view.VendorFromText(n), Amount: view.Amount(n), Permalink: s.permalinks().Notice(n.RequestID)}
}

// readBatch parses and validates a batch body.
func readBatch(c *gin.Context) ([]string, error) {
	body, err := io.ReadAll(c.Request.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, record.Errorf(record.ETOOLARGE, "request body is larger than %d bytes", BatchMaxBody)
		}
		return nil, record.InvalidNote("body", "param.body")
	}
	var req BatchRequest
	if err := decodeStrict(body, &req); err != nil {
		if re, ok := err.(*record.Error); ok && re.Param != "body" {
			return nil, err // an unknown field ("Names" is one) or a wrong type, named
		}
		return nil, record.Invalid("body", `the body must be a JSON object {"names": ["…", …]} with at most %d names: %s`,
			BatchMaxNames, record.ErrorMessage(err))
	}
	if req.Names == nil {
		return nil, record.InvalidNote("names", "param.batch.names", BatchMaxNames)
	}
	if len(req.Names) == 0 || len(req.Names) > BatchMaxNames {
		return nil, record.InvalidNote("names", "param.batch.count", BatchMaxNames, len(req.Names))
	}
	names := make([]string, len(req.Names))
	for i, n := range req.Names {
		n = strings.TrimSpace(n)
		param := "names[" + strconv.Itoa(i) + "]"
		switch {
		case n == "":
			return nil, record.InvalidNote(param, "param.batch.empty", i+1)
		case len([]rune(n)) > MaxBatchName:
			return nil, record.InvalidNote(param, "param.batch.long", i+1, MaxBatchName)
		case !entity.StemLongEnough(entity.VendorStem(n)):
			return nil, record.InvalidNote(param, "param.batch.short", i+1, strconv.Quote(n), entity.MinStemChars)
		}
		names[i] = n
	}
	return names, nil
}

// batch is POST /batch: for each of at most 10 names, the award and intent
// notices naming that vendor by stem (all years), full-text mentions in the
// last two years of editions, and the vendor profile when awards exist.
func (s *Server) batch(c *gin.Context) {
	names, err := readBatch(c)
	if err != nil {
		writeError(c, err)
		return
	}
	ctx := c.Request.Context()
	b, err := s.dossiers().Batch(ctx, names)
	if err != nil {
		writeError(c, err)
		return
	}
	from, to := entityDay(b.From), entityDay(b.To)
	out := BatchResponse{Results: []BatchResult{}, Limits: map[string]int{"max_names": BatchMaxNames, "requests_per_day": BatchPerDay},
		Notes: map[string]string{
			"awards":   "Award and intent notices naming a vendor whose name has the same stem (legal suffixes and case ignored), all years held.",
			"mentions": "Full-text hits for the name (its stem, as a phrase) in notices published in the last two years; a mention is not an award.",
			"payments": "Payments to a payee whose name has the same stem, and registered contract rows of a vendor of that stem, all years held; contract totals are registered value, not spending.",
			"entity":   "The vendor profile permalink, present when awards, payments or contract rows are held.",
			"absence":  "No awards or mentions does not mean no record exists: only the records held here were searched (see scope).",
		}}
	for _, it := range b.Items {
		r := BatchResult{Name: it.Name, Stem: it.Stem,
			Awards: BatchAwards{Total: it.Awards.Total, ValidAmounts: it.Awards.ValidAmounts, Amount: procure.AwardSum(it.Awards.Total, it.Awards.ValidAmounts, it.Awards.Amount).Money(), Notices: []BatchHit{},
				More: s.searchURL(url.Values{"vendor": {it.Stem}, "type": {strings.Join(procure.AwardTypes, ",")}})},
			Mentions: BatchMentions{Total: it.Mentions, Query: it.MentionQuery, From: from, To: to, Notices: []BatchHit{},
				More: s.searchURL(url.Values{"q": {it.MentionQuery}, "from": {from}, "to": {to}})},
		}
		for _, n := range it.AwardNotices {
			r.Awards.Notices = append(r.Awards.Notices, s.batchHit(n))
		}
		for _, n := range it.MentionNotices {
			r.Mentions.Notices = append(r.Mentions.Notices, s.batchHit(n))
		}
		r.Payments = BatchRows{RowSums: it.Rows}
		if it.Rows.Records > 0 && s.cfg.Form == 1 {
			q := url.Values{"vendor_stem": {it.Stem}}
			r.Payments.Rows, r.Payments.CSV = s.RowsLink(q, "", false), s.RowsLink(q, "", true)
		}
		if it.Awards.Total > 0 || it.Rows.Records > 0 {
			r.Entity = s.vendorLink(it.Stem, it.Name)
		}
		out.Results = append(out.Results, r)
	}
	out.Scope = b.Scope
	s.countEvent(ctx, store.CounterBatchRequest, 1) // Form 2 /stats reports it
	renderJSON(c, http.StatusOK, out, noStore, b.Scope.CorpusObservedAt)
}
