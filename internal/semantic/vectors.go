package semantic

import (
	"context"
	"math"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// NoticeVector is the stored vector of one notice: its model, the vector
// quantized to int8 (unit length before quantizing; Scale brings it back),
// when it was made, and the notice's fields a search filters by, so the
// engine applies those filters inside its nearest-neighbour search
// (search.NearQuery.Filter, built by nearFilter).
type NoticeVector struct {
	RequestID string    `json:"request_id"`
	Source    string    `json:"source"`
	Model     string    `json:"model"`
	Vector    []byte    `json:"vector"` // int8 components, as bytes (base64 in JSON)
	Scale     float32   `json:"scale"`
	MadeAt    time.Time `json:"made_at"`

	Lenses      []string  `json:"lenses,omitempty"`
	Section     string    `json:"section,omitempty"`
	NoticeType  string    `json:"notice_type,omitempty"`
	AgencyID    string    `json:"agency_id,omitempty"`
	VendorStem  string    `json:"vendor_stem,omitempty"`
	PIN         string    `json:"pin,omitempty"`
	Published   time.Time `json:"published,omitzero"` // the notice's start date
	Amount      float64   `json:"amount,omitempty"`
	AmountValid bool      `json:"amount_valid,omitempty"`
}

// The keys of a notice vector record a filter reads: the notice fields of
// the same names, matched as the notice index matches them (exact values).
const (
	keyLenses     = "lenses"
	keySection    = "section"
	keyNoticeType = "notice_type"
	keyPIN        = "pin"
	// keyVector is vectorNone on the record of a notice with no word the
	// model knows: it holds no vector, and says the notice was read
	keyVector  = "vector"
	vectorNone = "none"
)

// NoticeVectorKind is the record kind of notice vectors. It is a derived
// kind (search.DerivedFamily): an index of the notices, not a source, so no
// scope or /stats lists it as records held. Its record carries the vector
// (search.Record.Vector) for the engine's nearest-neighbour index, and
// what a notice search filters by, as the record's source, keys (lenses,
// section, notice type, agency, vendor stem, PIN), date (the notice's
// publication date) and amount, so the filters apply inside the
// nearest-neighbour search. When the vector was made is its ObservedAt.
// Version 2 was the first layout with the vector, version 3 the first
// with the filtered fields: vectors of an older layout are not found
// (vectorKeys) and are written again (Backfill, at start).
var NoticeVectorKind = search.Kind[NoticeVector]{
	Name:    search.DerivedFamily + ".notice_vector",
	Version: 3,
	Index: func(v NoticeVector) search.Record {
		keys := map[string][]string{"model": {v.Model}}
		add := func(name string, vs ...string) {
			for _, x := range vs {
				if x != "" {
					keys[name] = append(keys[name], x)
				}
			}
		}
		add(keyLenses, v.Lenses...)
		add(keySection, v.Section)
		add(keyNoticeType, v.NoticeType)
		add(search.KeyAgencyID, v.AgencyID)
		add(search.KeyVendorStem, v.VendorStem)
		add(keyPIN, v.PIN)
		if len(v.Vector) == 0 {
			add(keyVector, vectorNone)
		}
		return search.Record{
			ID: v.RequestID, Source: v.Source, SourceLabel: "vectors of " + ModelName,
			ObservedAt: v.MadeAt,
			Keys:       keys,
			Date:       v.Published, DateLabel: "published",
			Amount: v.Amount, AmountValid: v.AmountValid,
			Vector: v.floats(),
		}
	},
}

// vectorKeys are the keys of the vectors of this model and layout.
func vectorKeys() map[string][]string {
	return map[string][]string{"model": {ModelName}, search.KeyKindVersion: {NoticeVectorKind.VersionKey()}}
}

// floats is the vector as the engine indexes it (none when it is not of
// the engine's length).
func (v NoticeVector) floats() []float32 {
	if len(v.Vector) != search.VectorDims {
		return nil
	}
	out := make([]float32, len(v.Vector))
	for i, b := range v.Vector {
		out[i] = float32(int8(b)) * v.Scale
	}
	return out
}

// What a notice's vector is made of: its title's vector and the vector of
// the first MaxNoticeWords words of its text, each of unit length, weighted
// TitleWeight to 1-TitleWeight. A title says what the notice is about; the
// rest of a notice is mostly terms, addresses and submission boilerplate,
// and its opening carries what the title leaves out ("Notice",
// "APPOINTED"). Chosen on the judged set: title alone scored nDCG@10 0.57,
// title twice mixed into 300 words of text 0.31, this mix 0.56 while
// keeping the text's evidence for notices with empty titles.
const (
	MaxNoticeWords = 120
	TitleWeight    = 0.75
)

// VectorOf is a notice's vector record; ok is false when no word of the
// notice is known to the model (the record then holds no vector: it says
// the notice was read, so Backfill does not read it again; wordless).
func (m *Model) VectorOf(n record.Notice, now time.Time) (NoticeVector, bool) {
	nv := NoticeVector{RequestID: n.RequestID, Source: n.Source, Model: ModelName, MadeAt: now.UTC(),
		Lenses: n.Lenses, Section: n.Section, NoticeType: n.NoticeType, AgencyID: n.AgencyID, VendorStem: n.VendorStem, PIN: n.PIN,
		Published: n.StartDate, Amount: n.Amount, AmountValid: n.AmountValid}
	text := Words(n.Text)
	if len(text) > MaxNoticeWords {
		text = text[:MaxNoticeWords]
	}
	title, okTitle := m.EmbedWords(Words(n.Title))
	body, okBody := m.EmbedWords(text)
	var v []float32
	switch {
	case okTitle && okBody:
		v = make([]float32, m.Dims)
		for i := range v {
			v[i] = TitleWeight*title[i] + (1-TitleWeight)*body[i]
		}
		if !normalize(v) {
			return nv, false
		}
	case okTitle:
		v = title
	case okBody:
		v = body
	default:
		return nv, false
	}
	nv.Vector, nv.Scale = quantize(v)
	return nv, true
}

func quantize(v []float32) ([]byte, float32) {
	var peak float32
	for _, x := range v {
		peak = max(peak, float32(math.Abs(float64(x))))
	}
	if peak == 0 {
		return make([]byte, len(v)), 1
	}
	scale := peak / 127
	out := make([]byte, len(v))
	for i, x := range v {
		out[i] = byte(int8(math.Round(float64(x / scale))))
	}
	return out, scale
}

// Vectors are the vector records of notices: a notice with no known word
// gets a record without a vector (keyed wordless), so it counts as read.
func (m *Model) Vectors(notices []record.Notice, now time.Time) []NoticeVector {
	vs := make([]NoticeVector, 0, len(notices))
	for _, n := range notices {
		v, _ := m.VectorOf(n, now)
		vs = append(vs, v)
	}
	return vs
}

// Backfill writes the vectors of notices held without one (an index
// written before vectors existed, or with another model) and returns how
// many it wrote. It reads every notice once, only when the notices held
// outnumber the vectors.
func (s *Service) Backfill(ctx context.Context) (int, error) {
	if s.Records == nil || s.Model == nil {
		return 0, nil
	}
	first, err := s.Reader.Search(ctx, search.Query{Limit: 1, ExactCount: true})
	if err != nil {
		return 0, err
	}
	// the count first: the vectors are read into memory (Index) only when
	// some are missing
	s.held.forget()
	read, _, err := s.held.count(ctx, s.Records, s.Now())
	if err != nil || first.Total <= read {
		return 0, err
	}
	if err := s.Index.Sync(ctx, s.Records, s.Model.Dims, true, s.Now()); err != nil {
		return 0, err
	}
	has := s.Index.Has()
	written := 0
	var missing []record.Notice
	flush := func() error {
		if len(missing) == 0 {
			return nil
		}
		vs := s.Model.Vectors(missing, s.Now())
		if err := search.Put(ctx, s.Records, NoticeVectorKind, vs); err != nil {
			return err
		}
		for _, v := range vs {
			if len(v.Vector) > 0 {
				written++ // a notice with no known word gets a record without one
			}
		}
		missing = missing[:0]
		return nil
	}
	q := search.Query{Sort: search.SortNewest, Limit: search.MaxLimit}
	for {
		res, err := s.Reader.Search(ctx, q)
		if err != nil {
			return written, err
		}
		for _, h := range res.Hits {
			if !has[h.Notice.RequestID] {
				missing = append(missing, h.Notice)
			}
		}
		if len(missing) >= backfillBatch {
			if err := flush(); err != nil {
				return written, err
			}
		}
		if res.NextCursor == "" || len(res.Hits) == 0 {
			break
		}
		q.Cursor = res.NextCursor
	}
	if err := flush(); err != nil {
		return written, err
	}
	s.held.forget()
	return written, s.Index.Sync(ctx, s.Records, s.Model.Dims, true, s.Now())
}

const backfillBatch = 500
