package web

import (
	"bytes"
	"html"
	"regexp"
	"strings"
)

// The language travels with every link and form of a page (the server's
// counterpart of the shell's local(), app.js): KeepLang rewrites a
// rendered page that is not in English once, after the templates ran, so
// that no template, breadcrumb, filter, pager or picture can forget it.
// The reader's cookie (api: siteLang) keeps the language too; the links
// carry it as well so a shared or bookmarked address keeps it.

var (
	linkAttrRE = regexp.MustCompile(`\b(href|action)="([^"]*)"`)
	formOpenRE = regexp.MustCompile(`<form\b[^>]*>`)
)

// KeepLang is page (rendered HTML) with lang on every link to the site's
// own pages (WithLang: relative, or absolute under base) and a lang field
// in every GET form that has none; English pages are returned as they are.
func KeepLang(page []byte, lang, base string) []byte {
	if lang == "" || lang == "en" {
		return page
	}
	out := linkAttrRE.ReplaceAllFunc(page, func(m []byte) []byte {
		sub := linkAttrRE.FindSubmatch(m)
		attr, raw := string(sub[1]), html.UnescapeString(string(sub[2]))
		if attr == "action" {
			return m // a form keeps the language in a field (below)
		}
		u, ok := siteLink(raw, base)
		if !ok || strings.Contains(u, "lang=") {
			return m
		}
		rel := WithLang(u, lang)
		if rel == u {
			return m
		}
		if base != "" && strings.HasPrefix(raw, base) {
			rel = base + rel
		}
		return []byte(attr + `="` + html.EscapeString(rel) + `"`)
	})
	return formOpenRE.ReplaceAllFunc(out, func(tag []byte) []byte {
		t := string(tag)
		if strings.Contains(strings.ToLower(t), `method="post"`) {
			return tag
		}
		a := linkAttrRE.FindStringSubmatch(t)
		if a == nil || a[1] != "action" {
			return tag
		}
		if _, ok := siteLink(html.UnescapeString(a[2]), base); !ok {
			return tag
		}
		end := formEnd(out, tag)
		if end != nil && bytes.Contains(end, []byte(`name="lang"`)) {
			return tag
		}
		return []byte(t + `<input type="hidden" name="lang" value="` + html.EscapeString(lang) + `">`)
	})
}

// formEnd is the body of the first form that opens with tag (nil when it
// does not close).
func formEnd(page, tag []byte) []byte {
	i := bytes.Index(page, tag)
	if i < 0 {
		return nil
	}
	rest := page[i:]
	j := bytes.Index(rest, []byte("</form>"))
	if j < 0 {
		return nil
	}
	return rest[:j]
}

// siteLink is u as a path of the site (base cut off an absolute link
// under it), and whether it is one.
func siteLink(u, base string) (string, bool) {
	if base != "" && strings.HasPrefix(u, base) {
		u = strings.TrimPrefix(u, base)
		if u == "" || u[0] == '#' || u[0] == '?' {
			u = "/" + u
		}
	}
	return u, strings.HasPrefix(u, "/") && !strings.HasPrefix(u, "//")
}
