package searchtest

import (
	"context"
	"testing"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// analysisDocs are notices whose text joins words with a colon, a period
// or an apostrophe, as City Record text does (section headers, contract
// numbers, possessives, Irish names), and words that a hyphenated query
// holds apart.
func analysisDocs() []search.Doc {
	mk := func(id, title, body string) search.Doc {
		n := notice(id, "Procurement", "Solicitation", "Citywide Administrative Services", title, "", "2026-08-03", "", "", "", body)
		ps := record.SplitPassages(n.RequestID, n.Body)
		for j := range ps {
			ps[j].Source, ps[j].Section, ps[j].Lenses = n.Source, n.Section, n.Lenses
			ps[j].AgencyID, ps[j].Title, ps[j].StartDate, ps[j].SourceURL = n.AgencyID, n.Title, n.StartDate, n.OfficialURL
		}
		return search.Doc{Notice: n, Passages: ps}
	}
	return []search.Doc{
		mk("20260803001", "Uniform services", "SECTION:PROCUREMENT. Submit bids under CONTRACT.NUM 12345 by the due date."),
		mk("20260803002", "Hearing", "A hearing will be held at the Mayor’s Office of Contract Services on the proposed rules."),
		mk("20260803003", "Plumbing repairs", "Award to O'Brien Plumbing of Queens for repairs of city owned buildings."),
		mk("20260803004", "Fencing", "Fence repair for the bar of the court, and a foo for the lobby."),
		mk("20260803005", "Security guard services", "Request for Proposals for security guard services at shelters."),
		mk("20260803006", "Elevator maintenance", "RFP for elevator maintenance; M/WBE participation goals apply."),
	}
}

// testAnalysis: both engines tokenize text and queries by one rule
// (search.Words): words joined by ':' or '.' are found by each word; a
// possessive ('s or ’s) does not break a phrase; a word that splits into
// several parts (a hyphen, an apostrophe) is matched as the phrase of its
// parts, so hyphenated nonsense finds nothing rather than every notice
// holding one of its parts.
func testAnalysis(t *testing.T, open Opener) {
	ctx := context.Background()
	b := open(t)
	t.Cleanup(func() { b.Close() })
	if err := b.Upsert(ctx, analysisDocs()); err != nil {
		t.Fatal(err)
	}
	if err := b.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		q    string
		want []string
	}{
		{"procurement", []string{"20260803001"}},
		{"section", []string{"20260803001"}},
		{`"contract num"`, []string{"20260803001"}},
		{"num", []string{"20260803001"}},
		{`"mayor's office"`, []string{"20260803002"}},
		{`"mayor’s office"`, []string{"20260803002"}},
		{"mayor's", []string{"20260803002"}},
		{"O'Brien", []string{"20260803003"}},
		{"o’brien", []string{"20260803003"}},
		{"brien", []string{"20260803003"}},
		{"foo-bar", []string{}},
		{"qwzx-foo-bar-lobby", []string{}},
		{"court -foo-lobby", []string{"20260803004"}},
		{"section:procurement", []string{"20260803001"}},
		// the reviewed synonym list (search.expandSynonyms), both ways
		{"rfp", []string{"20260803005", "20260803006"}},
		{`"request for proposals"`, []string{"20260803005", "20260803006"}},
		{`"minority and women-owned business enterprise"`, []string{"20260803006"}},
		{"M/WBE", []string{"20260803006"}},
		{"guard -rfp", []string{}},
	} {
		res := mustSearch(t, b, search.Query{Text: c.q, Sort: search.SortOldest, Limit: 10})
		assertIDs(t, ids(res), c.want)
		if t.Failed() {
			t.Logf("query %q", c.q)
			return
		}
		if c.q == "procurement" || c.q == "O'Brien" {
			p, err := b.Passages(ctx, search.PassageQuery{Text: c.q, Limit: 10})
			if err != nil || len(p.Passages) == 0 {
				t.Errorf("passages for %q: %+v %v", c.q, p, err)
			}
		}
	}
}
