package embedded

import (
	"encoding/json"
	"strings"

	"github.com/recordwatch/recordwatch/internal/record"
)

// A notice's Raw source fields (format 12) are stored in "raw" without the
// text its Body holds already: a value of rawRefMin bytes or more that
// Body holds verbatim (City Record's text columns, which Body joins as
// they are) is stored as where Body holds it, and read back from there
// (decodeRaw). Formats 4 to 11 stored Raw as a JSON object, the text a
// second time; decodeRaw reads both (a rebuild, migrate.go).

// rawRefMin is the shortest value stored as a place in Body.
const rawRefMin = 32

// rawForm is the first byte of a format-12 "raw" field (a JSON object,
// the older form, starts with '{').
const rawForm = 'R'

// storedRaw is the stored form after rawForm, as JSON: the values kept as
// they are, and the others' byte offset and length in Body.
type storedRaw struct {
	Values map[string]string `json:"v,omitempty"`
	Refs   map[string][2]int `json:"r,omitempty"`
}

// encodeRaw is the stored "raw" field of a notice with raw and body.
func encodeRaw(raw map[string]string, body string) ([]byte, error) {
	var s storedRaw
	for k, v := range raw {
		if len(v) >= rawRefMin {
			if i := strings.Index(body, v); i >= 0 {
				if s.Refs == nil {
					s.Refs = map[string][2]int{}
				}
				s.Refs[k] = [2]int{i, len(v)}
				continue
			}
		}
		if s.Values == nil {
			s.Values = map[string]string{}
		}
		s.Values[k] = v
	}
	js, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	return append([]byte{rawForm}, js...), nil
}

// decodeRaw reads a stored "raw" field of either form; body is the
// notice's stored Body.
func decodeRaw(b []byte, body string) (map[string]string, error) {
	bad := &record.Error{Code: record.EUNAVAILABLE, Message: "stored notice is unreadable"}
	if len(b) == 0 {
		return nil, bad
	}
	if b[0] == '{' { // formats 4 to 11
		var m map[string]string
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, bad
		}
		return m, nil
	}
	var s storedRaw
	if b[0] != rawForm || json.Unmarshal(b[1:], &s) != nil {
		return nil, bad
	}
	out := make(map[string]string, len(s.Values)+len(s.Refs))
	for k, v := range s.Values {
		out[k] = v
	}
	for k, r := range s.Refs {
		if r[0] < 0 || r[1] < 0 || r[0]+r[1] > len(body) {
			return nil, bad
		}
		out[k] = body[r[0] : r[0]+r[1]]
	}
	return out, nil
}
