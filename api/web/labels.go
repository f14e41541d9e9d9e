package web

import "strings"

// The one place that turns the machine values the JSON keeps (states,
// stages, procedures, methods, sources, lenses, groupings) into the words a
// person reads, in each language the site speaks. Templates call
// {{label "<kind>" value}}; the JSON twins keep the machine value. A value
// no table holds is shown as it is (it is the source's own text), and the
// plain-words test (api/plainwords_test.go) fails when such a value is an
// enum word.

// word is one word in English, then Spanish: the table still built in Go
// (plainWords).
type word [2]string

// The label tables are the message files' "labels" (locale.go): kind →
// machine value → label, one file per language.

// Label is value's label of kind in lang; a value no table holds is
// returned as it is.
func Label(lang, kind, value string) string {
	en, ok := msgs["en"].Labels[kind][value]
	if !ok {
		return value
	}
	if l := messagesOf(lang).Labels[kind][value]; l != "" {
		return l
	}
	return en
}

// LabelKinds lists the kinds Label knows (for tests).
func LabelKinds() []string {
	out := make([]string, 0, len(msgs["en"].Labels))
	for k := range msgs["en"].Labels {
		out = append(out, k)
	}
	return out
}

// HasLabel reports whether kind holds a label for value.
func HasLabel(kind, value string) bool {
	_, ok := msgs["en"].Labels[kind][value]
	return ok
}

// LabelValues lists the machine values kind holds labels for.
func LabelValues(kind string) []string {
	out := make([]string, 0, len(msgs["en"].Labels[kind]))
	for v := range msgs["en"].Labels[kind] {
		out = append(out, v)
	}
	return out
}

// plainWords are the machine words the services' own explanatory notes
// name (a field, a zone), said in words; Plain applies them.
var plainWords = map[string]word{
	"America/New_York": {"New York time", "hora de Nueva York"},
	"parsed_fields":    {"the fields read below", "los campos leídos abajo"},
	"event_date":       {"event date", "fecha del evento"},
	"canonical_name":   {"the canonical name", "el nombre canónico"},
	"not_an_agency":    {"marked as not an agency", "marcadas como no agencias"},
	"charter_text":     {"the Charter's words given with each stage", "las palabras de la Carta dadas con cada etapa"},
}

// Plain is a service's note with the machine words it names said in
// words (plainWords).
func Plain(lang, note string) string {
	for k, w := range plainWords {
		if strings.Contains(note, k) {
			l := w[0]
			if lang == "es" {
				l = w[1]
			}
			note = strings.ReplaceAll(note, k, l)
		}
	}
	return note
}

// LandStageKey is the key of a procedure's stage in the land_stage and
// land_actor label tables of the message files (land_project.html builds
// the same with printf).
func LandStageKey(procedure, stage string) string { return procedure + "/" + stage }
