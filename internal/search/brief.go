package search

import (
	"github.com/recordwatch/recordwatch/internal/record"
)

// BriefNotice is n as a result list reads it (Query.Brief): without Raw
// and Body, and without Text unless the list reads a vendor from it
// (record.Notice.VendorInText); n.Brief says what a list shows of the
// text (record.Notice.HasFullText, SourceHTML). Both engines answer a
// brief query with these notices; the embedded engine stores them apart
// so that a result page decodes no full text.
func BriefNotice(n record.Notice) record.Notice {
	n.Brief = record.Brief{TextLeftOut: true, HasBody: n.HasFullText(), SourceHTML: n.SourceHTML()}
	n.Body, n.Raw = "", nil
	if !n.VendorInText() { // a list reads that vendor from the text (view.VendorFromText)
		n.Text = ""
	}
	return n
}
