package record

import "strings"

// Brief is what a result list reads of a notice's full text when the
// text itself is left out (Notice.Brief).
type Brief struct {
	TextLeftOut bool // Body (and Text, unless a list reads it) were not read
	HasBody     bool // the notice's Body is not empty (HasFullText)
	SourceHTML  bool // its Body held HTML markup (SourceHTML)
}

// HasFullText reports whether the source row carries full text (Body),
// for a whole notice or a brief one.
func (n Notice) HasFullText() bool {
	if n.Brief.TextLeftOut {
		return n.Brief.HasBody
	}
	return n.Body != ""
}

// SourceHTML reports whether the notice's source text held HTML markup
// (its plain Text differs from a Body with tags), for a whole notice or a
// brief one.
func (n Notice) SourceHTML() bool {
	if n.Brief.TextLeftOut {
		return n.Brief.SourceHTML
	}
	return n.Body != "" && strings.Contains(n.Body, "<") && n.Text != n.Body
}

// VendorTextTypes are the notice types (lower case) whose text names
// their vendor (entity.VendorFromText reads it).
var VendorTextTypes = map[string]bool{"award": true, "intent to award": true, "intent to negotiate": true}

// VendorInText reports whether a notice's vendor is read from its text
// (entity.VendorFromText): an award or intent without a vendor field.
func (n Notice) VendorInText() bool {
	return strings.TrimSpace(n.VendorName) == "" && VendorTextTypes[strings.ToLower(strings.TrimSpace(n.NoticeType))]
}
