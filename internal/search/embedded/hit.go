package embedded

import (
	"encoding/binary"
	"fmt"
	"math"
	"time"

	"github.com/blevesearch/bleve/v2/index/scorch"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// A notice is stored in four fields (format 10), each text once:
//
//   - "hit": the notice as a result list reads it (search.BriefNotice),
//     without its Body, Text and Raw, with what a list shows of them, in
//     a compact binary form (storedHit): all a search page decodes;
//   - "body": its Body, as is (absent when empty);
//   - "text": its Text, as is, absent when empty, equal to Body
//     (storedHit.TextIsBody) or to Body's plain text (format 13:
//     storedHit.TextIsPlainBody, cut again when read);
//   - "raw": its Raw source fields, those Body holds as their place in it
//     (format 12, rawstore.go; Get only).
//
// Formats 1 to 9 stored the notice whole in "doc" (from format 4 on
// without Raw; migrate.go reads it): a page of 20 hits decoded 20 bodies
// and 20 texts.

// storedHit is the stored "hit" field, in a compact binary form
// (encode, decodeHit): JSON took as long to decode without the text as
// with it (its cost is per field), a result page's largest cost.
type storedHit struct {
	record.Notice
	HasBody    bool
	SourceHTML bool
	// TextIsBody: Text equals a non-empty Body, stored once in "body"
	TextIsBody bool
	// TextIsPlainBody: Text is record.PlainText of a non-empty Body (as
	// the City Record loader makes it), made again from "body" when read
	// (format 13; record.PlainText is part of the format:
	// TestPassageCutIsPartOfTheFormat)
	TextIsPlainBody bool
}

// noticeStored are the stored fields of n but "raw" ("" values are left
// out by noticeFields).
func noticeStored(n record.Notice) (hit, body, text string, err error) {
	b := search.BriefNotice(n)
	sh := storedHit{Notice: b, HasBody: b.Brief.HasBody, SourceHTML: b.Brief.SourceHTML,
		TextIsBody: n.Text != "" && n.Text == n.Body}
	sh.TextIsPlainBody = !sh.TextIsBody && n.Text != "" && n.Text == record.PlainText(n.Body)
	body, text = n.Body, n.Text
	if sh.TextIsBody || sh.TextIsPlainBody {
		text = ""
	}
	enc, err := sh.encode()
	return string(enc), body, text, err
}

// hitForm is the first byte of a stored hit: its layout's version.
const hitForm = 1

// The flags byte of a stored hit.
const (
	flagDueRolling = 1 << iota
	flagAmountValid
	flagHasBody
	flagSourceHTML
	flagTextIsBody
	flagTextIsPlainBody
)

// strings are the stored hit's string fields, in their stored order
// (TestStoredHitHoldsEveryField keeps this list whole).
func (sh *storedHit) strings() [26]*string {
	n := &sh.Notice
	return [...]*string{&n.RequestID, &n.Source, &n.Section, &n.Lens, &n.NoticeType, &n.Category, &n.SelectionMethod,
		&n.AgencyRaw, &n.AgencyID, &n.AgencyName, &n.AgencyDivision, &n.Title, &n.PIN, &n.AmountRaw,
		&n.VendorName, &n.VendorStem, &n.VendorAddress, &n.EventPlace, &n.OfficialURL, &n.OpenDataURL,
		&n.Contact.Name, &n.Contact.Phone, &n.Contact.Fax, &n.Contact.Email, &n.Contact.AddressRequest, &n.Contact.AddressToSubmit}
}

// lists are its string lists (nil and empty kept apart), and times its
// times, in their stored order.
func (sh *storedHit) lists() [2]*[]string { return [...]*[]string{&sh.Lenses, &sh.DocumentLinks} }
func (sh *storedHit) times() [4]*time.Time {
	return [...]*time.Time{&sh.StartDate, &sh.EndDate, &sh.DueDate, &sh.EventDate}
}

// encode is the stored form: hitForm, the flags byte, the amount (8
// bytes), each time (its MarshalBinary, length first), each list (its
// length plus one, 0 for nil, then its strings) and each string, every
// length a uvarint.
func (sh *storedHit) encode() ([]byte, error) {
	var flags byte
	for _, f := range []struct {
		on  bool
		bit byte
	}{{sh.DueRolling, flagDueRolling}, {sh.AmountValid, flagAmountValid}, {sh.HasBody, flagHasBody},
		{sh.SourceHTML, flagSourceHTML}, {sh.TextIsBody, flagTextIsBody},
		{sh.TextIsPlainBody, flagTextIsPlainBody}} {
		if f.on {
			flags |= f.bit
		}
	}
	out := []byte{hitForm, flags}
	out = binary.LittleEndian.AppendUint64(out, math.Float64bits(sh.Amount))
	str := func(s string) {
		out = binary.AppendUvarint(out, uint64(len(s)))
		out = append(out, s...)
	}
	for _, t := range sh.times() {
		b, err := t.MarshalBinary()
		if err != nil {
			return nil, fmt.Errorf("embedded: notice %s: %w", sh.RequestID, err)
		}
		str(string(b))
	}
	for _, l := range sh.lists() {
		if *l == nil {
			out = append(out, 0)
			continue
		}
		out = binary.AppendUvarint(out, uint64(len(*l))+1)
		for _, s := range *l {
			str(s)
		}
	}
	for _, s := range sh.strings() {
		str(*s)
	}
	return out, nil
}

// decodeHit reads a stored "hit" field (nil: not stored). Its strings
// share one copy of b.
func decodeHit(b []byte) (storedHit, error) {
	var sh storedHit
	if b == nil {
		return sh, &record.Error{Code: record.EUNAVAILABLE, Message: "stored notice is missing"}
	}
	bad := &record.Error{Code: record.EUNAVAILABLE, Message: "stored notice is unreadable"}
	if len(b) < 10 || b[0] != hitForm {
		return sh, bad
	}
	all := string(b)
	flags := b[1]
	sh.DueRolling, sh.AmountValid = flags&flagDueRolling != 0, flags&flagAmountValid != 0
	sh.HasBody, sh.SourceHTML, sh.TextIsBody = flags&flagHasBody != 0, flags&flagSourceHTML != 0, flags&flagTextIsBody != 0
	sh.TextIsPlainBody = flags&flagTextIsPlainBody != 0
	sh.Amount = math.Float64frombits(binary.LittleEndian.Uint64(b[2:]))
	at := 10
	uvarint := func() (int, bool) {
		v, k := binary.Uvarint(b[at:])
		if k <= 0 || v > uint64(len(b)) {
			return 0, false
		}
		at += k
		return int(v), true
	}
	next := func() (int, bool) { // the next string's end
		n, ok := uvarint()
		if !ok || at+n > len(b) {
			return 0, false
		}
		at += n
		return n, true
	}
	str := func() (string, bool) {
		n, ok := next()
		return all[at-n : at], ok
	}
	for _, t := range sh.times() {
		n, ok := next()
		if !ok || t.UnmarshalBinary(b[at-n:at]) != nil {
			return sh, bad
		}
	}
	for _, l := range sh.lists() {
		n, ok := uvarint()
		if !ok {
			return sh, bad
		}
		if n == 0 {
			continue
		}
		*l = make([]string, n-1)
		for i := range *l {
			if (*l)[i], ok = str(); !ok {
				return sh, bad
			}
		}
	}
	for _, p := range sh.strings() {
		var ok bool
		if *p, ok = str(); !ok {
			return sh, bad
		}
	}
	if at != len(b) {
		return sh, bad
	}
	return sh, nil
}

// notice is the stored notice with the "body" and "text" fields read
// ("": absent or not read). Brief gives search.BriefNotice's notice (the
// text is needed only when it keeps it), else the whole notice but Raw.
func (sh storedHit) notice(body, text string, brief bool) record.Notice {
	n := sh.Notice
	switch {
	case sh.TextIsBody:
		text = body
	case sh.TextIsPlainBody && body != "":
		text = record.PlainText(body)
	}
	if brief {
		n.Brief = record.Brief{TextLeftOut: true, HasBody: sh.HasBody, SourceHTML: sh.SourceHTML}
		if n.VendorInText() {
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
		if brief && sh.Notice.VendorInText() { // an award or intent without a vendor field: few
			if err := visit(true); err != nil {
				return err
			}
		}
		n := sh.notice(body, text, brief)
		h.notice = &n
		return nil
	}
}
