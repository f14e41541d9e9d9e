package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
)

// Limits of POST /inv (SPEC §8) and of its pin-list shape (shares_schema.json).
const (
	MaxShareBytes     = 32 << 10 // request body, bytes
	MaxSharesPerDay   = 10       // POST /inv per client address per New York day
	MaxShareTitle     = 200      // characters
	MaxShareItems     = 50
	MaxShareNote      = 500 // characters
	MaxShareItemID    = 120 // characters
	shareCeilingName  = "inv"
	shareIDLength     = 22 // base64url of 16 random bytes
	shareSnapshotKind = "recordwatch.investigation_snapshot"
)

// Record kinds a pin can name.
const (
	ShareKindNotice = "notice" // a City Record notice, by exact request id
	ShareKindVendor = "vendor" // a vendor, by exact name stem (vendor_stem)
	ShareKindAgency = "agency" // an agency, by canonical agency id (agency_id)
	ShareKindMatter = "matter" // a procurement matter, by exact PIN as printed
	// typed records, by their exact id (shares_records.go)
	ShareKindContract     = "contract"     // a contract, by its contract id (CT1…, as /contracts/<id>)
	ShareKindLandProject  = "land_project" // a land-use project, by its project id
	ShareKindMeeting      = "meeting"      // a meeting, by its meeting id
	ShareKindPerson       = "person"       // a person row of the governance roster, by its id
	ShareKindOrganization = "organization" // an organization of the roster, by its id
	ShareKindPayroll      = "payroll"      // a payroll row, by its id
)

// ShareKinds is the allow-list of record kinds, in the order documented.
var ShareKinds = []string{ShareKindNotice, ShareKindVendor, ShareKindAgency, ShareKindMatter,
	ShareKindContract, ShareKindLandProject, ShareKindMeeting, ShareKindPerson, ShareKindOrganization, ShareKindPayroll}

// The character rules, as regular expressions shared with the published
// JSON Schema (a test checks the schema carries exactly these). "Plain
// text" is: no control characters (a note may hold line breaks), no
// invisible bidirectional or line/paragraph separators, and no HTML: a "<"
// may not be followed by a letter, "/", "!" or "?".
const (
	ctrlLine = "\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069"
	ctrlNote = "\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069"

	PatternTitle  = "^(?:[^" + ctrlLine + "<]|<+[^" + ctrlLine + "<A-Za-z/!?])*<*$"
	PatternNote   = "^(?:[^" + ctrlNote + "<]|<+[^" + ctrlNote + "<A-Za-z/!?])*<*$"
	PatternNotice = "^[0-9A-Za-z_-]{1,40}$"
	PatternAgency = "^[a-z0-9]+(?:-[a-z0-9]+)*$"
	PatternVendor = "^[^\\sa-z.,'\u2019&<>" + ctrlLine + "]+(?: [^\\sa-z.,'\u2019&<>" + ctrlLine + "]+)*$"
	PatternMatter = "^[^\\s<>" + ctrlLine + "](?:[^<>" + ctrlLine + "]{0,58}[^\\s<>" + ctrlLine + "])?$"
	// PatternRecord is a typed record's id (search.CheckRecordID, within
	// the pin's 120 characters): no surrounding space, no control or
	// invisible character, none of < > " \\.
	PatternRecord = "^[^\\s<>\"\\\\" + ctrlLine + "](?:[^<>\"\\\\" + ctrlLine + "]{0,118}[^\\s<>\"\\\\" + ctrlLine + "])?$"
)

var (
	titleRE  = regexp.MustCompile(PatternTitle)
	noteRE   = regexp.MustCompile(PatternNote)
	htmlRE   = regexp.MustCompile(`<[A-Za-z/!?][^<>]{0,40}>?`)
	itemIDRE = map[string]*regexp.Regexp{
		ShareKindNotice: regexp.MustCompile(PatternNotice),
		ShareKindAgency: regexp.MustCompile(PatternAgency),
		ShareKindVendor: regexp.MustCompile(PatternVendor),
		ShareKindMatter: regexp.MustCompile(PatternMatter),
	}
	itemIDRule = map[string]string{
		ShareKindNotice: "a notice id is its exact City Record request id (letters, digits, - and _; up to 40), such as 20141031001",
		ShareKindAgency: "an agency id is its canonical agency_id (lower-case words joined by -), such as parks-and-recreation",
		ShareKindVendor: "a vendor id is its exact name stem (vendor_stem: upper case, single spaces, no . , ' & and no legal suffix), such as SECURUS TECHNOLOGIES",
		ShareKindMatter: "a matter id is its exact PIN as printed in the notices (up to 60 characters, no < or >, no leading or trailing space), such as 06814L0041001N001",
	}
)

func init() {
	for _, k := range shareRecordKindList {
		itemIDRE[k.kind] = regexp.MustCompile(PatternRecord)
		itemIDRule[k.kind] = k.rule
	}
}

// ShareRequest is the body of POST /inv: a titled pin list.
type ShareRequest struct {
	Title string      `json:"title"`
	Items []ShareItem `json:"items"`
}

// ShareItem is one pinned record: its kind, its exact id, a short note.
type ShareItem struct {
	Kind string `json:"kind"`
	ID   string `json:"id"`
	Note string `json:"note,omitempty"`
}

// shareTop is the body as first decoded; each item is then decoded on its
// own, so that errors name it by index.
type shareTop struct {
	Title string            `json:"title"`
	Items []json.RawMessage `json:"items"`
}

// parseShare reads and validates a POST /inv body. Every error is an
// EINVALID naming the field at fault, such as "items[3].note".
func parseShare(body []byte) (ShareRequest, error) {
	var req ShareRequest
	if !utf8.Valid(body) {
		return req, record.Invalid("body", "the body is not UTF-8 text")
	}
	var top shareTop
	if err := decodeShareJSON(body, &top, "", "title", "items"); err != nil {
		return req, err
	}
	req.Title = strings.TrimSpace(top.Title)
	if err := checkShareText("title", req.Title, titleRE, MaxShareTitle, true); err != nil {
		return req, err
	}
	if top.Items == nil {
		return req, record.Invalid("items", "items is required: a list of 1 to %d pinned records", MaxShareItems)
	}
	if len(top.Items) == 0 || len(top.Items) > MaxShareItems {
		return req, record.Invalid("items", "items must list 1 to %d pinned records, not %d", MaxShareItems, len(top.Items))
	}
	seen := map[[2]string]int{}
	for i, raw := range top.Items {
		at := fmt.Sprintf("items[%d]", i)
		if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
			return req, record.Invalid(at, "%s must be an object with kind, id and an optional note", at)
		}
		var it ShareItem
		if err := decodeShareJSON(raw, &it, at+".", "kind", "id", "note"); err != nil {
			return req, err
		}
		it.Note = strings.TrimSpace(it.Note)
		switch {
		case it.Kind == "":
			return req, record.Invalid(at+".kind", "%s.kind is required: one of %s", at, strings.Join(ShareKinds, ", "))
		case !slices.Contains(ShareKinds, it.Kind):
			return req, record.Invalid(at+".kind", "%s.kind %q is not a record kind that can be pinned; kinds: %s",
				at, shareClip(it.Kind), strings.Join(ShareKinds, ", "))
		}
		if err := checkShareItemID(at+".id", it.Kind, it.ID); err != nil {
			return req, err
		}
		if err := checkShareText(at+".note", it.Note, noteRE, MaxShareNote, false); err != nil {
			return req, err
		}
		k := [2]string{it.Kind, it.ID}
		if j, ok := seen[k]; ok {
			return req, record.Invalid(at+".id", "%s.id pins the same %s as items[%d]", at, it.Kind, j)
		}
		seen[k] = i
		req.Items = append(req.Items, it)
	}
	return req, nil
}

// decodeShareJSON decodes one JSON object into v, refusing fields not in
// fields (names match exactly: encoding/json alone would accept "Title"),
// wrong types and trailing data; field names in errors get prefix.
func decodeShareJSON(raw []byte, v any, prefix string, fields ...string) error {
	where := strings.TrimSuffix(prefix, ".")
	if where == "" {
		where = "body"
	}
	if t := bytes.TrimSpace(raw); len(t) == 0 {
		return record.Invalid("body", "the body is empty; send a JSON object")
	} else if t[0] != '{' {
		return record.Invalid(where, "%s must be a JSON object", where)
	}
	var keys map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&keys); err != nil {
		var syntaxErr *json.SyntaxError
		if errors.As(err, &syntaxErr) {
			return record.Invalid("body", "the body is not valid JSON (at byte %d)", syntaxErr.Offset)
		}
		return record.Invalid("body", "the body is not valid JSON (%s)", strings.TrimPrefix(err.Error(), "json: "))
	}
	if dec.Decode(&json.RawMessage{}) != io.EOF {
		return record.Invalid("body", "the body must hold exactly one JSON object")
	}
	var unknown []string
	for k := range keys {
		if !slices.Contains(fields, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		param := prefix + unknown[0]
		return record.Invalid(shareClip(param), "%s is not a field of a shared investigation; only these structured fields are accepted: title, items[].kind, items[].id, items[].note",
			shareClip(param))
	}
	dec = json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		return nil
	}
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) && typeErr.Field != "" {
		field := typeErr.Field
		if i := strings.IndexByte(field, '.'); i >= 0 {
			field = field[:i] // a nested field is wrong as a whole
		}
		param := prefix + field
		want := "a string"
		if field == "items" {
			want = "an array of objects"
		}
		return record.Invalid(param, "%s must be %s, not a JSON %s", param, want, typeErr.Value)
	}
	return record.Invalid(where, "%s could not be read: %s", where, strings.TrimPrefix(err.Error(), "json: "))
}

// checkShareText applies the plain-text rules and the length bound.
func checkShareText(param, s string, re *regexp.Regexp, maxLen int, required bool) error {
	if s == "" {
		if required {
			return record.Invalid(param, "%s is required and may not be blank", param)
		}
		return nil
	}
	if n := utf8.RuneCountInString(s); n > maxLen {
		return record.Invalid(param, "%s is %d characters long; at most %d are accepted", param, n, maxLen)
	}
	if re.MatchString(s) {
		return nil
	}
	if m := htmlRE.FindString(s); m != "" {
		return record.Invalid(param, "%s holds HTML (%q); send plain text", param, m)
	}
	for _, r := range s {
		if unicode.Is(unicode.Cc, r) || unicode.In(r, unicode.Zl, unicode.Zp) || isBidiControl(r) {
			return record.Invalid(param, "%s holds the control or invisible formatting character U+%04X; send plain text", param, r)
		}
	}
	return record.Invalid(param, "%s is not plain text", param)
}

func isBidiControl(r rune) bool { return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 }

// checkShareItemID checks an id against its kind's exact form.
func checkShareItemID(param, kind, id string) error {
	if id == "" {
		return record.Invalid(param, "%s is required: %s", param, itemIDRule[kind])
	}
	if n := utf8.RuneCountInString(id); n > MaxShareItemID {
		return record.Invalid(param, "%s is %d characters long; at most %d are accepted", param, n, MaxShareItemID)
	}
	if !itemIDRE[kind].MatchString(id) {
		return record.Invalid(param, "%s %q is not an exact %s id: %s", param, shareClip(id), kind, itemIDRule[kind])
	}
	if kind == ShareKindVendor {
		// a stem as stored under an earlier identity rule is still a stem
		// (entity.StemKeys): records hold it and a share may pin it
		if stem := entity.VendorStem(id); stem != id && !slices.Contains(entity.StemKeys(stem), id) {
			return record.Invalid(param, "%s %q is a vendor name, not its stem; pin the stem %q", param, shareClip(id), stem)
		}
	}
	return nil
}

// shareClip shortens a caller's value quoted in an error message.
func shareClip(s string) string {
	if utf8.RuneCountInString(s) <= 60 {
		return s
	}
	return string([]rune(s)[:60]) + "…"
}
