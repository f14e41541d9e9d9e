package web

import (
	"fmt"
	"strings"

	"github.com/recordwatch/recordwatch/internal/joins"
	"github.com/recordwatch/recordwatch/internal/land"
)

// The land and property pages' sentences in Spanish: the review
// procedures' own words (stage names, actors, effects, conditions, the
// milestones outside the procedure, the source and how it was checked),
// the decision path's reasons and notes (internal/land path_text.go), the
// lots' absent geometry, and the evidence of the joins a land project
// page lists. Milestone names, statuses and outcomes the portal prints are
// record text: the page shows them as published (data-verbatim).
//
// Composed reasons (a reason, a stage's condition, a later stage) are
// listed whole, built here from the procedures with land's own functions,
// because a condition may itself hold "; ".
func init() {
	m := map[string]string{}
	for en, es := range landNotesES {
		m[en] = es
	}
	for en, es := range landJoinsES {
		m[en] = es
	}
	// a read cut by a join bound (land.ProjectRead.LinksNote)
	for what, es := range map[string][3]string{
		"meetings joined to the project":                   {"reuniones vinculadas al proyecto", "las", "primeras"},
		"events of other publishers joined to the project": {"hechos de otras fuentes vinculados al proyecto", "los", "primeros"},
		"City Record notices linked to the project":        {"avisos del City Record vinculados al proyecto", "los", "primeros"},
	} {
		m[landBoundPattern(what)] = "Incompleto: se guardan más " + es[0] + " de " + es[1] + " %d que lee una respuesta (el límite de una lectura de vínculos); se listan " + es[1] + " " + es[2] + " %d."
	}
	addSentences(m)
}

// LandStageKey is the key of a procedure's stage in the land_stage and
// land_actor label tables (land_project.html builds the same with printf).
func LandStageKey(procedure, stage string) string { return procedure + "/" + stage }

// landBoundPattern is joins.BoundNote of what as a pattern (the bound as
// %d), so that the Spanish follows the note's own wording.
func landBoundPattern(what string) string {
	const mark = 987654321
	return strings.ReplaceAll(joins.BoundNote(what, mark), fmt.Sprint(mark), "%d")
}

// landNotesES are the decision path's reasons and notes
// (internal/land path_text.go), the dates' notes of other publishers'
// events, and why a lot has no geometry (land.NoCentroidReason).
var landNotesES = map[string]string{

	// Event.DateNote (indexer/source/zap, indexer/source/meetings)
	"the row's date %s is an epoch placeholder, not a date": "la fecha de la fila, %s, es un valor de relleno (epoch), no una fecha",
	"the row has no date": "la fila no tiene fecha",
	"passed date":         "fecha de aprobación",
	"the date of the meeting whose minutes name the application": "la fecha de la reunión cuyas actas nombran la solicitud",

	// the outlines' areas the maps draw (api/web nyc_outlines.json), as
	// their tooltips name them
	"%s — joint interest area": "%s — área de interés conjunto",

	// land.NoCentroidReason
	"no MapPLUTO centroid file is held": "no se guarda ningún archivo de centroides de MapPLUTO",
	"Queens lot: the held MapPLUTO centroid file covers Manhattan, the Bronx, Brooklyn and Staten Island only":     "lote de Queens: el archivo de centroides de MapPLUTO guardado solo cubre Manhattan, el Bronx, Brooklyn y Staten Island",
	"condominium billing lot (75xx): the held centroid file has no row for it":                                     "lote de facturación de condominio (75xx): el archivo de centroides guardado no tiene ninguna fila para él",
	"not in the held MapPLUTO centroid file, which holds only the lots of ZAP projects (those that matched PLUTO)": "no está en el archivo de centroides de MapPLUTO guardado, que solo contiene los lotes de proyectos ZAP (los que coincidieron con PLUTO)",

	// land.PlaceLot: how a lot is placed, and why it is not
	land.LotMethodCentroid: "centroide del lote en MapPLUTO",
	land.LotMethodProject:  "contorno de los lotes del proyecto en el portal ZAP, todos juntos",
	land.LotNotInPLUTO:     "no está en MapPLUTO",
	land.LotNotFetched:     "MapPLUTO no consultado",
	land.LotNotAsked:       "aún no se ha consultado a MapPLUTO (su próxima ejecución lo consultará)",
	land.LotNoAnswer:       "MapPLUTO no respondió: %s",
}


// landJoinsES are the evidence sentences of a land project's joins: its
// City Record notices (indexer/link land.go) and its meetings
// (indexer/link meeting_land.go). Their arguments are record text, ids
// and dates (the page marks them as such: sayParts).
var landJoinsES = map[string]string{
	"the notice names application number %s (project action %s)":                                     "el aviso nombra el número de solicitud %s (acción del proyecto %s)",
	"the notice names CEQR number %s":                                                                "el aviso nombra el número CEQR %s",
	"the notice's block and lot resolve to BBL %s, a lot of the project":                             "la manzana y el lote del aviso corresponden al BBL %s, un lote del proyecto",
	"the notice names the project (%s) and its event date %s is the date of the recorded %s hearing": "el aviso nombra el proyecto (%s) y su fecha de evento, %s, es la fecha de la audiencia registrada de %s",
	"the notice names the project (%s) and its event date %s is the date of the recorded %s":         "el aviso nombra el proyecto (%s) y su fecha de evento, %s, es la fecha del hito registrado %s",
	"the notice's event date %s is the date of the recorded %s hearing":                              "la fecha de evento del aviso, %s, es la fecha de la audiencia registrada de %s",
	"the notice's event date %s is the date of the recorded %s":                                      "la fecha de evento del aviso, %s, es la fecha del hito registrado %s",
	"%s on %d-%d-%d: an agenda item (%s) names application %s, an action of land project %s (%s)":    "%s el %d-%d-%d: un punto del orden del día (%s) nombra la solicitud %s, una acción del proyecto de uso del suelo %s (%s)",
	"%s on %d-%d-%d: its text (%s) names application %s, an action of land project %s (%s)":          "%s el %d-%d-%d: su texto (%s) nombra la solicitud %s, una acción del proyecto de uso del suelo %s (%s)",
	"%s on %d-%d-%d: an agenda item (%s) names land project %s (%s)":                                 "%s el %d-%d-%d: un punto del orden del día (%s) nombra el proyecto de uso del suelo %s (%s)",
	"%s on %d-%d-%d: its text (%s) names land project %s (%s)":                                       "%s el %d-%d-%d: su texto (%s) nombra el proyecto de uso del suelo %s (%s)",
}
