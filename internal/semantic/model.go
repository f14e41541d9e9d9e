// Package semantic is Recordwatch's semantic notice search: static word
// vectors distilled from a sentence model (model/distill.py), a vector per
// notice stored in the engine as a record (NoticeVectorKind, through the
// generic Records seam, so both engines hold them the same way), an
// in-memory nearest-neighbour index rebuilt from the engine, and hybrid
// ranking that fuses keyword and vector rankings. Semantic and hybrid
// search state the same scope as keyword search and go through the same
// filters (the engine answers them), so a filter means one thing whatever
// the mode.
package semantic

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// ModelName names the vectors a notice vector was made with; a vector of
// another model is not comparable and is rebuilt.
const ModelName = "minilm-l6-static-128-v1"

//go:embed model/vectors.bin.gz
var modelFile []byte

const modelMagic = "RWSEMV1\n"

// Model is a static embedding model: one weighted vector per vocabulary
// entry (a whole word, or a WordPiece "##" continuation).
type Model struct {
	Dims    int
	entries map[string]int32
	weights []float32
	vecs    []float32 // len(entries)*Dims, dequantized
	maxLen  int       // longest entry, in bytes
}

// Default is the bundled model, read once.
var Default = sync.OnceValues(func() (*Model, error) { return ReadModel(bytes.NewReader(modelFile)) })

// ReadModel reads a model file written by model/distill.py.
func ReadModel(r io.Reader) (*Model, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("semantic: model: %w", err)
	}
	br := bufio.NewReader(zr)
	magic := make([]byte, len(modelMagic))
	if _, err := io.ReadFull(br, magic); err != nil || string(magic) != modelMagic {
		return nil, fmt.Errorf("semantic: model: not a vector file")
	}
	var head [2]uint32
	if err := binary.Read(br, binary.LittleEndian, &head); err != nil {
		return nil, fmt.Errorf("semantic: model: %w", err)
	}
	dims, n := int(head[0]), int(head[1])
	if dims <= 0 || dims > 4096 || n <= 0 || n > 1<<22 {
		return nil, fmt.Errorf("semantic: model: implausible size %d×%d", n, dims)
	}
	m := &Model{Dims: dims, entries: make(map[string]int32, n), weights: make([]float32, n), vecs: make([]float32, n*dims)}
	q := make([]int8, dims)
	for i := range n {
		l, err := br.ReadByte()
		if err != nil {
			return nil, fmt.Errorf("semantic: model: entry %d: %w", i, err)
		}
		name := make([]byte, l)
		if _, err := io.ReadFull(br, name); err != nil {
			return nil, fmt.Errorf("semantic: model: entry %d: %w", i, err)
		}
		var ws [2]float32
		if err := binary.Read(br, binary.LittleEndian, &ws); err != nil {
			return nil, fmt.Errorf("semantic: model: entry %d: %w", i, err)
		}
		if err := binary.Read(br, binary.LittleEndian, q); err != nil {
			return nil, fmt.Errorf("semantic: model: entry %d: %w", i, err)
		}
		m.entries[string(name)] = int32(i)
		m.weights[i] = ws[0]
		for d, v := range q {
			m.vecs[i*dims+d] = float32(v) * ws[1]
		}
		m.maxLen = max(m.maxLen, int(l))
	}
	return m, nil
}

// Words cuts text the way the model's vocabulary was built: lower case,
// accents removed, runs of ASCII letters and digits.
func Words(text string) []string {
	t := norm.NFD.String(strings.ToLower(text))
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	for _, r := range t {
		switch {
		case r < 128 && (r >= 'a' && r <= 'z' || r >= '0' && r <= '9'):
			b.WriteRune(r)
		case unicode.Is(unicode.Mn, r):
			// an accent removed by NFD: the word goes on
		default:
			flush()
		}
	}
	flush()
	return out
}

// Bounds on a word read in pieces: letter fragments are no evidence of
// meaning ("qzxv" is q ##z ##x ##v), so a word that is not an entry counts
// only when it splits into at most MaxPieces pieces, the first of at least
// MinFirstPiece letters ("stoplights" is stop ##light ##s).
const (
	MaxPieces     = 3
	MinFirstPiece = 3
)

// pieces is the vocabulary entries of one word: the word itself when held,
// else WordPiece's greedy longest match ("##" for continuations) within
// MaxPieces and MinFirstPiece; nil when the word has none.
func (m *Model) pieces(w string, out []int32) []int32 {
	if i, ok := m.entries[w]; ok {
		return append(out, i)
	}
	start := len(out)
	for pos := 0; pos < len(w); {
		end := min(len(w), pos+m.maxLen)
		found := int32(-1)
		for ; end > pos; end-- {
			key := w[pos:end]
			if pos > 0 {
				key = "##" + key
			}
			if i, ok := m.entries[key]; ok {
				found = i
				break
			}
		}
		if found < 0 || (pos == 0 && end < MinFirstPiece) || len(out)-start == MaxPieces {
			return out[:start]
		}
		out = append(out, found)
		pos = end
	}
	return out
}

// Embed is text's vector: the weighted mean of its words' entries, of unit
// length. ok is false when no word of the text is known (a vector of
// nothing is no evidence of anything).
func (m *Model) Embed(text string) (v []float32, ok bool) {
	return m.EmbedWords(Words(text))
}

// EmbedWords is Embed over words already cut by Words.
func (m *Model) EmbedWords(words []string) ([]float32, bool) {
	v := make([]float32, m.Dims)
	var ids []int32
	n := 0
	for _, w := range words {
		ids = m.pieces(w, ids[:0])
		if len(ids) == 0 {
			continue
		}
		share := 1 / float32(len(ids)) // a word split in pieces counts once
		for _, id := range ids {
			wt := m.weights[id] * share
			row := m.vecs[int(id)*m.Dims : int(id+1)*m.Dims]
			for d, x := range row {
				v[d] += wt * x
			}
		}
		n++
	}
	if n == 0 {
		return nil, false
	}
	return v, normalize(v)
}

func normalize(v []float32) bool {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return false
	}
	inv := float32(1 / math.Sqrt(s))
	for i := range v {
		v[i] *= inv
	}
	return true
}
