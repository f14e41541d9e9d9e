package web

import (
	"bytes"
	"io/fs"
	"path"
	"regexp"
	"strings"
	"testing"
)

// kinds are the page kinds the package names.
var kinds = []Kind{Home, Contract, Entity, LandProject, LandList, People, Meetings, WatchLink, DigestLink, About, Stats, Sources, Property, Error, Rows}

// One layout and one file per page kind: every kind has its template, every
// template file is a kind, and no template holds an inline style or script
// (the CSP forbids both; styles live in static/app.css, scripts in
// static/app.js).
func TestTemplatesOneLayoutNoInlineStyleOrScript(t *testing.T) {
	files, err := fs.Glob(assets, "templates/*.html")
	if err != nil {
		t.Fatal(err)
	}
	named := map[Kind]bool{}
	for _, k := range kinds {
		named[k] = true
		if pages["en"][k] == nil || pages["es"][k] == nil {
			t.Errorf("kind %q has no template", k)
		}
	}
	inline := regexp.MustCompile(`(?i)<style|\sstyle\s*=|<script(\s[^>]*)?>`)
	scriptSrc := regexp.MustCompile(`(?i)<script\s[^>]*\bsrc="/static/[^"]+"[^>]*>`)
	for _, f := range files {
		name := strings.TrimSuffix(path.Base(f), ".html")
		if name != "layout" && name != "parts" && !named[Kind(name)] {
			t.Errorf("%s is not a page kind", f)
		}
		b, _ := fs.ReadFile(assets, f)
		for _, m := range inline.FindAllString(string(b), -1) {
			if !scriptSrc.MatchString(m) {
				t.Errorf("%s: inline %q", f, m)
			}
		}
		if name != "layout" && name != "parts" && strings.Contains(string(b), "<html") {
			t.Errorf("%s holds a document of its own: pages are content inside layout.html", f)
		}
	}
}

// Every kind renders inside the one layout: header with the lens
// navigation, main, footer, the page's title and head links.
func TestRenderPutsEveryPageInTheLayout(t *testing.T) {
	var buf bytes.Buffer
	p := Page{Kind: DigestLink, Title: `Notice <not> found`, Home: "http://rw.test/", JSON: "http://rw.test/api/x", Robots: "noindex",
		Section: &Link{Label: "Meetings", URL: "http://rw.test/meetings"},
		Data:    map[string]string{"Heading": "Notice not found", "Message": "m", "Search": "/#search", "SearchJSON": "/api/search"}}
	if err := Render(&buf, p); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{`<title>Notice &lt;not&gt; found · Recordwatch</title>`, `<meta name="robots" content="noindex">`,
		`<link rel="alternate" type="application/json" href="http://rw.test/api/x">`, `<a class="brand" href="http://rw.test/">Recordwatch</a> · <a href="http://rw.test/meetings">Meetings</a>`,
		`<nav aria-label="Site">`, `<form class="sitesearch" role="search" method="get" action="/search"`, `<a href="/contracts/analysis">Contracts</a>`, `<a href="/stats">Stats</a>`, `<main id="main-content" class="wrap" tabindex="-1">`, `<h1>Notice not found</h1>`, `<footer class="foot">`,
		`<body class="page" data-lang="en">`, `<html lang="en">`, `hreflang="es"`} {
		if !strings.Contains(out, want) {
			t.Errorf("page lacks %s:\n%s", want, out)
		}
	}
	if strings.Contains(out, `<script src="/static/app.js"`) {
		t.Error("a server-rendered page loads the shell's script")
	}
	buf.Reset()
	if err := Render(&buf, Page{Kind: Home, Home: "/#", Shell: &Config{Form: 2, BaseURL: "http://rw.test"}}); err != nil {
		t.Fatal(err)
	}
	out = buf.String()
	for _, want := range []string{`<body data-form="2" data-base="http://rw.test" data-lang="en">`, `<script src="/static/app.js" defer></script>`,
		`<title>Recordwatch — New York City public records</title>`, `<div id="view" aria-live="polite">`, `<a class="brand" href="/#">`} {
		if !strings.Contains(out, want) {
			t.Errorf("shell lacks %s:\n%s", want, out)
		}
	}
	if err := Render(&buf, Page{Kind: "nope"}); err == nil {
		t.Error("an unknown page kind rendered")
	}
}
