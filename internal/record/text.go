package record

import (
	"html"
	"strconv"
	"strings"
	"unicode"
)

// Passage size bounds, in characters.
const (
	PassageMin = 500
	PassageMax = 1000
)

// glyph is one character of plain text and the span of source characters
// (code points, end exclusive) it came from.
type glyph struct {
	r          rune
	start, end int
}

var blockTags = map[string]bool{
	"p": true, "br": true, "div": true, "li": true, "ul": true, "ol": true, "tr": true,
	"table": true, "h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true,
	"blockquote": true, "hr": true, "td": true, "th": true,
}

// flatten turns source text (plain or HTML) into glyphs: tags removed (block
// tags become paragraph breaks, marked with rune '\f'; an inline tag between
// two words becomes a space), entities decoded,
// control characters dropped, runs of spaces collapsed, and blank lines kept
// as paragraph breaks. Each glyph remembers where it came from.
func flatten(src string) []glyph {
	rs := []rune(src)
	out := make([]glyph, 0, len(rs))
	emit := func(r rune, s, e int) {
		if r == '\f' {
			// collapse trailing spaces before a break, and repeated breaks
			for len(out) > 0 && out[len(out)-1].r == ' ' {
				out = out[:len(out)-1]
			}
			if len(out) == 0 || out[len(out)-1].r == '\f' {
				return
			}
			out = append(out, glyph{'\f', s, e})
			return
		}
		if unicode.IsSpace(r) {
			if len(out) == 0 || out[len(out)-1].r == ' ' || out[len(out)-1].r == '\f' {
				return
			}
			out = append(out, glyph{' ', s, e})
			return
		}
		out = append(out, glyph{r, s, e})
	}
	newlines := 0
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if r == '\n' {
			newlines++
			if newlines >= 2 {
				emit('\f', i, i+1)
			} else {
				emit(' ', i, i+1)
			}
			continue
		}
		if r != '\r' && r != ' ' && r != '\t' {
			newlines = 0
		}
		switch {
		case r == '<':
			j := i + 1
			for j < len(rs) && rs[j] != '>' && rs[j] != '<' {
				j++
			}
			if j < len(rs) && rs[j] == '>' && isTag(rs[i+1:j]) {
				if blockTags[tagName(rs[i+1:j])] {
					emit('\f', i, j+1)
				} else if inlineGap(out, rs, j+1) {
					// an inline tag (<strong>, <u>, <span> …) is no
					// space of its own; it separates only two words
					// it would otherwise glue together
					emit(' ', i, j+1)
				}
				i = j
				continue
			}
			emit(r, i, i+1)
		case r == '&':
			j := i + 1
			for j < len(rs) && j-i <= 10 && rs[j] != ';' && rs[j] != '&' && !unicode.IsSpace(rs[j]) {
				j++
			}
			if j < len(rs) && rs[j] == ';' {
				dec := html.UnescapeString(string(rs[i : j+1]))
				if dec != string(rs[i:j+1]) {
					for _, d := range dec {
						if d == '\u00a0' {
							d = ' '
						}
						emit(d, i, j+1)
					}
					i = j
					continue
				}
			}
			emit(r, i, i+1)
		case r == '\u001a':
			// the source lost a character here (a dash or apostrophe)
			emit(' ', i, i+1)
		case r == '\u00a0':
			emit(' ', i, i+1)
		case unicode.IsControl(r) && r != '\n' && r != '\t' && r != '\r':
			continue
		default:
			emit(r, i, i+1)
		}
	}
	for len(out) > 0 && (out[len(out)-1].r == ' ' || out[len(out)-1].r == '\f') {
		out = out[:len(out)-1]
	}
	return out
}

// inlineGap reports whether an inline tag ending just before rs[next] sits
// between a letter or digit already emitted and one that follows.
func inlineGap(out []glyph, rs []rune, next int) bool {
	if len(out) == 0 || next >= len(rs) {
		return false
	}
	prev := out[len(out)-1].r
	return (unicode.IsLetter(prev) || unicode.IsDigit(prev)) &&
		(unicode.IsLetter(rs[next]) || unicode.IsDigit(rs[next]))
}

func isTag(in []rune) bool {
	if len(in) == 0 {
		return false
	}
	c := in[0]
	return c == '/' || c == '!' || unicode.IsLetter(c)
}

func tagName(in []rune) string {
	s := strings.TrimLeft(string(in), "/!")
	end := strings.IndexFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == '/' })
	if end >= 0 {
		s = s[:end]
	}
	return strings.ToLower(s)
}

func glyphString(gs []glyph) string {
	var b strings.Builder
	for _, g := range gs {
		if g.r == '\f' {
			b.WriteString("\n\n")
		} else {
			b.WriteRune(g.r)
		}
	}
	return b.String()
}

// PlainText renders source text (plain or HTML) as plain text: tags removed,
// entities decoded, whitespace collapsed, paragraphs separated by a blank line.
func PlainText(src string) string {
	if src == "" {
		return ""
	}
	return glyphString(flatten(src))
}

// SplitPassages cuts a notice body into citable passages of about 500–1,000
// characters, keeping paragraphs whole where they fit. Offsets are code-point
// offsets into body; IDs are "<requestID>#p<n>".
func SplitPassages(requestID, body string) []Passage {
	gs := flatten(body)
	if len(gs) == 0 {
		return nil
	}
	// paragraphs as glyph ranges
	var paras [][]glyph
	start := 0
	for i, g := range gs {
		if g.r == '\f' {
			if i > start {
				paras = append(paras, gs[start:i])
			}
			start = i + 1
		}
	}
	if start < len(gs) {
		paras = append(paras, gs[start:])
	}
	// cut oversized paragraphs at a sentence end or a space
	var pieces [][]glyph
	for _, p := range paras {
		for len(p) > PassageMax {
			cut := cutPoint(p)
			pieces = append(pieces, trimGlyphs(p[:cut]))
			p = trimGlyphs(p[cut:])
		}
		if len(p) > 0 {
			pieces = append(pieces, p)
		}
	}
	// group pieces into passages of at least PassageMin where possible
	var out []Passage
	var cur [][]glyph
	size := 0
	flush := func() {
		if len(cur) == 0 {
			return
		}
		var b strings.Builder
		for i, p := range cur {
			if i > 0 {
				b.WriteString("\n\n")
			}
			b.WriteString(glyphString(p))
		}
		first, last := cur[0][0], cur[len(cur)-1][len(cur[len(cur)-1])-1]
		n := len(out) + 1
		out = append(out, Passage{
			ID:        requestID + "#p" + strconv.Itoa(n),
			RequestID: requestID,
			Seq:       n,
			Start:     first.start,
			End:       last.end,
			Text:      b.String(),
		})
		cur, size = nil, 0
	}
	for _, p := range pieces {
		if size > 0 && size+len(p)+2 > PassageMax {
			flush()
		}
		cur = append(cur, p)
		size += len(p) + 2
		if size >= PassageMin {
			flush()
		}
	}
	flush()
	// fold a short tail into the previous passage when it fits
	if k := len(out); k >= 2 && len([]rune(out[k-1].Text)) < PassageMin/4 &&
		len([]rune(out[k-2].Text))+len([]rune(out[k-1].Text))+2 <= PassageMax {
		out[k-2].Text += "\n\n" + out[k-1].Text
		out[k-2].End = out[k-1].End
		out = out[:k-1]
	}
	return out
}

// PassageAt is the text of body's runes [start, end) as SplitPassages
// renders a passage: flattened, trimmed, paragraphs apart by a blank line.
// It reads that range alone, so it equals the passage SplitPassages cut
// there when the range's flattening does not depend on what lies around
// it (nearly always; not for a paragraph SplitPassages cut at a space):
// a caller that stores a passage's place instead of its text checks the
// two are equal first. "" for a range outside body.
func PassageAt(body string, start, end int) string {
	if start < 0 || start >= end {
		return ""
	}
	i, from, to := 0, -1, -1
	for b := range body {
		if i == start {
			from = b
		}
		if i == end {
			to = b
			break
		}
		i++
	}
	if from < 0 || (to < 0 && i != end) {
		return ""
	}
	if to < 0 {
		to = len(body)
	}
	return glyphString(trimGlyphs(flatten(body[from:to])))
}

func cutPoint(p []glyph) int {
	lo := PassageMin
	for i := PassageMax - 1; i > lo; i-- {
		if (p[i-1].r == '.' || p[i-1].r == ';') && p[i].r == ' ' {
			return i
		}
	}
	for i := PassageMax - 1; i > lo; i-- {
		if p[i].r == ' ' {
			return i
		}
	}
	return PassageMax
}

func trimGlyphs(p []glyph) []glyph {
	for len(p) > 0 && p[0].r == ' ' {
		p = p[1:]
	}
	for len(p) > 0 && p[len(p)-1].r == ' ' {
		p = p[:len(p)-1]
	}
	return p
}
