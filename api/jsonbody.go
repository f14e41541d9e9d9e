package api

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/recordwatch/recordwatch/internal/record"
)

// decodeStrict decodes a request body holding one JSON object into v (a
// pointer to a struct). Field names must match v's JSON names exactly, at
// every depth: encoding/json alone matches "Names" to names, so a
// case-variant is refused as an unknown field, named in the error's param
// (as a path: items[0].Kind). Wrong types name their field too; invalid
// JSON, a body that is not an object and trailing data are errors on
// "body". Every error is an EINVALID *record.Error.
func decodeStrict(body []byte, v any) error {
	t := bytes.TrimSpace(body)
	if len(t) == 0 {
		return record.Invalid("body", "the body is empty; send a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(t))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return record.Invalid("body", "the body is not valid JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	if _, err := dec.Token(); err != io.EOF {
		return record.Invalid("body", "the body must hold exactly one JSON object")
	}
	if raw[0] != '{' {
		return record.Invalid("body", "the body must be a JSON object")
	}
	if err := uniqueKeys(raw); err != nil {
		return err
	}
	if err := exactFields(reflect.TypeOf(v), raw, ""); err != nil {
		return err
	}
	dec = json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		return nil
	}
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) && typeErr.Field != "" {
		return record.Invalid(typeErr.Field, "%s must be a JSON %s, not a JSON %s", typeErr.Field, jsonKind(typeErr.Type), typeErr.Value)
	}
	return record.Invalid("body", "the body could not be read: %s", strings.TrimPrefix(err.Error(), "json: "))
}

var (
	rawMessageType  = reflect.TypeFor[json.RawMessage]()
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textType        = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// exactFields checks that every object key in raw names a field of t
// exactly; at is the path of raw, for errors. Values that are not what t
// expects are left to the decoder to report.
func exactFields(t reflect.Type, raw json.RawMessage, at string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == rawMessageType || reflect.PointerTo(t).Implements(unmarshalerType) || reflect.PointerTo(t).Implements(textType) {
		return nil // the type reads its own JSON
	}
	switch t.Kind() {
	case reflect.Struct:
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil {
			return nil
		}
		fields := jsonFields(t)
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			ft, ok := fields[k]
			if !ok {
				names := make([]string, 0, len(fields))
				for n := range fields {
					names = append(names, n)
				}
				slices.Sort(names)
				return record.Invalid(at+k, "unknown field %q (field names are case-sensitive); accepted: %s",
					at+k, strings.Join(names, ", "))
			}
			if err := exactFields(ft, obj[k], at+k+"."); err != nil {
				return err
			}
		}
	case reflect.Slice, reflect.Array:
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return nil
		}
		base := strings.TrimSuffix(at, ".")
		for i, it := range items {
			if err := exactFields(t.Elem(), it, base+"["+strconv.Itoa(i)+"]."); err != nil {
				return err
			}
		}
	case reflect.Map:
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil {
			return nil
		}
		for k, v := range obj {
			if err := exactFields(t.Elem(), v, at+k+"."); err != nil {
				return err
			}
		}
	}
	return nil
}

// jsonFields maps the JSON names of a struct's exported fields (embedded
// structs' fields included, as encoding/json promotes them) to their types.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				for n, typ := range jsonFields(ft) {
					if _, ok := out[n]; !ok {
						out[n] = typ
					}
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}

// jsonKind names the JSON shape a Go type reads.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.Struct, reflect.Map:
		return "object"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8,
		reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "number"
	}
	return "value"
}

// uniqueKeys refuses an object, at any depth, that names one key twice
// (encoding/json would silently keep the last value): EINVALID naming the
// key's path. One pass over the tokens.
func uniqueKeys(raw []byte) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return uniqueIn(dec, "")
}

// uniqueIn reads one JSON value at path from dec.
func uniqueIn(dec *json.Decoder, path string) error {
	tok, err := dec.Token()
	if err != nil {
		return record.Invalid("body", "the body is not valid JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return nil
	}
	switch d {
	case '{':
		seen := map[string]bool{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return record.Invalid("body", "the body is not valid JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
			}
			k, _ := kt.(string)
			p := k
			if path != "" {
				p = path + "." + k
			}
			if seen[k] {
				return record.Invalid(p, "%s is given twice; give each field once", p)
			}
			seen[k] = true
			if err := uniqueIn(dec, p); err != nil {
				return err
			}
		}
	case '[':
		for i := 0; dec.More(); i++ {
			if err := uniqueIn(dec, path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
	}
	_, err = dec.Token() // the closing delimiter
	if err != nil {
		return record.Invalid("body", "the body is not valid JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	return nil
}
