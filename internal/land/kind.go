package land

import (
	"strings"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Record kinds.
var (
	// ProjectKind is the land project, keyed by the ZAP project id.
	// Version 1: the token key also holds each accented word without its
	// accents (Tokens, NameWords).
	ProjectKind = search.Kind[Project]{Name: "land_project", Index: projectRecord, Version: 1}
	// EventKind is a land-use event of another publisher (borough
	// president recommendation, Council land-use item), keyed by its row.
	// Version 1: events are joined to their projects by link records
	// (land_event → land_project) that the link stage writes; a data
	// directory of events of version 0 is re-linked (indexer.Relink).
	EventKind = search.Kind[Event]{Name: "land_event", Index: eventRecord, Version: 1}
)

// Key names of land records (exact-match keys, normalized here).
const (
	KeyProcedure = "procedure" // procedure id: ulurp, non_ulurp, unknown
	KeyAction    = "action"    // action code: ZM, ZR, HA …
	KeyStage     = "stage"     // the normative stage the project is at (decision path)
	KeyEffect    = "effect"    // derived regulatory effect (upzone …), when stated
	KeyBorough   = "borough"   // manhattan, bronx, brooklyn, queens, staten_island, citywide
	KeyCD        = "community_district"
	KeyBBL       = "bbl"
	KeyULURP     = "ulurp"
	KeyCEQR      = "ceqr"
	KeyStatus    = "status" // public status: filed, noticed, in_public_review, completed
	KeyToken     = "token"  // lower-case words of the name, applicant, brief and keywords (Tokens)
)

// MaxTokens bounds the words a project is found by.
const MaxTokens = 200

// Tokens are the words a project is found by: the lower-case words
// (search.Words) of its name, applicant, brief (which names its address)
// and keywords, each once, at most MaxTokens.
func Tokens(p Project) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range append([]string{p.Name, p.Applicant, p.Brief}, p.Keywords...) {
		for _, w := range search.Words(s) {
			for _, w := range []string{w, entity.StripAccents(w)} { // a name search folds accents (NameWords)
				if !seen[w] && len(out) < MaxTokens {
					seen[w] = true
					out = append(out, w)
				}
			}
		}
	}
	return out
}

// Token is the key form of a written value: lower case, words joined by
// underscores ("In Public Review" → "in_public_review").
func Token(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(strings.ReplaceAll(s, "-", " "))), "_")
}

func projectRecord(p Project) search.Record {
	keys := map[string][]string{}
	add := func(k string, vs ...string) {
		for _, v := range vs {
			if v != "" && !contains(keys[k], v) {
				keys[k] = append(keys[k], v)
			}
		}
	}
	add(KeyProcedure, p.ProcedureID)
	for _, a := range p.Actions {
		add(KeyAction, strings.ToUpper(a.Code))
	}
	add(KeyStage, CurrentStage(p))
	if p.Effect != nil {
		add(KeyEffect, Token(p.Effect.Value))
	}
	for _, b := range p.Boroughs {
		add(KeyBorough, Token(b))
	}
	add(KeyCD, p.CommunityDistricts...)
	add(KeyBBL, p.BBLs()...)
	add(KeyULURP, p.ULURPKeys()...)
	add(KeyCEQR, strings.ToUpper(p.Environmental.CEQRNumber))
	add(KeyStatus, Token(p.PublicStatus))
	add(KeyToken, Tokens(p)...)
	r := search.Record{
		ID: p.ID, Source: Source, SourceLabel: SourceLabel, Keys: keys,
		Date: p.LastDate, Title: p.Name,
	}
	for _, s := range p.Sources {
		if s.ObservedAt.After(r.ObservedAt) {
			r.ObservedAt = s.ObservedAt
		}
	}
	if !p.LastDate.IsZero() {
		r.DateLabel = "last milestone"
	}
	return r
}

func eventRecord(e Event) search.Record {
	r := search.Record{ID: e.ID, Source: e.Source, SourceLabel: e.SourceLabel, Date: e.Date, Title: e.Name,
		Keys: map[string][]string{}}
	if len(e.ULURPKeys) > 0 {
		r.Keys[KeyULURP] = e.ULURPKeys
	}
	if e.Type != "" {
		r.Keys["event_type"] = []string{e.Type}
	}
	if !e.Date.IsZero() {
		r.DateLabel = e.Type
	}
	return r
}
