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
	for en, es := range landProcedureES {
		m[en] = es
	}
	for en, es := range landNotesES {
		m[en] = es
	}
	for en, es := range landJoinsES {
		m[en] = es
	}
	for en, es := range landErrorsES {
		m[en] = es
	}
	for _, id := range land.ProcedureIDs() {
		p, _ := land.ProcedureByID(id)
		for _, o := range p.Outside {
			if es, ok := landOutsideES[o.Note]; ok {
				m[land.NoteOutside+o.Note] = "no es una etapa del procedimiento: " + es
			}
		}
		for _, s := range p.Stages {
			if s.Applies != "conditional" {
				continue
			}
			cond, ok := landConditionES[s.Condition]
			if !ok {
				continue
			}
			for _, base := range []string{land.ReasonAbsent, land.ReasonUnknown} {
				es := landNotesES[base] + "; una etapa condicional (" + cond + ")"
				en := land.ConditionalReason(base, s.Condition)
				m[en] = es
				m[land.LaterReason(en)] = es + "; " + landLaterES
			}
		}
	}
	for _, base := range []string{land.ReasonAbsent, land.ReasonUnknown} {
		m[land.LaterReason(base)] = landNotesES[base] + "; " + landLaterES
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
	addWords(nil, landLabels())
}

// landLabels are the label tables of the procedures' names (land_procedure,
// by procedure id) and of their stages' names and actors (land_stage,
// land_actor, by "procedure/stage": LandStageKey), in English as the
// procedure definitions write them. A name with no Spanish has an empty
// Spanish label, which TestEveryMachineValueHasALabel reports.
func landLabels() map[string]map[string]word {
	ls := map[string]map[string]word{"land_procedure": {}, "land_stage": {}, "land_actor": {}}
	for _, id := range land.ProcedureIDs() {
		p, _ := land.ProcedureByID(id)
		ls["land_procedure"][id] = word{p.Name, landNameES[p.Name]}
		for _, s := range p.Stages {
			ls["land_stage"][LandStageKey(id, s.ID)] = word{s.Name, landNameES[s.Name]}
			ls["land_actor"][LandStageKey(id, s.ID)] = word{s.Actor, landNameES[s.Actor]}
		}
	}
	return ls
}

// LandStageKey is the key of a procedure's stage in the land_stage and
// land_actor label tables (land_project.html builds the same with printf).
func LandStageKey(procedure, stage string) string { return procedure + "/" + stage }

// landLaterES is the Spanish of land.LaterReason's clause.
const landLaterES = "hay registrada una etapa posterior"

// landBoundPattern is joins.BoundNote of what as a pattern (the bound as
// %d), so that the Spanish follows the note's own wording.
func landBoundPattern(what string) string {
	const mark = 987654321
	return strings.ReplaceAll(joins.BoundNote(what, mark), fmt.Sprint(mark), "%d")
}

// landProcedureES are the procedures' own words (internal/land/procedures):
// sources, review notes and stages' effects.
var landProcedureES = map[string]string{
	"Checked on 2026-11-27 and again on 2026-12-06 against the Charter text as published (current through Local Law 2026/094): every stage's section, subdivision and day count is quoted from it, and each quote is checked against that text. The earlier definition, written from memory, put the borough board beside the community board; the Charter gives the borough board its thirty days after the community boards, beside the borough president. Since 2025-12-02 a Council action on an affordable housing application may go to the Affordable Housing Appeals Board instead of the Mayor.": "Comprobado el 2026-11-27 y de nuevo el 2026-12-06 con el texto de la Carta tal como se publica (vigente hasta la Ley Local 2026/094): la sección, la subdivisión y el número de días de cada etapa se citan de él, y cada cita se comprueba con ese texto. La definición anterior, escrita de memoria, ponía la junta del distrito junto a la junta comunitaria; la Carta da a la junta del distrito sus treinta días después de las juntas comunitarias, junto al presidente del distrito. Desde el 2025-12-02, una acción del Concejo sobre una solicitud de vivienda asequible puede ir a la Junta de Apelaciones de Vivienda Asequible en lugar de al alcalde.",
	"Checked on 2026-11-27 and again on 2026-12-06 against the Charter text as published: every stage's section, subdivision and day count is quoted from it. Non-ULURP covers several paths: a zoning text amendment follows §200-§201 and §197-d; an authorization or certification is decided by the Commission under the Zoning Resolution, not the Charter. Which path a project follows depends on its actions; the conditions say so instead of deciding it.":                                                                                                                                      "Comprobado el 2026-11-27 y de nuevo el 2026-12-06 con el texto de la Carta tal como se publica: la sección, la subdivisión y el número de días de cada etapa se citan de él. La revisión fuera de ULURP abarca varios caminos: una enmienda del texto de zonificación sigue §200-§201 y §197-d; una autorización o certificación la decide la Comisión según la Resolución de Zonificación, no según la Carta. El camino que sigue un proyecto depende de sus acciones; las condiciones lo indican en lugar de decidirlo.",
	"Written on 2026-11-27 and corrected on 2026-12-06 from the Charter text as published (current through Local Law 2026/094): every stage's section, subdivision and day count is quoted from it, and each quote is checked against that text. An agency application under subdivision k skips filing and certification with the Department: it goes straight to the community boards and borough presidents, then to the Council.":                                                                                                                                                                     "Escrito el 2026-11-27 y corregido el 2026-12-06 a partir del texto de la Carta tal como se publica (vigente hasta la Ley Local 2026/094): la sección, la subdivisión y el número de días de cada etapa se citan de él, y cada cita se comprueba con ese texto. Una solicitud de una agencia según la subdivisión k no se presenta ni se certifica ante el Departamento: va directamente a las juntas comunitarias y a los presidentes de distrito, y luego al Concejo.",
	"the Council's action stays final unless the applicant, or two board members, ask for review within five days (§197-d(e-1))":                                                                            "la acción del Concejo queda firme salvo que el solicitante, o dos miembros de la junta, pidan la revisión en cinco días (§197-d(e-1))",
	"binding: after a public meeting, the board may by majority vote approve an application the Council disapproved or undo the Council's modifications; no action affirms the Council (§197-g(d))":         "vinculante: tras una reunión pública, la junta puede, por mayoría, aprobar una solicitud que el Concejo desaprobó o deshacer las modificaciones del Concejo; si no actúa, confirma la decisión del Concejo (§197-g(d))",
	"binding: a protested text change takes effect only if the Council approves it by a three-fourths vote within one hundred eighty days of the filing of the Commission's resolution with the City Clerk": "vinculante: un cambio de texto impugnado solo entra en vigor si el Concejo lo aprueba por tres cuartos de los votos en los ciento ochenta días siguientes a la presentación de la resolución de la Comisión ante la Secretaría Municipal",
	"advisory: a public hearing and a written recommendation to the Council and the applicant":                                                                                                              "consultivo: una audiencia pública y una recomendación por escrito al Concejo y al solicitante",
	"advisory: a written recommendation to the Council and the applicant":                                                                                                                                   "consultivo: una recomendación por escrito al Concejo y al solicitante",
	// sources
	`New York City Charter, Chapter 8 (City Planning), §197-c "Uniform land use review procedure" and §197-d "Council review"`:                                                      `Carta de la Ciudad de Nueva York, capítulo 8 (Planificación Urbana), §197-c «Procedimiento uniforme de revisión del uso del suelo» y §197-d «Revisión del Concejo»`,
	`New York City Charter, Chapter 8, §200 "Zoning resolution" and §201 "Applications for zoning changes and special permits"; §197-d for the Council's review`:                    `Carta de la Ciudad de Nueva York, capítulo 8, §200 «Resolución de zonificación» y §201 «Solicitudes de cambios de zonificación y de permisos especiales»; §197-d para la revisión del Concejo`,
	`New York City Charter, Chapter 8, §197-e "Expedited land use review procedure" (added by the 2025-11-04 ballot, L.L. 2025/177), with §197-d(c-1) and (f) for its Council path`: `Carta de la Ciudad de Nueva York, capítulo 8, §197-e «Procedimiento acelerado de revisión del uso del suelo» (añadido en la votación del 2025-11-04, L.L. 2025/177), con §197-d(c-1) y (f) para su paso por el Concejo`,
	// how each was checked (review_note)
	"Checked on 2026-11-27 against the bundled Charter text: every stage's section, subdivision and day count is quoted from it (charter_text), and a check of the definitions fails when a quote or a day count is not in the cited subdivision. The earlier definition, written from memory, put the borough board beside the community board; the Charter gives the borough board its thirty days after the community boards, beside the borough president.": "Comprobado el 2026-11-27 con el texto de la Carta incluido: la sección, la subdivisión y el número de días de cada etapa se citan de él (charter_text), y una comprobación de las definiciones falla cuando una cita o un número de días no está en la subdivisión citada. La definición anterior, escrita de memoria, ponía la junta del distrito junto a la junta comunitaria; la Carta da a la junta del distrito sus treinta días después de las juntas comunitarias, junto al presidente del distrito.",
	"Checked on 2026-11-27 against the bundled Charter text: every stage's section, subdivision and day count is quoted from it (charter_text). Non-ULURP covers several paths: a zoning text amendment follows §200-§201 and §197-d; an authorization or certification is decided by the Commission under the Zoning Resolution, not the Charter. Which path a project follows depends on its actions; the conditions say so instead of deciding it.":          "Comprobado el 2026-11-27 con el texto de la Carta incluido: la sección, la subdivisión y el número de días de cada etapa se citan de él (charter_text). La revisión fuera de ULURP abarca varios caminos: una enmienda del texto de zonificación sigue §200-§201 y §197-d; una autorización o certificación la decide la Comisión según la Resolución de Zonificación, no según la Carta. El camino que sigue un proyecto depende de sus acciones; las condiciones lo indican en lugar de decidirlo.",
	"Written on 2026-11-27 from the bundled Charter text: every stage's section, subdivision and day count is quoted from it (charter_text), and a check of the definitions fails when a quote or a day count is not in the cited subdivision.":                                                                                                                                                                                                                 "Escrito el 2026-11-27 a partir del texto de la Carta incluido: la sección, la subdivisión y el número de días de cada etapa se citan de él (charter_text), y una comprobación de las definiciones falla cuando una cita o un número de días no está en la subdivisión citada.",
	// effects
	"none: the application is not yet in public review": "ninguno: la solicitud todavía no está en revisión pública",
	"starts public review and its time limits":          "inicia la revisión pública y sus plazos",
	"starts public review":                              "inicia la revisión pública",
	"advisory":                                          "consultivo",
	"advisory: a public hearing and a written recommendation (or a waiver)":                                                                                                "consultivo: una audiencia pública y una recomendación por escrito (o una renuncia)",
	"advisory: a public hearing (optional) and a written recommendation or waiver":                                                                                         "consultivo: una audiencia pública (opcional) y una recomendación por escrito o una renuncia",
	"advisory: a written recommendation or waiver":                                                                                                                         "consultivo: una recomendación por escrito o una renuncia",
	"advisory: a public hearing and a recommendation":                                                                                                                      "consultivo: una audiencia pública y una recomendación",
	"public hearing before the Commission's decision (noticed in the City Record at least ten days before, §197-c(k))":                                                     "audiencia pública antes de la decisión de la Comisión (anunciada en el City Record con al menos diez días de antelación, §197-c(k))",
	"public hearing before the Commission's decision (noticed in the City Record at least ten days before, §197-e(j))":                                                     "audiencia pública antes de la decisión de la Comisión (anunciada en el City Record con al menos diez días de antelación, §197-e(j))",
	"public hearing, noticed in the City Record for the ten days before":                                                                                                   "audiencia pública, anunciada en el City Record durante los diez días anteriores",
	"binding: approval, approval with modifications or disapproval (seven votes to approve); failing to act is a denial except as §197-c(j) provides":                      "vinculante: aprobación, aprobación con modificaciones o desaprobación (siete votos para aprobar); no actuar equivale a denegar, salvo lo que dispone §197-c(j)",
	"binding and final: approval, approval with modifications or disapproval (seven votes to approve); not filed with the Council; failing to act is a denial (§197-e(i))": "vinculante y definitiva: aprobación, aprobación con modificaciones o desaprobación (siete votos para aprobar); no se presenta al Concejo; no actuar equivale a denegar (§197-e(i))",
	"binding for authorizations and certifications; for a text amendment, the resolution filed with the Council":                                                           "vinculante para autorizaciones y certificaciones; para una enmienda del texto, la resolución que se presenta al Concejo",
	"binding: approval, approval with modifications or disapproval by a majority of all members; failing to act is a deemed approval":                                      "vinculante: aprobación, aprobación con modificaciones o desaprobación por mayoría de todos los miembros; no actuar equivale a una aprobación tácita",
	"binding: approval or disapproval by a majority of all members; failing to act is a deemed approval":                                                                   "vinculante: aprobación o desaprobación por mayoría de todos los miembros; no actuar equivale a una aprobación tácita",
	"binding: approval, modification or disapproval of a zoning text amendment; failing to act is a deemed approval":                                                       "vinculante: aprobación, modificación o desaprobación de una enmienda del texto de zonificación; no actuar equivale a una aprobación tácita",
	"may disapprove the Council's action; the Council may override by a two-thirds vote within ten days":                                                                   "puede desaprobar la acción del Concejo; el Concejo puede anular esa desaprobación con dos tercios de los votos en un plazo de diez días",
	"may disapprove a deemed approval; the Council may override by a two-thirds vote within ten days":                                                                      "puede desaprobar una aprobación tácita; el Concejo puede anular esa desaprobación con dos tercios de los votos en un plazo de diez días",
}

// landNameES are the procedures' names and their stages' names and
// actors, said through label tables keyed by procedure and stage
// (land_procedure, land_stage, land_actor: landLabels), not as sentences:
// the same words are also bodies' names that other pages print as
// published ("City Planning Commission").
var landNameES = map[string]string{
	"Request for review by the Affordable Housing Appeals Board":                                                      "Solicitud de revisión ante la Junta de Apelaciones de Vivienda Asequible",
	"Affordable Housing Appeals Board review":                                                                         "Revisión de la Junta de Apelaciones de Vivienda Asequible",
	"Applicant, or two members of the Affordable Housing Appeals Board":                                               "El solicitante, o dos miembros de la Junta de Apelaciones de Vivienda Asequible",
	"Affordable Housing Appeals Board (the Mayor, the Speaker of the Council and the affected borough president)":     "Junta de Apelaciones de Vivienda Asequible (el alcalde, el presidente del Concejo y el presidente del distrito afectado)",
	"Council vote after an owners' protest":                                                                           "Votación del Concejo tras una impugnación de propietarios",
	"Community board review of a subdivision k application":                                                           "Revisión de la junta comunitaria de una solicitud de la subdivisión k",
	"Borough president review of a subdivision k application":                                                         "Revisión del presidente del distrito de una solicitud de la subdivisión k",
	"Uniform Land Use Review Procedure (ULURP)":                                                                       "Procedimiento Uniforme de Revisión del Uso del Suelo (ULURP)",
	"Expedited Land Use Review Procedure (ELURP)":                                                                     "Procedimiento Acelerado de Revisión del Uso del Suelo (ELURP)",
	"Non-ULURP land-use review (zoning text amendments, authorizations, certifications and other Commission actions)": "Revisión del uso del suelo fuera de ULURP (enmiendas del texto de zonificación, autorizaciones, certificaciones y otras acciones de la Comisión)",
	"Application prepared and filed":                                                                                  "Solicitud preparada y presentada",
	"Certified as complete and referred":                                                                              "Certificada como completa y remitida",
	"Referred for review":                                                                                             "Remitida para revisión",
	"Community board review":                                                                                          "Revisión de la junta comunitaria",
	"Borough board review":                                                                                            "Revisión de la junta del distrito",
	"Borough president review":                                                                                        "Revisión del presidente del distrito",
	"City Planning Commission public hearing":                                                                         "Audiencia pública de la Comisión de Planificación Urbana",
	"City Planning Commission decision":                                                                               "Decisión de la Comisión de Planificación Urbana",
	"City Council review":                                                                                             "Revisión del Concejo Municipal",
	"Mayoral review":                                                                                                  "Revisión del alcalde",
	"Applicant and Department of City Planning":                                                                       "El solicitante y el Departamento de Planificación Urbana",
	"Department of City Planning (for the City Planning Commission)":                                                  "Departamento de Planificación Urbana (para la Comisión de Planificación Urbana)",
	"Community board":                                                                                                 "Junta comunitaria",
	"Community board (or borough board)":                                                                              "Junta comunitaria (o junta del distrito)",
	"Borough board":                                                                                                   "Junta del distrito",
	"Borough president":                                                                                               "Presidente del distrito",
	"City Planning Commission":                                                                                        "Comisión de Planificación Urbana",
	"City Council":                                                                                                    "Concejo Municipal",
	"Mayor":                                                                                                           "Alcalde",
}

// landConditionES are the procedures' stage conditions (Stage.Condition).
var landConditionES = map[string]string{
	"only a Council action under §197-d(c) disapproving or modifying an application that directly facilitates affordable housing, not in two or more boroughs nor on an urban renewal plan (§197-g(b))":                                                                                  "solo una acción del Concejo según §197-d(c) que desaprueba o modifica una solicitud que facilita directamente vivienda asequible, no en dos o más distritos ni sobre un plan de renovación urbana (§197-g(b))",
	"only when the applicant, or two board members, asked for review within five days of the Council's action (§197-g(c))":                                                                                                                                                               "solo cuando el solicitante, o dos miembros de la junta, pidieron la revisión en los cinco días siguientes a la acción del Concejo (§197-g(c))",
	"only after a Council action (or, §197-d(f)-(g), a deemed approval or a decision the Council did not review); never for one the Affordable Housing Appeals Board may review (§197-d(e-1), (f))":                                                                                      "solo después de una acción del Concejo (o, §197-d(f)-(g), de una aprobación tácita o de una decisión que el Concejo no revisó); nunca para una que pueda revisar la Junta de Apelaciones de Vivienda Asequible (§197-d(e-1), (f))",
	"only after a Council action, and never for one the Affordable Housing Appeals Board may review (§197-d(e-1))":                                                                                                                                                                       "solo después de una acción del Concejo, y nunca para una que pueda revisar la Junta de Apelaciones de Vivienda Asequible (§197-d(e-1))",
	"only when the owners of twenty per centum or more of the area of the land in the change, of the land extending one hundred feet from it or of the land directly opposite it protest to the City Clerk within thirty days of the filing of the Commission's resolution (§200(a)(3))": "solo cuando los propietarios de un veinte por ciento o más de la superficie de los terrenos del cambio, de los terrenos situados a cien pies de ellos o de los terrenos situados enfrente presentan una impugnación ante la Secretaría Municipal en los treinta días siguientes a la presentación de la resolución de la Comisión (§200(a)(3))",
	"every application except the subdivision k applications, which the applicant submits directly to the community boards and borough presidents (§197-e(k)(2))":                                                                                                                        "toda solicitud salvo las de la subdivisión k, que el solicitante presenta directamente a las juntas comunitarias y a los presidentes de distrito (§197-e(k)(2))",
	"only when the application involves land located within two or more community districts in a borough":                                                                                                                                                                                "solo cuando la solicitud afecta a terrenos situados en dos o más distritos comunitarios de un mismo distrito",
	"§197-d(b): automatic for approvals of zoning map changes and housing and urban renewal plans (§197-c(a)(3), (8)), dispositions of residential real property, §197-a plans and zoning text changes; otherwise only when the community board and the borough president both recommended against and the borough president objects within five days, or when the Council resolves within twenty days of the filing to review": "§197-d(b): automática para las aprobaciones de cambios del mapa de zonificación y de planes de vivienda y de renovación urbana (§197-c(a)(3), (8)), las cesiones de bienes inmuebles residenciales, los planes del §197-a y los cambios del texto de zonificación; en los demás casos, solo cuando la junta comunitaria y el presidente del distrito recomendaron en contra y el presidente del distrito se opone en un plazo de cinco días, o cuando el Concejo decide revisarla en un plazo de veinte días desde la presentación",
	"only after a Council action (or, §197-d(f)-(g), a deemed approval or a decision the Council did not review)":                "solo después de una acción del Concejo (o, §197-d(f)-(g), de una aprobación tácita o de una decisión que el Concejo no revisó)",
	"zoning text amendments and other referred actions":                                                                          "enmiendas del texto de zonificación y otras acciones remitidas",
	"by the Charter only for the text changes §201(a) sends through ELURP; otherwise the Commission's practice (see unverified)": "según la Carta, solo para los cambios de texto que §201(a) envía por ELURP; en los demás casos, práctica de la Comisión (véase lo no verificado)",
	"zoning text amendments; other actions when the Commission holds one":                                                        "enmiendas del texto de zonificación; otras acciones cuando la Comisión celebra una",
	"zoning text amendments the Commission approved (§200(a)(2), §197-d(b)(1))":                                                  "enmiendas del texto de zonificación que aprobó la Comisión (§200(a)(2), §197-d(b)(1))",
	"only after a Council action": "solo después de una acción del Concejo",
	"every application except the subdivision k applications, which go from the community board and borough president to the Council":                                           "toda solicitud salvo las de la subdivisión k, que pasan de la junta comunitaria y el presidente del distrito al Concejo",
	"every application except the subdivision k applications":                                                                                                                   "toda solicitud salvo las de la subdivisión k",
	"only agency applications under §197-e(k): dispositions and acquisitions of city property for companies organized exclusively to develop housing for persons of low income": "solo las solicitudes de agencias según §197-e(k): cesiones y adquisiciones de propiedad municipal para compañías constituidas exclusivamente para construir vivienda para personas de bajos ingresos",
	"only when the Council failed to act on a subdivision k application":                                                                                                        "solo cuando el Concejo no actuó sobre una solicitud de la subdivisión k",
}

// landOutsideES are the notes of the milestones outside every procedure
// (Procedure.Outside).
var landOutsideES = map[string]string{
	"the Affordable Housing Appeals Board reviews only Council actions under §197-d(c) (§197-g(b)); an ELURP application reaches the Council, if at all, under §197-d(c-1), so the board has no stage here": "la Junta de Apelaciones de Vivienda Asequible solo revisa acciones del Concejo según §197-d(c) (§197-g(b)); una solicitud de ELURP llega al Concejo, si llega, según §197-d(c-1), así que esa junta no tiene etapa aquí",
	"the project's closing, recorded by DCP; not a stage of the Charter procedure":                         "el cierre del proyecto, registrado por el DCP; no es una etapa del procedimiento de la Carta",
	"a Commission review session before its public hearing (an internal step); not the hearing itself":     "una sesión de revisión de la Comisión antes de su audiencia pública (un paso interno); no es la audiencia en sí",
	"a DCP headquarters review before the Commission's hearing (an internal step); not the hearing itself": "una revisión en la sede del DCP antes de la audiencia de la Comisión (un paso interno); no es la audiencia en sí",
	"a Commission review session after its hearing (an internal step); not the vote itself":                "una sesión de revisión de la Comisión después de su audiencia (un paso interno); no es la votación en sí",
	"an ad-hoc appeal step; not a stage of the Charter procedure":                                          "un paso de apelación ad hoc; no es una etapa del procedimiento de la Carta",
}

// landNotesES are the decision path's reasons and notes
// (internal/land path_text.go), the dates' notes of other publishers'
// events, and why a lot has no geometry (land.NoCentroidReason).
var landNotesES = map[string]string{
	land.ReasonHappened:   "completada según las pruebas",
	land.ReasonInProgress: "iniciada y no completada según las pruebas",
	land.ReasonCurrent:    "la fila de Open Data la nombra como hito actual",
	land.ReasonNotStarted: "el portal la lista como no iniciada; la fecha prevista es un plan, no una observación",
	land.ReasonAbsent:     "la lista de hitos del portal no tiene ningún hito de esta etapa",
	land.ReasonUnknown:    "no se guarda ninguna lista de hitos de este proyecto",

	land.NoteAdHoc:          "hito ad hoc: el portal lo lista aunque puede que nunca ocurra; no prueba ninguna etapa del procedimiento",
	land.NoteAdHocOnRequest: "hito ad hoc de una etapa que solo ocurre cuando alguien la pide: el portal lo lista en los proyectos a los que la etapa puede aplicarse, así que un hito no iniciado solo dice que no consta ninguna petición",
	land.NoteUnmapped:       "no corresponde a ninguna etapa de la definición del procedimiento",
	land.NoteApprovalDate:   "la fuente no dice de qué órgano es la aprobación con esta fecha; no se vincula a ninguna etapa",
	land.NoteClosing:        "el cierre del proyecto; no es una etapa del procedimiento",
	land.NoteCompleted:      "El proyecto figura como terminado (Completed) según su estado público; las fuentes guardadas no registran las etapas posteriores a la última registrada, y este proceso no las deduce.",
	land.NoteLayers:         "Las capas observada y normativa se mantienen separadas: una etapa nombra sus pruebas solo por el id de la observación. Este proceso informa de hechos registrados y de las reglas del procedimiento; no predice resultados.",

	fmt.Sprintf(land.ProcedureNoteFormat, land.ProcedureNotStated): "procedimiento de revisión: ninguna fuente guardada lo indica; no se guarda ninguna definición revisada, así que la capa normativa es desconocida",
	land.ProcedureNoteFormat:                          "procedimiento de revisión %s: no se guarda ninguna definición revisada de él, así que la capa normativa es desconocida",
	land.HearingNoteFormat:                            "audiencia pública el %s",
	land.HearingNoteFormat + land.HearingAtFormat:     "audiencia pública el %s en %s",
	land.MinutesNoteFormat:                            "las actas de la junta nombran la solicitud (método %s, leído del texto: %s); una mención no es la recomendación de la junta y no se vincula a ninguna etapa",
	fmt.Sprintf(land.MinutesNoteFormat, "text", "%s"): "las actas de la junta nombran la solicitud (método: texto, leído del texto: %s); una mención no es la recomendación de la junta y no se vincula a ninguna etapa",

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

// landErrorsES are the land service's answers to bad input
// (internal/land service.go, name.go), which the land pages show.
var landErrorsES = map[string]string{
	"a ZAP project id is required (e.g. 2022M0258)": "se necesita un id de proyecto ZAP (p. ej., 2022M0258)",
	"%s is not a ZAP project id: four digits of year, a borough letter (M, X, K, Q, R, or Y for citywide) and four digits, with an optional legacy P prefix (2022M0258, P2018X0210)": "%s no es un id de proyecto ZAP: cuatro dígitos del año, una letra del distrito (M, X, K, Q, R, o Y para toda la ciudad) y cuatro dígitos, con un prefijo P antiguo opcional (2022M0258, P2018X0210)",
	"no land project with id %s is held":                                                     "no se guarda ningún proyecto de uso del suelo con el id %s",
	"land projects are not available on this deployment":                                     "los proyectos de uso del suelo no están disponibles en esta instalación",
	"unknown review procedure %s; procedures: ulurp, non_ulurp, elurp, unknown (not stated)": "procedimiento de revisión desconocido %s; procedimientos: ulurp, non_ulurp, elurp, unknown (no indicado)",
	"unknown stage %s; stages: %s, unknown":                                                  "etapa desconocida %s; etapas: %s, unknown",
	"unknown borough %s; boroughs: %s":                                                       "distrito desconocido %s; distritos: %s",
	"limit must be between 1 and %d":                                                         "el límite debe estar entre 1 y %d",
	"%s is not a BBL: 10 digits, borough (1-5), block (5) and lot (4)":                       "%s no es un BBL: 10 dígitos, distrito (1-5), manzana (5) y lote (4)",
	"each of the words %s is in more than %d projects held: add a rarer word or another filter (borough, status, stage …)": "cada una de las palabras %s está en más de %d proyectos guardados: añada una palabra menos común u otro filtro (distrito, estado, etapa…)",
	"more than %d projects held hold every word of %s: add a word or another filter (borough, status, stage …)":            "más de %d proyectos guardados contienen todas las palabras de %s: añada una palabra u otro filtro (distrito, estado, etapa…)",
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
