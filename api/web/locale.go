package web

import (
	"sort"

	"github.com/recordwatch/recordwatch/internal/record"
)

// The site's own words are data: one message file per language,
// internal/record/locale/words-<lang>.json (record.Messages), each the same
// message keys ("nav.search", "js.scope.in", …), the same label tables
// (kind → machine value → label) and the same services' notes (key →
// text) in its language. They live beside the services because a
// service's note (record.Note) is published in English by the service and
// said here in the reader's language from the same file. English is the
// default and the reference: every other file holds exactly its keys
// (record.MissingMessages; a test fails on a key missing in any language,
// and the program does not start with one). Adding a language is adding a
// file: Langs lists every file found, the pages, the word scripts and
// ?lang= follow. The land procedures' names are label tables of the files
// too (land_procedure, land_stage, land_actor; internal/land's test of
// every procedure checks them).

// messages are one language's words, label tables and notes.
type messages = record.Messages

// msgs holds every language's messages, by language tag.
var msgs = record.Locales()

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

// messagesOf is lang's messages (English for a language not spoken).
func messagesOf(lang string) *messages {
	if m, ok := msgs[lang]; ok {
		return m
	}
	return msgs["en"]
}
