package web

import "strings"

// The one place that turns the machine values the JSON keeps (states,
// stages, procedures, methods, sources, lenses, groupings) into the words a
// person reads, in each language the site speaks. Templates call
// {{label "<kind>" value}}; the JSON twins keep the machine value. A value
// no table holds is shown as it is (it is the source's own text), and the
// plain-words test (api/plainwords_test.go) fails when such a value is an
// enum word.

// word is one label in each language: English, then Spanish.
type word [2]string

// labels maps a kind of value to its values' labels.
var labels = map[string]map[string]word{
	// land.StageIDs and the parallel groups of internal/land/procedures
	"stage": {
		"pre_filing":        {"Pre-filing", "Antes de la presentación"},
		"certification":     {"Certification", "Certificación"},
		"community_board":   {"Community board review", "Revisión de la junta comunitaria"},
		"borough_board":     {"Borough board review", "Revisión de la junta del distrito"},
		"borough_president": {"Borough president review", "Revisión del presidente del distrito"},
		"community_review":  {"Community review", "Revisión comunitaria"},
		"borough_review":    {"Borough review", "Revisión del distrito"},
		"cpc_hearing":       {"City Planning Commission hearing", "Audiencia de la Comisión de Planificación"},
		"cpc_vote":          {"City Planning Commission vote", "Votación de la Comisión de Planificación"},
		"council":           {"City Council review", "Revisión del Concejo Municipal"},
		"mayor":             {"Mayor's review", "Revisión del alcalde"},
		"non_ulurp":         {"Review outside ULURP", "Revisión fuera de ULURP"},
		"unknown":           {"Unknown stage", "Etapa desconocida"},
	},
	// land.ProcedureIDs, plus the values the land list offers
	"procedure": {
		"ulurp":     {"ULURP (Uniform Land Use Review Procedure)", "ULURP (procedimiento uniforme de revisión del uso del suelo)"},
		"non_ulurp": {"Review outside ULURP", "Revisión fuera de ULURP"},
		"elurp":     {"ELURP (expedited review)", "ELURP (revisión acelerada)"},
		"unknown":   {"Unknown procedure", "Procedimiento desconocido"},
	},
	// land.StateMeanings
	"stage_state": {
		"happened":    {"Happened", "Ocurrió"},
		"in_progress": {"In progress", "En curso"},
		"current":     {"Current", "Actual"},
		"not_started": {"Not started", "No iniciada"},
		"absent":      {"Not recorded", "Sin registro"},
		"unknown":     {"Unknown", "Desconocida"}, // of an etapa, as "No iniciada"
	},
	// land.Observation kinds
	"observation": {
		"milestone":         {"Milestone", "Hito"},
		"recommendation":    {"Recommendation", "Recomendación"},
		"dated_fact":        {"Recorded date", "Fecha registrada"},
		"current_milestone": {"Current milestone", "Hito actual"},
		"bp_recommendation": {"Borough president recommendation", "Recomendación del presidente del distrito"},
		"council_item":      {"Council item", "Asunto del Concejo"},
		"council_action":    {"Council action", "Acción del Concejo"},
	},
	// the dated facts a ZAP project carries (indexer/source/zap)
	"date_fact": {
		"app_filed_date":      {"Application filed", "Solicitud presentada"},
		"noticed_date":        {"Noticed", "Notificado"},
		"certified_referred":  {"Certified and referred", "Certificado y remitido"},
		"approval_date":       {"Approved", "Aprobado"},
		"completed_date":      {"Completed", "Completado"},
		"project_completed":   {"Project completed", "Proyecto completado"},
		"last_milestone_date": {"Last milestone", "Último hito"},
	},
	// sources named on the pages (land observations and lots)
	"source": {
		"zap-portal":            {"ZAP portal", "Portal ZAP"},
		"zap-opendata-projects": {"NYC Open Data ZAP projects", "Proyectos ZAP de NYC Open Data"},
		"zap-opendata-bbls":     {"NYC Open Data ZAP lots", "Lotes ZAP de NYC Open Data"},
		"hgx4-8ukb":             {"NYC Open Data ZAP projects", "Proyectos ZAP de NYC Open Data"},
		"2iga-a6mk":             {"NYC Open Data ZAP lots", "Lotes ZAP de NYC Open Data"},
		"mappluto":              {"MapPLUTO", "MapPLUTO"},
		"zap":                   {"ZAP", "ZAP"},
		"hgx4-8ukb-seed":        {"NYC Open Data ZAP projects (seed file)", "Proyectos ZAP de NYC Open Data (archivo semilla)"},
		"council-land-use":      {"NYC Council land-use items", "Asuntos de uso del suelo del Concejo"},
		"source":                {"the source itself", "la propia fuente"},
	},
	// the fields of a land project the sources may disagree on
	// (indexer/source/zap merge)
	"field": {
		"name":                {"Name", "Nombre"},
		"public_status":       {"Public status", "Estado público"},
		"project_status":      {"Project status", "Estado del proyecto"},
		"review_procedure":    {"Review procedure", "Procedimiento de revisión"},
		"applicant":           {"Applicant", "Solicitante"},
		"boroughs":            {"Boroughs", "Distritos"},
		"community_districts": {"Community districts", "Distritos comunitarios"},
		"ulurp_numbers":       {"ULURP numbers", "Números ULURP"},
		"current_milestone":   {"Current milestone", "Hito actual"},
		"ceqr_number":         {"CEQR number", "Número CEQR"},
	},
	// land.Page by_status (the portal's public status, lowercased)
	"public_status": {
		"filed":            {"Filed", "Presentado"},
		"noticed":          {"Noticed", "Notificado"},
		"in_public_review": {"In public review", "En revisión pública"},
		"completed":        {"Completed", "Completado"},
		"unknown":          {"Status unknown", "Estado desconocido"},
	},
	// how a join was made (entity crosswalk, land notice links, meetings, people)
	"method": {
		"exact":            {"exact name", "nombre exacto"},
		"key":              {"same name key", "misma clave de nombre"},
		"short":            {"reviewed short form", "forma corta revisada"},
		"family":           {"administrative family", "familia administrativa"},
		"own":              {"unknown spelling (own id)", "grafía desconocida (id propio)"},
		"id":               {"canonical id", "id canónico"},
		"nickname":         {"everyday name", "nombre común"},
		"acronym":          {"acronym", "sigla"},
		"ulurp_number":     {"ULURP number", "número ULURP"},
		"project_id":       {"land project id", "id del proyecto de uso del suelo"},
		"ceqr_number":      {"CEQR number", "número CEQR"},
		"bbl":              {"lot number (BBL)", "número de lote (BBL)"},
		"roster_record_id": {"roster record id", "id del registro del padrón"},
		"source":           {"named by the source", "indicado por la fuente"},
		// link records (record.Link*, entity.PIN*)
		"exact_contract_id": {"exact contract id", "id de contrato exacto"},
		"renewal":           {"same PIN once renewal suffixes are removed", "mismo PIN sin sufijos de renovación"},
		"prefix":            {"same base PIN", "mismo PIN base"},
		"contract_id_field": {"the payment's own contract id", "el id de contrato del propio pago"},
	},
	"confidence": {
		"high":   {"high", "alta"},
		"medium": {"medium", "media"},
		"low":    {"low", "baja"},
		"none":   {"none", "ninguna"},
	},
	// meeting.Held…
	"held": {
		"held":     {"Held", "Celebrada"},
		"not_held": {"Not held", "No celebrada"},
		"unknown":  {"Unknown", "Desconocida"}, // of a reunión, as "Celebrada"
	},
	// meeting.Minutes…
	"minutes": {
		"published":     {"Published", "Publicadas"},
		"not_published": {"Not published", "No publicadas"},
	},
	// meeting.Notice…
	"notice_link": {
		"linked":     {"Linked", "Vinculado"},
		"not_linked": {"Not linked", "Sin vincular"},
		"unknown":    {"Unknown", "Desconocido"},
	},
	// meeting attendance modes
	"attendance": {
		"in_person": {"in person", "presencial"},
		"remote":    {"remote", "a distancia"},
		"hybrid":    {"hybrid", "híbrida"},
		"unknown":   {"unknown", "desconocida"},
	},
	// meeting body kinds
	"body_kind": {
		"council":         {"City Council", "Concejo Municipal"},
		"community_board": {"Community board", "Junta comunitaria"},
		"agency":          {"Agency", "Agencia"},
	},
	// procure.AnalysisGroupings
	"grouping": {
		"agency":      {"agency", "agencia"},
		"vendor":      {"vendor", "proveedor"},
		"fiscal_year": {"fiscal year", "año fiscal"},
		"amount_band": {"amount band", "rango de importe"},
	},
	// procure.AnalysisRankings
	"ranking": {
		"registered_value": {"registered value", "valor registrado"},
		"count":            {"number of rows", "número de filas"},
	},
	// people relation names and states
	"relation": {
		"principal_officer":       {"Principal officer", "Responsable principal"},
		"principal_officer_title": {"Principal officer's title", "Cargo del responsable principal"},
		"reports_to":              {"Reports to", "Depende de"},
		"alternate_names":         {"Other names", "Otros nombres"},
		"leads":                   {"Leads", "Dirige"},
		"url":                     {"Web page", "Página web"},
	},
	"relation_state": {
		"published": {"published", "publicado"},
		"empty":     {"printed empty", "impreso vacío"},
		"unknown":   {"unknown", "desconocido"},
	},
	"date_kind": {
		"published": {"release date", "fecha de publicación"},
		"fetched":   {"date fetched", "fecha de descarga"},
		"unknown":   {"date unknown", "fecha desconocida"},
	},
	// record's absence types (a by-id page that holds no such record)
	"absence": {
		"none_found":       {"Never held here.", "Nunca se ha guardado aquí."},
		"outside_coverage": {"Outside what is held.", "Fuera de lo que se guarda."},
		"not_ingested":     {"Source not loaded.", "Fuente no cargada."},
		"stale":            {"Source out of date.", "Fuente desactualizada."},
		"upstream_failing": {"Source failing.", "La fuente falla."},
	},
	// record.Lens…
	"lens": {
		"money":    {"Money", "Dinero"},
		"land":     {"Land", "Suelo"},
		"property": {"Property", "Propiedad"},
		"rules":    {"Rules", "Normas"},
		"meetings": {"Meetings", "Reuniones"},
		"people":   {"People", "Personas"},
	},
}

// Label is value's label of kind in lang ("en" or "es"); a value no table
// holds is returned as it is.
func Label(lang, kind, value string) string {
	w, ok := labels[kind][value]
	if !ok {
		return value
	}
	if lang == "es" && w[1] != "" {
		return w[1]
	}
	return w[0]
}

// LabelKinds lists the kinds Label knows (for tests).
func LabelKinds() []string {
	out := make([]string, 0, len(labels))
	for k := range labels {
		out = append(out, k)
	}
	return out
}

// HasLabel reports whether kind holds a label for value.
func HasLabel(kind, value string) bool {
	_, ok := labels[kind][value]
	return ok
}

// LabelValues lists the machine values kind holds labels for.
func LabelValues(kind string) []string {
	out := make([]string, 0, len(labels[kind]))
	for v := range labels[kind] {
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
