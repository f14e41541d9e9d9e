package web

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// The site's own words are data: one message file per language,
// locale/words-<lang>.json, each the same message keys ("nav.search",
// "js.scope.in", …) and the same label tables (kind → machine value →
// label) in its language. English is the default and the reference: every
// other file holds exactly its keys (missingMessages; a test fails on a key
// missing in any language, and the program does not start with one).
// Adding a language is adding a file: Langs lists every file found, the
// pages, the word scripts and ?lang= follow. The label tables built from
// reviewed data at start (the land procedures' names, labels.go
// addWords) and the services' sentences (Say) are added to them in Go.

//go:embed locale
var localeFS embed.FS

// messages are one language's words and label tables.
type messages struct {
	Words  map[string]string            `json:"words"`
	Labels map[string]map[string]string `json:"labels"`
}

// msgs holds every language's messages, by language tag.
var msgs = func() map[string]*messages {
	m, err := loadLocales(localeFS, "locale")
	if err != nil {
		panic(err)
	}
	return m
}()

// Langs are the languages of the site's own words: English (the default)
// first, then every other message file's, in order. Record text is never
// translated: it stays as published, and the pages say so.
var Langs = func() []string {
	out := []string{"en"}
	for l := range msgs {
		if l != "en" {
			out = append(out, l)
		}
	}
	sort.Strings(out[1:])
	return out
}()

// HasLang reports whether lang is a language the site speaks.
func HasLang(lang string) bool { _, ok := msgs[lang]; return ok }

// loadLocales reads every words-<lang>.json of dir in fsys; English must be
// one, and every other must hold exactly its keys (missingMessages).
func loadLocales(fsys fs.FS, dir string) (map[string]*messages, error) {
	files, err := fs.Glob(fsys, path.Join(dir, "words-*.json"))
	if err != nil {
		return nil, err
	}
	out := map[string]*messages{}
	for _, f := range files {
		lang := strings.TrimSuffix(strings.TrimPrefix(path.Base(f), "words-"), ".json")
		b, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		m := &messages{}
		if err := json.Unmarshal(b, m); err != nil {
			return nil, fmt.Errorf("web: %s: %w", f, err)
		}
		if m.Words == nil {
			m.Words = map[string]string{}
		}
		if m.Labels == nil {
			m.Labels = map[string]map[string]string{}
		}
		out[lang] = m
	}
	if out["en"] == nil {
		return nil, fmt.Errorf("web: no %s/words-en.json", dir)
	}
	if miss := missingMessages(out); len(miss) > 0 {
		return nil, fmt.Errorf("web: message files disagree: %s", strings.Join(miss, "; "))
	}
	return out, nil
}

// missingMessages lists, for every language but English, each English key
// (word or label) it lacks or leaves empty and each key it has that English
// does not: the message files must hold the same keys.
func missingMessages(all map[string]*messages) []string {
	en := all["en"]
	var out []string
	for lang, m := range all {
		if lang == "en" {
			continue
		}
		for k := range en.Words {
			if m.Words[k] == "" {
				out = append(out, lang+": word "+k+" is missing")
			}
		}
		for k := range m.Words {
			if _, ok := en.Words[k]; !ok {
				out = append(out, lang+": word "+k+" is not an English key")
			}
		}
		for kind, set := range en.Labels {
			for v := range set {
				if m.Labels[kind][v] == "" {
					out = append(out, lang+": label "+kind+"/"+v+" is missing")
				}
			}
		}
		for kind, set := range m.Labels {
			for v := range set {
				if _, ok := en.Labels[kind][v]; !ok {
					out = append(out, lang+": label "+kind+"/"+v+" is not an English key")
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// messagesOf is lang's messages (English for a language not spoken).
func messagesOf(lang string) *messages {
	if m, ok := msgs[lang]; ok {
		return m
	}
	return msgs["en"]
}
