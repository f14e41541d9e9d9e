package embedded

import (
	"encoding/json"

	"github.com/blevesearch/bleve/v2/index/scorch"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// A notice is stored in four fields (format 10), each text once:
//
//   - "hit": the notice as a result list reads it (search.BriefNotice)
//     as JSON, without its Body, Text and Raw, with what a list shows of
//     them (storedHit): all a search page decodes;
//   - "body": its Body, as is (absent when empty);
//   - "text": its Text, as is, absent when empty or equal to Body
//     (storedHit.TextIsBody);
//   - "raw": its Raw source fields as JSON (Get only).
//
// Formats 4 to 9 stored the notice but Raw whole in "doc" (migrate.go
// reads it); a page of 20 hits decoded 20 full texts twice over.

// storedHit is the stored "hit" field.
type storedHit struct {
	record.Notice
	HasBody    bool `json:"has_body,omitempty"`
	SourceHTML bool `json:"source_html,omitempty"`
	// TextIsBody: Text equals a non-empty Body, stored once in "body"
	TextIsBody bool `json:"text_is_body,omitempty"`
}

// noticeStored are the stored fields of n but "raw" ("" values are left
// out by noticeFields).
func noticeStored(n record.Notice) (hit, body, text string, err error) {
	b := search.BriefNotice(n)
	sh := storedHit{Notice: b, HasBody: b.Brief.HasBody, SourceHTML: b.Brief.SourceHTML,
		TextIsBody: n.Text != "" && n.Text == n.Body}
	sh.Text = "" // in "text" or "body"
	js, err := json.Marshal(sh)
	if err != nil {
		return "", "", "", err
	}
	body, text = n.Body, n.Text
	if sh.TextIsBody {
		text = ""
	}
	return string(js), body, text, nil
}

// decodeHit reads a stored "hit" field (nil: not stored).
func decodeHit(hit []byte) (storedHit, error) {
	var sh storedHit
	if hit == nil {
		return sh, &record.Error{Code: record.EUNAVAILABLE, Message: "stored notice is missing"}
	}
	if err := json.Unmarshal(hit, &sh); err != nil {
		return sh, &record.Error{Code: record.EUNAVAILABLE, Message: "stored notice is unreadable"}
	}
	return sh, nil
}

// notice is the stored notice with the "body" and "text" fields read
// ("": absent or not read). Brief gives search.BriefNotice's notice (the
// text is needed only when it keeps it), else the whole notice but Raw.
func (sh storedHit) notice(body, text string, brief bool) record.Notice {
	n := sh.Notice
	if sh.TextIsBody {
		text = body
	}
	if brief {
		n.Brief = record.Brief{TextLeftOut: true, HasBody: sh.HasBody, SourceHTML: sh.SourceHTML}
		if search.BriefKeepsText(n) {
			n.Text = text
		}
		return n
	}
	n.Body, n.Text = body, text
	return n
}

// loadNotice reads a hit's notice from its segment: the "hit" field,
// decoded where it lies, and "body" and "text" only when the notice is
// read whole or its brief form keeps the text.
func loadNotice(brief bool) func(s *scorch.SegmentSnapshot, doc uint64, h *topHit) error {
	return func(s *scorch.SegmentSnapshot, doc uint64, h *topHit) error {
		var sh storedHit
		var body, text string
		read, err := false, error(nil)
		visit := func(withText bool) error {
			return s.VisitDocument(doc, func(field string, _ byte, value []byte, _ []uint64) bool {
				switch {
				case field == "hit" && !read:
					sh, err = decodeHit(value)
					read = true
				case withText && field == "body":
					body = string(value)
				case withText && field == "text":
					text = string(value)
				}
				return withText || !read
			})
		}
		if err := visit(!brief); err != nil {
			return err
		}
		if !read {
			_, err = decodeHit(nil)
		}
		if err != nil {
			return err
		}
		if brief && search.BriefKeepsText(sh.Notice) { // an award or intent without a vendor field: few
			if err := visit(true); err != nil {
				return err
			}
		}
		h.notice = sh.notice(body, text, brief)
		return nil
	}
}
