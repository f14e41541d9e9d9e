package feed

import (
	"bytes"
	"strconv"
	"strings"
)

const atomNS = "http://www.w3.org/2005/Atom"

// Atom renders f as an Atom 1.0 feed (RFC 4287). Every entry has an id,
// title, updated and published dates, an alternate link (the permalink), a
// via link (the official source), a text summary and text content. The
// feed's scope is in its subtitle, rights and an rw:scope extension element.
func Atom(f Feed) []byte {
	w := &xmlWriter{}
	w.b.WriteString(`<?xml version="1.0" encoding="utf-8"?>` + "\n")
	w.open("feed", "xmlns", atomNS, "xmlns:rw", Namespace, "xml:lang", "en-US")
	w.elem("id", f.ID)
	w.elem("title", oneLine(f.Title), "type", "text")
	if f.Description != "" {
		w.elem("subtitle", f.Description, "type", "text")
	}
	w.elem("updated", rfc3339(f.Updated))
	if f.Self.Atom != "" {
		w.empty("link", "rel", "self", "type", "application/atom+xml", "href", f.Self.Atom)
	}
	if f.HomeURL != "" {
		w.empty("link", "rel", "alternate", "type", "text/html", "href", f.HomeURL)
	}
	if f.Self.JSON != "" {
		w.empty("link", "rel", "alternate", "type", "application/feed+json", "href", f.Self.JSON)
	}
	if f.Self.ICS != "" {
		w.empty("link", "rel", "alternate", "type", "text/calendar", "href", f.Self.ICS)
	}
	if f.Scope.SearchURL != "" {
		w.empty("link", "rel", "related", "type", "application/json", "href", f.Scope.SearchURL)
	}
	if f.Author.Name != "" {
		w.open("author")
		w.elem("name", f.Author.Name)
		if f.Author.URL != "" {
			w.elem("uri", f.Author.URL)
		}
		w.close("author")
	}
	if f.Generator != "" {
		if f.Author.URL != "" {
			w.elem("generator", f.Generator, "uri", f.Author.URL)
		} else {
			w.elem("generator", f.Generator)
		}
	}
	if f.Rights != "" {
		w.elem("rights", f.Rights, "type", "text")
	}
	atomScope(w, f.Scope)
	for _, it := range f.Items {
		published, updated := itemDates(it, f.Updated)
		w.open("entry")
		w.elem("id", it.ID)
		w.elem("title", oneLine(it.Title), "type", "text")
		w.elem("updated", rfc3339(updated))
		if !published.IsZero() {
			w.elem("published", rfc3339(published))
		}
		if it.URL != "" {
			w.empty("link", "rel", "alternate", "type", "text/html", "href", it.URL)
		}
		if it.SourceURL != "" {
			w.empty("link", "rel", "via", "type", "text/html", "href", it.SourceURL, "title", "Official source")
		}
		for _, c := range it.Categories {
			if c = oneLine(c); c != "" {
				w.empty("category", "term", c)
			}
		}
		if it.Summary != "" {
			w.elem("summary", it.Summary, "type", "text")
		}
		if it.Content != "" {
			w.elem("content", it.Content, "type", "text")
		}
		w.close("entry")
	}
	w.close("feed")
	return w.b.Bytes()
}

func atomScope(w *xmlWriter, s Scope) {
	w.open("rw:scope")
	w.elem("rw:covers", s.Covers)
	for _, k := range sortedKeys(s.Filter) {
		w.elem("rw:filter", s.Filter[k], "name", k)
	}
	if s.Order != "" {
		w.elem("rw:order", s.Order)
	}
	w.elem("rw:limit", strconv.Itoa(s.Limit))
	if s.MatchedRelation != "" {
		w.elem("rw:matched", strconv.Itoa(s.Matched), "relation", s.MatchedRelation) // "gte": at least
	} else {
		w.elem("rw:matched", strconv.Itoa(s.Matched))
	}
	w.elem("rw:items", strconv.Itoa(s.Items))
	if !s.CorpusObservedAt.IsZero() {
		w.elem("rw:corpusObservedAt", rfc3339(s.CorpusObservedAt))
	}
	if s.FirstSourceDate != "" {
		w.elem("rw:firstSourceDate", s.FirstSourceDate)
	}
	if s.LastSourceDate != "" {
		w.elem("rw:lastSourceDate", s.LastSourceDate)
	}
	for _, src := range s.Sources {
		attrs := []string{"id", src.Source, "label", src.Label}
		if !src.ObservedAt.IsZero() {
			attrs = append(attrs, "observedAt", rfc3339(src.ObservedAt))
		}
		if src.FirstSourceDate != "" {
			attrs = append(attrs, "firstSourceDate", src.FirstSourceDate)
		}
		if src.LastSourceDate != "" {
			attrs = append(attrs, "lastSourceDate", src.LastSourceDate)
		}
		attrs = append(attrs, "records", strconv.Itoa(src.Records))
		if src.State != "" {
			attrs = append(attrs, "newestSourceDate", src.NewestSourceDate, "state", src.State)
			if !src.StateSince.IsZero() {
				attrs = append(attrs, "stateSince", rfc3339(src.StateSince))
			}
			if src.FreshnessNote != "" {
				attrs = append(attrs, "freshnessNote", src.FreshnessNote)
			}
		}
		w.empty("rw:source", attrs...)
	}
	if s.AbsenceType != "" {
		w.elem("rw:absence", s.AbsenceNote, "type", s.AbsenceType)
	}
	if s.DateBoundsNote != "" {
		w.elem("rw:dateBoundsNote", s.DateBoundsNote)
	}
	for i, r := range s.AbsenceRules {
		w.elem("rw:absenceRule", r, "n", strconv.Itoa(i+1))
	}
	if s.Official != "" {
		w.elem("rw:official", s.Official)
	}
	if s.SearchURL != "" {
		w.empty("rw:search", "href", s.SearchURL)
	}
	w.close("rw:scope")
}

// xmlWriter writes indented XML with escaped text and attributes.
type xmlWriter struct {
	b     bytes.Buffer
	depth int
}

func (w *xmlWriter) indent() {
	for range w.depth {
		w.b.WriteString("  ")
	}
}

func (w *xmlWriter) tag(name string, attrs []string) {
	w.b.WriteByte('<')
	w.b.WriteString(name)
	for i := 0; i+1 < len(attrs); i += 2 {
		w.b.WriteByte(' ')
		w.b.WriteString(attrs[i])
		w.b.WriteString(`="`)
		w.b.WriteString(escapeXML(attrs[i+1], true))
		w.b.WriteByte('"')
	}
}

func (w *xmlWriter) open(name string, attrs ...string) {
	w.indent()
	w.tag(name, attrs)
	w.b.WriteString(">\n")
	w.depth++
}

func (w *xmlWriter) close(name string) {
	w.depth--
	w.indent()
	w.b.WriteString("</" + name + ">\n")
}

func (w *xmlWriter) empty(name string, attrs ...string) {
	w.indent()
	w.tag(name, attrs)
	w.b.WriteString("/>\n")
}

func (w *xmlWriter) elem(name, text string, attrs ...string) {
	w.indent()
	w.tag(name, attrs)
	w.b.WriteByte('>')
	w.b.WriteString(escapeXML(text, false))
	w.b.WriteString("</" + name + ">\n")
}

// escapeXML cleans s (see clean) and escapes it for XML text or, with attr,
// for a double-quoted attribute value (where line ends and tabs are kept as
// character references, since parsers would fold them to spaces).
func escapeXML(s string, attr bool) string {
	s = clean(s)
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			if attr {
				b.WriteString("&quot;")
			} else {
				b.WriteRune(r)
			}
		case '\n':
			if attr {
				b.WriteString("&#xA;")
			} else {
				b.WriteRune(r)
			}
		case '\t':
			if attr {
				b.WriteString("&#x9;")
			} else {
				b.WriteRune(r)
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
