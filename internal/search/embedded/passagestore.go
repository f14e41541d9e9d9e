package embedded

import (
	"context"
	"encoding/json"

	"github.com/blevesearch/bleve/v2"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// A passage's text is stored once (format 13): in its notice's "body".
// A passage that record.SplitPassages cuts again from its notice's body
// (the same sequence number, place and text: every passage the indexer
// cuts) is stored in "doc" without its text, as passageForm and its JSON;
// when read, its text is cut again from the notice's stored body
// (passageTexts). A passage the cut does not give again keeps its text:
// the older form, its JSON whole, which decodePassage still reads.
//
// The cut itself is therefore part of the index format:
// TestPassageCutIsPartOfTheFormat fails when it changes while the format
// does not.

// passageForm is the first byte of a stored passage without its text (a
// whole passage, the older form, starts with '{').
const passageForm = 'P'

// encodePassage is the stored "doc" of p; cut is record.SplitPassages of
// its notice's body.
func encodePassage(p record.Passage, cut []record.Passage) ([]byte, error) {
	if p.Seq >= 1 && p.Seq <= len(cut) {
		if c := cut[p.Seq-1]; c.Text == p.Text && c.Start == p.Start && c.End == p.End && c.ID == p.ID {
			p.Text = ""
			js, err := json.Marshal(p)
			if err != nil {
				return nil, err
			}
			return append([]byte{passageForm}, js...), nil
		}
	}
	return json.Marshal(p)
}

// passageCut is record.SplitPassages of d's notice body (nil for a
// notice without passages).
func passageCut(d search.Doc) []record.Passage {
	if len(d.Passages) == 0 {
		return nil
	}
	return record.SplitPassages(d.Notice.RequestID, d.Notice.Body)
}

// errPassageUnreadable is a stored passage that cannot be read back.
var errPassageUnreadable = &record.Error{Code: record.EUNAVAILABLE, Message: "stored passage is unreadable"}

// decodePassage reads a stored passage of either form, and whether its
// text is still to be cut from its notice's body (fillText).
func decodePassage(b []byte) (p record.Passage, textless bool, err error) {
	switch {
	case len(b) > 0 && b[0] == '{':
		err = json.Unmarshal(b, &p)
	case len(b) > 0 && b[0] == passageForm:
		err = json.Unmarshal(b[1:], &p)
		textless = true
	default:
		return p, false, errPassageUnreadable
	}
	if err != nil {
		return p, false, errPassageUnreadable
	}
	return p, textless, nil
}

// fillText gives p its text from cut (its notice body's passages), if
// the cut still holds p at the same place.
func fillText(p *record.Passage, cut []record.Passage) error {
	if p.Seq < 1 || p.Seq > len(cut) {
		return errPassageUnreadable
	}
	c := cut[p.Seq-1]
	if c.Start != p.Start || c.End != p.End || c.ID != p.ID {
		return errPassageUnreadable
	}
	p.Text = c.Text
	return nil
}

// noticeBodies reads the stored bodies of the notices ids from idx (one
// search; a notice without a body, or not held, is absent).
func noticeBodies(ctx context.Context, idx bleve.Index, ids []string) (map[string]string, error) {
	out := make(map[string]string, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	req := bleve.NewSearchRequestOptions(bleve.NewDocIDQuery(ids), len(ids), 0, false)
	req.Fields = []string{"body"}
	res, err := idx.SearchInContext(ctx, req)
	if err != nil {
		return nil, unavailable(err)
	}
	for _, h := range res.Hits {
		if s, ok := h.Fields["body"].(string); ok {
			out[h.ID] = s
		}
	}
	return out, nil
}

// passageTexts decodes stored passages, cutting the text of those stored
// without it from their notices' bodies (read from notices in one search).
func passageTexts(ctx context.Context, notices bleve.Index, docs []string) ([]record.Passage, error) {
	out := make([]record.Passage, len(docs))
	var want []string
	textless := map[int]bool{}
	for i, d := range docs {
		p, tl, err := decodePassage([]byte(d))
		if err != nil {
			return nil, err
		}
		out[i] = p
		if tl {
			textless[i] = true
			want = append(want, p.RequestID)
		}
	}
	if len(want) == 0 {
		return out, nil
	}
	bodies, err := noticeBodies(ctx, notices, want)
	if err != nil {
		return nil, err
	}
	cuts := map[string][]record.Passage{}
	for i := range textless {
		id := out[i].RequestID
		cut, ok := cuts[id]
		if !ok {
			cut = record.SplitPassages(id, bodies[id])
			cuts[id] = cut
		}
		if err := fillText(&out[i], cut); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// cutPassage is a passage with its notice body's cut.
type cutPassage struct {
	record.Passage
	cut []record.Passage
}

// copyPassages re-indexes every stored passage of src into dst, each
// stored without its text when its notice's body (read from notices,
// once for the passages of one notice in a row) cuts it again; a notice
// whose body is not stored apart (formats 1 to 9) keeps its passages
// whole.
func copyPassages(notices, src bleve.Index, dst *bulkIndex) error {
	var lastID string
	var lastCut []record.Passage
	cutOf := func(id string) ([]record.Passage, error) {
		if id == lastID {
			return lastCut, nil
		}
		bodies, err := noticeBodies(context.Background(), notices, []string{id})
		if err != nil {
			return nil, err
		}
		lastID, lastCut = id, nil
		if body, ok := bodies[id]; ok {
			lastCut = record.SplitPassages(id, body)
		}
		return lastCut, nil
	}
	return copyDocs(src, dst, func(raw []byte, _ map[string]index.Field) (string, map[string]interface{}, error) {
		if raw == nil {
			return "", nil, errNoStored
		}
		p, textless, err := decodePassage(raw)
		if err != nil {
			return "", nil, err
		}
		cut, err := cutOf(p.RequestID)
		if err != nil {
			return "", nil, err
		}
		if textless {
			if err := fillText(&p, cut); err != nil {
				return "", nil, err
			}
		}
		f, err := passageFields(p, cut)
		return p.ID, f, err
	})
}
