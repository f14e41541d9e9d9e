package synth

import (
	"math/rand/v2"
	"strings"
	"unicode"
	"unicode/utf8"
)

// pool holds the sentences of one class and body column, and their words
// (with repetition, so a drawn word follows real word frequencies).
type pool struct {
	sentences []string
	words     []string
}

// Long runs without sentence ends (tables, lists) are cut into pieces.
const maxSentence = 400

func (p *pool) add(text string) {
	for para := range strings.SplitSeq(text, "\n\n") {
		for _, s := range sentences(para) {
			p.sentences = append(p.sentences, s)
			p.words = append(p.words, letterWords(s)...)
		}
	}
}

// sentences splits a paragraph after ". ", "; ", "? " and "! " when an
// upper-case letter, a digit or an opening bracket follows, and cuts pieces
// longer than maxSentence at a space.
func sentences(para string) []string {
	para = strings.TrimSpace(para)
	if para == "" {
		return nil
	}
	var out []string
	rs := []rune(para)
	start := 0
	emit := func(end int) {
		s := strings.TrimSpace(string(rs[start:end]))
		for utf8.RuneCountInString(s) > maxSentence {
			cut := []rune(s)
			i := maxSentence * 3 / 4
			for i > 0 && cut[i] != ' ' {
				i--
			}
			if i == 0 {
				i = maxSentence * 3 / 4
			}
			out = append(out, strings.TrimSpace(string(cut[:i])))
			s = strings.TrimSpace(string(cut[i:]))
		}
		if s != "" {
			out = append(out, s)
		}
		start = end
	}
	for i := 0; i+2 < len(rs); i++ {
		switch rs[i] {
		case '.', ';', '?', '!':
		default:
			continue
		}
		if rs[i+1] != ' ' {
			continue
		}
		j := i + 1
		for j < len(rs) && rs[j] == ' ' {
			j++
		}
		if j < len(rs) && (unicode.IsUpper(rs[j]) || unicode.IsDigit(rs[j]) || rs[j] == '(' || rs[j] == '"' || rs[j] == '“') {
			emit(i + 1)
			i = j - 1
		}
	}
	emit(len(rs))
	return out
}

// letterWords are the words of four or more letters in s.
func letterWords(s string) []string {
	ws := strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) })
	out := ws[:0]
	for _, w := range ws {
		if utf8.RuneCountInString(w) >= 4 {
			out = append(out, w)
		}
	}
	return out
}

// text builds a column of about target characters of plain text from the
// pool's sentences, as HTML paragraphs when html is set, else as plain
// paragraphs separated by sep.
func (p *pool) text(r *rand.Rand, target int, html bool, sep string) string {
	var paras [][]string
	var cur []string
	size := 0
	per := 1 + r.IntN(4)
	for size < target {
		s := mutateSentence(r, p.sentences[r.IntN(len(p.sentences))], p.words)
		n := utf8.RuneCountInString(s)
		if size > 0 && size+n > target+target/5 {
			s = cutWords(s, max(target-size, 1))
			n = utf8.RuneCountInString(s)
		}
		cur = append(cur, s)
		size += n + 1
		if len(cur) >= per {
			paras = append(paras, cur)
			cur, per = nil, 1+r.IntN(4)
		}
	}
	if len(cur) > 0 {
		paras = append(paras, cur)
	}
	var b strings.Builder
	b.Grow(size + size/4)
	for i, para := range paras {
		if !html {
			if i > 0 {
				b.WriteString(sep)
			}
			b.WriteString(strings.Join(para, " "))
			continue
		}
		if i > 0 {
			b.WriteString(" ")
			if r.IntN(5) < 2 {
				b.WriteString("<p>\n\t&nbsp;</p> ")
			}
		}
		b.WriteString("<p>\n\t")
		for j, s := range para {
			if j > 0 {
				b.WriteByte(' ')
			}
			if j == 0 && r.IntN(5) == 0 {
				b.WriteString("<strong>")
				b.WriteString(escapeHTML(s))
				b.WriteString("</strong>")
				continue
			}
			b.WriteString(escapeHTML(s))
		}
		b.WriteString("</p>")
	}
	return b.String()
}

// cutWords keeps the first words of s, about n characters.
func cutWords(s string, n int) string {
	rs := []rune(s)
	if n >= len(rs) {
		return s
	}
	i := n
	for i < len(rs) && rs[i] != ' ' {
		i++
	}
	return strings.TrimSpace(string(rs[:i]))
}

var htmlEscaper = strings.NewReplacer(
	"&", "&amp;", "<", "&lt;", ">", "&gt;",
	"’", "&rsquo;", "‘", "&lsquo;", "“", "&ldquo;", "”", "&rdquo;", "\u00a0", "&nbsp;",
)

func escapeHTML(s string) string { return htmlEscaper.Replace(s) }

// Mutation rates: how much a borrowed sentence or title is changed.
const (
	sentenceDigitRate = 0.5  // per digit run
	sentenceWordRate  = 0.08 // per word of four or more letters
	titleDigitRate    = 0.5
	titleWordRate     = 0.15
)

func mutateSentence(r *rand.Rand, s string, words []string) string {
	return mutateWords(r, mutateDigits(r, s, sentenceDigitRate), words, sentenceWordRate)
}

func mutateTitle(r *rand.Rand, s string, words []string) string {
	return mutateWords(r, mutateDigits(r, s, titleDigitRate), words, titleWordRate)
}

// mutateDigits redraws each run of digits with probability p, keeping its
// length and a leading zero; four-digit years (19xx, 20xx) are kept.
func mutateDigits(r *rand.Rand, s string, p float64) string {
	if strings.IndexFunc(s, isDigit) < 0 {
		return s
	}
	b := []byte(s)
	for i := 0; i < len(b); {
		if !isDigit(rune(b[i])) {
			i++
			continue
		}
		j := i
		for j < len(b) && isDigit(rune(b[j])) {
			j++
		}
		year := j-i == 4 && (b[i] == '1' && b[i+1] == '9' || b[i] == '2' && b[i+1] == '0')
		if !year && r.Float64() < p {
			for k := i; k < j; k++ {
				switch {
				case k == i && b[k] == '0':
				case k == i:
					b[k] = byte('1' + r.IntN(9))
				default:
					b[k] = byte('0' + r.IntN(10))
				}
			}
		}
		i = j
	}
	return string(b)
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

// mutateWords replaces each word of four or more letters, with probability
// p, by a word drawn from words, in the case of the word it replaces.
func mutateWords(r *rand.Rand, s string, words []string, p float64) string {
	if len(words) == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	rs := []rune(s)
	for i := 0; i < len(rs); {
		if !unicode.IsLetter(rs[i]) {
			b.WriteRune(rs[i])
			i++
			continue
		}
		j := i
		for j < len(rs) && unicode.IsLetter(rs[j]) {
			j++
		}
		w := string(rs[i:j])
		if j-i >= 4 && r.Float64() < p {
			if nw := words[r.IntN(len(words))]; utf8.RuneCountInString(nw) >= 4 {
				w = matchCase(nw, w)
			}
		}
		b.WriteString(w)
		i = j
	}
	return b.String()
}

func matchCase(w, like string) string {
	switch {
	case strings.ToUpper(like) == like:
		return strings.ToUpper(w)
	case unicode.IsUpper([]rune(like)[0]):
		rs := []rune(strings.ToLower(w))
		rs[0] = unicode.ToUpper(rs[0])
		return string(rs)
	default:
		return strings.ToLower(w)
	}
}
