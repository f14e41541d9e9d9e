package api

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/joins"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// The land and property pages in Spanish: one project of each procedure
// and state on the bundled sample (a hearing's place quoted, a completed
// project, outside milestones, meetings joined, no reviewed procedure),
// the list and its filters, and the property map, say every word of the
// site's and the services' in Spanish, and keep the record text they
// quote as published (data-verbatim). The plain-words walk covers every
// page kind; this keeps the land area's pages checked on their own.
func TestLandPagesInSpanish(t *testing.T) {
	e := newEntityEnv(t, Config{})
	names := sourceNames(t, e)
	for _, c := range []struct {
		path string
		want []string
	}{
		{"/land-projects/2024Q0292", []string{"Revisión de la junta comunitaria", "completada según las pruebas", "audiencia pública el <span data-verbatim>2026-06-02 18:30</span> en <span data-verbatim>67-29 108TH STREET, FOREST HILLS</span>",
			"el portal la lista como no iniciada", "hito ad hoc", "contorno de los lotes del proyecto en el portal ZAP, todos juntos: "}},
		{"/land-projects/2022M0258", []string{"El proyecto figura como terminado", "no es una etapa del procedimiento: el cierre del proyecto", "; una etapa condicional (solo cuando la solicitud"}},
		{"/land-projects/2024Q0113", []string{"un punto del orden del día (<span data-verbatim>", "nombra la solicitud <span data-verbatim>C 250253 ZMQ</span>"}},
		{"/land-projects/2023R0413", []string{"Remitida para revisión", "(véase lo no verificado)"}},
		{"/land-projects/2024Q0356", []string{"Procedimiento Acelerado de Revisión del Uso del Suelo (ELURP)", "añadido en la votación del 2025-11-04"}},
		{"/land-projects", []string{"Proyectos de uso del suelo"}},
		{"/land-projects?status=completed", nil},
		{"/land-projects?stage=bogus", []string{"etapa desconocida"}},
		{"/land-projects/NOPE", []string{"no es un id de proyecto ZAP"}},
		{"/property-locations", []string{"área de interés conjunto", "MapPLUTO no consultado; no está en el archivo de centroides"}},
	} {
		res, b := getPage(t, e, withLang(c.path))
		page := string(b)
		if !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
			t.Errorf("%s: %d is not a page", c.path, res.StatusCode)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(page, w) {
				t.Errorf("%s?lang=es does not say %q", c.path, w)
			}
		}
		if left := serviceEnglish(visibleText(page), names); len(left) > 0 {
			t.Errorf("%s: English left on the Spanish page: %q", c.path, left)
		}
		if words := rawWords(visibleText(page)); len(words) > 0 && res.StatusCode < 400 {
			t.Errorf("%s shows machine words: %q", c.path, words)
		}
	}
}

// The land texts are notes said from the message files: on a fixture
// project (milestones inside and outside the procedure, a later stage
// after conditional ones, lots without a centroid, a notice link's
// evidence) the Spanish page says each in the file's Spanish, the record
// values it quotes marked as such, and none of their English; the JSON
// twins publish each note beside its unchanged English. A lot and a link
// stored by an older index, without a key, show their English as what
// the record says (data-verbatim lang="en"), never matched.
func TestLandNotesFromTheMessageFiles(t *testing.T) {
	e := newEntityEnv(t, Config{})
	ctx := context.Background()
	day := time.Date(2026, 3, 2, 15, 0, 0, 0, time.UTC)
	queens, old := land.NoCentroidNote("4000010001", true), "older words of a lot"
	p := land.Project{ID: "2025Q9991", Name: "fixture: notes in Spanish", ProcedureID: "ulurp", Procedure: "ULURP", PublicStatus: "Completed",
		Lots: []land.Lot{{BBL: "4000010001", Borough: "Queens", NoCentroid: queens.String(), NoCentroidKey: &queens}, {BBL: "1000010001", Borough: "Manhattan", NoCentroid: old}},
		Milestones: []land.Milestone{
			{Action: "ZM", Milestone: "Community Board Referral", Status: "Completed", ActualEnd: day, Source: "zap-portal"},
			{Action: "ZM", Milestone: "CPC Public Meeting - Vote", Status: "Completed", ActualEnd: day, Source: "zap-portal"},
			{Action: "ZM", Milestone: "Project Completed", Status: "Completed", ActualEnd: day, Source: "zap-portal"},
		}}
	if err := search.Put(ctx, e.be, land.ProjectKind, []land.Project{p}); err != nil {
		t.Fatal(err)
	}
	to := record.Ref{Kind: record.RefLandProject, ID: p.ID}
	keyed := record.Notes{land.JoinNamed(p.Name, "2026-03-02", "QN CB6", true), record.N("land.join.bbl", "4000010001")}
	ev := land.JoinEvidence(keyed)
	withKey := record.NewLink(record.Ref{Kind: record.RefNotice, ID: "20269999001"}, to, "20269999001", "hearing_date_and_name", "medium", false, keyed.Clauses("en"))
	withKey.EvidenceKey = &ev
	older := record.NewLink(record.Ref{Kind: record.RefNotice, ID: "20269999002"}, to, "20269999002", "ceqr_number", "high", false, "the notice names CEQR number 99XYZ001Q")
	if err := search.Put(ctx, e.be, joins.Kind, []record.Link{withKey, older}); err != nil {
		t.Fatal(err)
	}
	es := record.Locales()["es"].Notes
	res, b := getPage(t, e, "/land-projects/"+p.ID+"?lang=es")
	page := string(b)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("%d", res.StatusCode)
	}
	outside := land.ProcKey("ulurp", "outside", land.MilestoneSlug("Project Completed"))
	for _, want := range []string{
		es["land.path.reason.happened"], es["land.path.note.completed"], es["land.path.note.layers"],
		strings.ReplaceAll(es["land.path.note.outside"], "%s", es[outside]),
		// an absent conditional stage before a later one: reason; condition; later
		es["land.path.reason.absent"] + "; " + strings.ReplaceAll(es["land.path.conditional"], "%s", es[land.ProcKey("ulurp", "stage", "borough_board", "condition")]) + "; " + es["land.path.later"],
		es[land.ProcKey("ulurp", "stage", "cpc_vote", "effect")], es[land.ProcKey("ulurp", "source", "title")],
		es["land.lot.no_centroid.queens"],
		`el aviso nombra el proyecto (<span data-verbatim>fixture: notes in Spanish</span>)`,
		`corresponden al BBL <span data-verbatim>4000010001</span>, un lote del proyecto`,
		`<span data-verbatim lang="en">the notice names CEQR number 99XYZ001Q</span>`,
		`<span data-verbatim lang="en">` + old + `</span>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the Spanish page does not say %q", want)
		}
	}
	for _, key := range []string{"land.path.reason.happened", "land.path.reason.absent", "land.path.later", "land.path.note.completed", "land.path.note.layers", "land.lot.no_centroid.queens", outside,
		land.ProcKey("ulurp", "stage", "cpc_vote", "effect"), land.ProcKey("ulurp", "source", "review_note")} {
		if en := record.N(key).String(); strings.Contains(page, en) {
			t.Errorf("the Spanish page says %s in English: %q", key, en)
		}
	}
	// the JSON twins: each note beside its English, which is the note's
	var v LandProjectView
	var d land.DecisionPath
	for path, into := range map[string]any{"/api/land-projects/" + p.ID: &v, "/api/land-projects/" + p.ID + "/decision-path": &d} {
		res, body := get(t, e, path)
		if res.StatusCode != http.StatusOK || json.Unmarshal(body, into) != nil {
			t.Fatalf("%s: %d %s", path, res.StatusCode, body)
		}
	}
	if len(v.Project.Links) != 2 || len(v.Project.Lots) != 2 || v.Project.Lots[0].NoCentroidKey == nil || v.Project.Lots[0].NoCentroidKey.String() != v.Project.Lots[0].NoCentroid ||
		v.Project.Lots[1].NoCentroidKey != nil {
		t.Fatalf("project: %d links, lots %+v", len(v.Project.Links), v.Project.Lots)
	}
	for _, l := range v.Project.Links {
		if got := l.EvidenceKeys.Clauses("en"); l.RequestID == withKey.From.ID && got != strings.Join(l.Evidence, land.EvidenceSep) || l.RequestID == older.From.ID && l.EvidenceKeys != nil {
			t.Errorf("link %s: evidence %q, keys %q", l.RequestID, l.Evidence, got)
		}
	}
	if len(d.Normative) == 0 || len(d.NoteKeys) != len(d.Notes) {
		t.Fatalf("path: %d stages, notes %q keys %v", len(d.Normative), d.Notes, d.NoteKeys)
	}
	for i, n := range d.NoteKeys {
		if n.String() != d.Notes[i] {
			t.Errorf("note %d: %q, key says %q", i, d.Notes[i], n.String())
		}
	}
	for _, s := range d.Normative {
		if s.ReasonKeys.Clauses("en") != s.Reason || s.EffectKey.String() != s.Effect {
			t.Errorf("stage %s: reason %q / %q, effect %q / %q", s.ID, s.Reason, s.ReasonKeys.Clauses("en"), s.Effect, s.EffectKey.String())
		}
	}
	for _, o := range d.Observed {
		if o.Note != "" && (o.NoteKey == nil || o.NoteKey.String() != o.Note) {
			t.Errorf("observation %s: note %q, key %v", o.ID, o.Note, o.NoteKey)
		}
	}
	// the land service's errors: their message as a note (message_key)
	for path, key := range map[string]string{"/api/land-projects/NOPE": "land.error.id_shape", "/api/land-projects/2099X9999": "land.error.not_found",
		"/api/land-projects?stage=bogus": "land.error.stage", "/api/land-projects?bbl=12": "land.error.bbl"} {
		var body struct{ Error record.Error }
		_, b := get(t, e, path)
		if json.Unmarshal(b, &body) != nil || body.Error.MessageKey.Key != key || body.Error.MessageKey.String() != body.Error.Message {
			t.Errorf("%s: %s", path, b)
		}
	}
}
