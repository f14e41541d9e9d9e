package embedded

import (
	"context"
	"encoding/json"

	"github.com/blevesearch/bleve/v2"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/recordwatch/recordwatch/internal/record"
)

// A passage's text is stored once (format 13): in its notice's "body".
// A passage whose text record.PassageAt renders again from its place in
// its notice's body (nearly every passage the indexer cuts) is stored in
// "doc" without its text, as passageForm and its JSON; when read, its text
// is rendered again from the notice's stored body (passageTexts), reading
// only the passage's place. A passage that does not render again keeps its
// text: the older form, its JSON whole, which decodePassage still reads.
//
// record.PassageAt is therefore part of the index format:
// TestPassageCutIsPartOfTheFormat fails when it changes while the format
// does not.

// passageForm is the first byte of a stored passage without its text (a
// whole passage, the older form, starts with '{').
const passageForm = 'P'

// encodePassage is the stored "doc" of p; body is its notice's body.
func encodePassage(p record.Passage, body string) ([]byte, error) {
	if p.Text != "" && record.PassageAt(body, p.Start, p.End) == p.Text {
		p.Text = ""
		js, err := json.Marshal(p)
		if err != nil {
			return nil, err
		}
		return append([]byte{passageForm}, js...), nil
	}
	return json.Marshal(p)
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

// fillText gives p its text from its place in body, its notice's body.
func fillText(p *record.Passage, body string) error {
	if p.Text = record.PassageAt(body, p.Start, p.End); p.Text == "" {
		return errPassageUnreadable
	}
	return nil
}

// noticeBodies reads the stored bodies of the notices ids from idx, from
// its segments directly (a search per page cost more than the passages
// it reads); a notice without a body, or not held, is absent.
func noticeBodies(ctx context.Context, idx bleve.Index, ids []string) (map[string]string, error) {
	out := make(map[string]string, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	snap, err := indexSnapshot(idx)
	if err != nil {
		return nil, unavailable(err)
	}
	defer snap.Close()
	for _, s := range snap.Segments() {
		if err := ctx.Err(); err != nil {
			return nil, unavailable(err)
		}
		docs, err := s.DocNumbers(ids)
		if err != nil {
			return nil, unavailable(err)
		}
		for it := docs.Iterator(); it.HasNext(); {
			var id, body string
			err := s.VisitDocument(uint64(it.Next()), func(field string, _ byte, v []byte, _ []uint64) bool {
				switch field {
				case "_id":
					id = string(v)
				case "body":
					body = string(v)
				}
				return id == "" || body == ""
			})
			if err != nil {
				return nil, unavailable(err)
			}
			if body != "" {
				out[id] = body
			}
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
	for i := range textless {
		if err := fillText(&out[i], bodies[out[i].RequestID]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// bodyPassage is a passage with its notice's body.
type bodyPassage struct {
	record.Passage
	body string
}

// copyPassages re-indexes every stored passage of src into dst, each
// stored without its text when its notice's body (read from notices,
// once for the passages of one notice in a row) renders it again; a
// notice whose body is not stored apart (formats 1 to 9) keeps its
// passages whole.
func copyPassages(notices, src bleve.Index, dst *bulkIndex) error {
	var lastID, lastBody string
	bodyOf := func(id string) (string, error) {
		if id == lastID {
			return lastBody, nil
		}
		bodies, err := noticeBodies(context.Background(), notices, []string{id})
		if err != nil {
			return "", err
		}
		lastID, lastBody = id, bodies[id]
		return lastBody, nil
	}
	return copyDocs(src, dst, func(raw []byte, _ map[string]index.Field) (string, map[string]interface{}, error) {
		if raw == nil {
			return "", nil, errNoStored
		}
		p, textless, err := decodePassage(raw)
		if err != nil {
			return "", nil, err
		}
		body, err := bodyOf(p.RequestID)
		if err != nil {
			return "", nil, err
		}
		if textless {
			if err := fillText(&p, body); err != nil {
				return "", nil, err
			}
		}
		f, err := passageFields(p, body)
		return p.ID, f, err
	})
}
