package web

import (
	"fmt"
	"html/template"
	"net/url"
	"sort"
)

// Langs are the languages of the site's own words: English, the default,
// and Spanish (?lang=es, part of every permalink). Record text is never
// translated: it stays as published, and the pages say so.
var Langs = []string{"en", "es"}

// Lang is the site language a request asks for: "es" for lang=es, else
// "en".
func Lang(q url.Values) string {
	if q.Get("lang") == "es" {
		return "es"
	}
	return "en"
}

// langFuncs are the template functions bound to one language.
func langFuncs(lang string) template.FuncMap {
	i := 0
	if lang == "es" {
		i = 1
	}
	return template.FuncMap{
		"lang": func() string { return lang },
		// label is a machine value's label (labels.go)
		"label": func(kind, value string) string { return Label(lang, kind, value) },
		// plain says the machine words a service note names in words
		"plain": func(note string) string { return Plain(lang, note) },
		// say is a service's fixed sentence (an absence rule) in lang:
		// the Spanish of sentences (words.go), else as written
		"say": func(sentence string) string { return Say(lang, sentence) },
		// t is one of the site's own words (words); a missing key shows
		// as [[key]], which the word-list test and the plain-words test
		// catch.
		"t": func(key string, args ...any) string {
			w, ok := words[key]
			if !ok || w[i] == "" {
				return "[[" + key + "]]"
			}
			if len(args) > 0 {
				return fmt.Sprintf(w[i], args...)
			}
			return w[i]
		},
	}
}

// WordKeys lists the keys of the site's own words (for tests).
func WordKeys() []string {
	out := make([]string, 0, len(words))
	for k := range words {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Word is one of the site's own words in lang ("" when missing).
func Word(lang, key string) string {
	w := words[key]
	if lang == "es" {
		return w[1]
	}
	return w[0]
}

// words are the site's own words: navigation, headings, scope statements,
// empty states and forms, in English and Spanish.
var words = map[string]word{
	"site.tagline":     {"New York City public records", "Registros públicos de la ciudad de Nueva York"},
	"site.description": {"Search and follow New York City's public records, with the scope of every result.", "Busque y siga los registros públicos de la ciudad de Nueva York, con el alcance de cada resultado."},

	"nav.skip":               {"Skip to content", "Saltar al contenido"},
	"nav.label":              {"Site", "Sitio"},
	"nav.crumbs":             {"You are here", "Usted está aquí"},
	"nav.search":             {"Search", "Buscar"},
	"nav.search.label":       {"Search every record", "Buscar en todos los registros"},
	"nav.search.placeholder": {"Search notices, vendors, agencies", "Buscar avisos, proveedores, agencias"},
	"nav.home":               {"Home", "Inicio"},
	"nav.money":              {"Money", "Dinero"},
	"nav.contracts":          {"Contracts", "Contratos"},
	"nav.land":               {"Land", "Suelo"},
	"nav.property":           {"Property", "Propiedad"},
	"nav.rules":              {"Rules", "Normas"},
	"nav.meetings":           {"Meetings", "Reuniones"},
	"nav.people":             {"People", "Personas"},
	"nav.stats":              {"Stats", "Estadísticas"},
	"nav.about":              {"About", "Acerca de"},
	"nav.vendors":            {"Vendors", "Proveedores"},
	"nav.agencies":           {"Agencies", "Agencias"},
	"nav.organizations":      {"Organizations", "Organizaciones"},

	"foot.notofficial": {"Recordwatch republishes New York City public records. It is not the official record: the", "Recordwatch republica registros públicos de la ciudad de Nueva York. No es el registro oficial: el"},
	"foot.cityrecord":  {"City Record stays authoritative", "City Record sigue siendo la fuente oficial"},
	"foot.absence":     {"No search hits does not mean no record exists.", "Que una búsqueda no encuentre nada no significa que no exista el registro."},
	"foot.sources":     {"Sources and coverage", "Fuentes y cobertura"},
	"foot.api":         {"JSON API", "API JSON"},
	"foot.mcp":         {"Tools for AI assistants (MCP)", "Herramientas para asistentes de IA (MCP)"},
	"foot.status":      {"Status", "Estado"},

	"scope.title":    {"Scope: what this page covers and does not say", "Alcance: lo que cubre esta página y lo que no dice"},
	"scope.verbatim": {"Record text is shown as the source published it, in its own language.", "El texto de los registros se muestra tal como lo publicó la fuente, en su idioma original."},

	"pins.title":     {"Your pin list", "Su lista de marcadores"},
	"pins.limits":    {"Kept in this browser only. Sharing publishes it at a permanent address: at most 32 KB and 10 shares a day from one address.", "Se guarda solo en este navegador. Compartirla la publica en una dirección permanente: 32 KB como máximo y 10 veces al día desde una misma dirección."},
	"pins.share":     {"Share this list", "Compartir esta lista"},
	"pins.clear":     {"Clear the list", "Vaciar la lista"},
	"pins.pin":       {"Pin", "Marcar"},
	"twin.json":      {"JSON twin of this page", "Gemelo JSON de esta página"},
	"twin.permalink": {"Permalink", "Enlace permanente"},
	"date.none":      {"no date held", "sin fecha registrada"},

	"stats.title":       {"What this service holds", "Lo que contiene este servicio"},
	"stats.totals":      {"%d record sets, %d records, of which %d are City Record notices.", "%d conjuntos de registros, %d registros, de los cuales %d son avisos del City Record."},
	"stats.counts":      {"Counts are of records held here, not of everything the sources published.", "Los recuentos son de los registros que se guardan aquí, no de todo lo que publicaron las fuentes."},
	"stats.chart.title": {"Records held, by record set", "Registros guardados, por conjunto"},
	"stats.chart.desc":  {"One bar per record set, its length the number of records held; the table beside it gives the same numbers with their dates.", "Una barra por conjunto de registros, de longitud igual al número de registros guardados; la tabla de al lado da los mismos números con sus fechas."},
	"stats.set":         {"Record set", "Conjunto de registros"},
	"stats.records":     {"Records", "Registros"},
	"stats.first":       {"First source date", "Primera fecha de la fuente"},
	"stats.latest":      {"Latest source date", "Última fecha de la fuente"},
	"stats.observed":    {"observed", "observado"},
	"stats.sources":     {"Sources", "Fuentes"},
	"stats.nosources":   {"No source is held yet: nothing has been loaded.", "Todavía no hay ninguna fuente: no se ha cargado nada."},
	"stats.latest.rule": {"The latest source date of a set is the newest date among its records: it shows how recent the set is, not that every earlier date is covered.", "La última fecha de un conjunto es la más reciente entre sus registros: muestra lo reciente que es, no que cubra todas las fechas anteriores."},
	"stats.usage":       {"The service's own use per day, %s to %s.", "El uso del propio servicio por día, del %s al %s."},
	"stats.day":         {"Day", "Día"},
	"stats.subs":        {"Active subscriptions", "Suscripciones activas"},
	"stats.digests":     {"Digests sent", "Resúmenes enviados"},
	"stats.feeds":       {"Feed requests", "Solicitudes de canales"},
	"stats.shares":      {"Shares created", "Listas compartidas"},

	"about.title":             {"About Recordwatch", "Acerca de Recordwatch"},
	"about.what":              {"Recordwatch republishes and joins New York City's public records — City Record notices, registered contracts and payments, payroll, civil-service lists, land-use projects, public meetings and the city's organizations roster — and says with every answer what was searched, which sources and dates it covers, and what it cannot tell.", "Recordwatch republica y enlaza registros públicos de la ciudad de Nueva York —avisos del City Record, contratos registrados y pagos, nóminas, listas del servicio civil, proyectos de uso del suelo, reuniones públicas y el padrón de organizaciones de la ciudad— y dice en cada respuesta qué se buscó, qué fuentes y fechas cubre y qué no puede afirmar."},
	"about.official":          {"It is not the official record: every notice links to its official page, which stays authoritative.", "No es el registro oficial: cada aviso enlaza con su página oficial, que sigue siendo la fuente válida."},
	"about.where":             {"Where to look", "Dónde buscar"},
	"about.money":             {"procurement notices: solicitations, awards and their amounts.", "avisos de contratación: licitaciones, adjudicaciones y sus importes."},
	"about.contracts":         {"registered contracts analysed by agency, vendor, fiscal year and amount.", "contratos registrados analizados por agencia, proveedor, año fiscal e importe."},
	"about.land":              {"land-use projects and their decision path under the City Charter.", "proyectos de uso del suelo y su proceso de decisión según la Carta de la Ciudad."},
	"about.meetings":          {"Council, community-board and agency meetings by day.", "reuniones del Concejo, de las juntas comunitarias y de las agencias, por día."},
	"about.people":            {"changes in personnel and the leaders printed by the city's roster.", "cambios de personal y los responsables que publica el padrón de la ciudad."},
	"about.stats":             {"every record set held, with its dates.", "cada conjunto de registros guardado, con sus fechas."},
	"about.machines":          {"For programs and AI assistants", "Para programas y asistentes de IA"},
	"about.api":               {"Every page has a JSON twin; the API and the tools for AI assistants start here:", "Cada página tiene un gemelo JSON; la API y las herramientas para asistentes de IA empiezan aquí:"},
	"analysis.labels":         {"Every accepted agency label (%d)", "Todas las etiquetas de agencia aceptadas (%d)"},
	"land.nopredict":          {"It reports recorded facts and the procedure's rules; it does not predict outcomes.", "Informa de hechos registrados y de las reglas del procedimiento; no predice resultados."},
	"entity.see":              {"See also", "Véase también"},
	"entity.vendor.notices":   {"Award and intent notices naming this vendor", "Avisos de adjudicación e intención que nombran a este proveedor"},
	"entity.vendor.analysis":  {"Registered contracts by agency", "Contratos registrados por agencia"},
	"entity.vendor.contracts": {"Registered contracts of this vendor (JSON)", "Contratos registrados de este proveedor (JSON)"},
	"entity.vendor.mentions":  {"Every notice that mentions this vendor", "Todos los avisos que mencionan a este proveedor"},
	"entity.nospellings":      {"No spelling of this name is held in the sources.", "Las fuentes no contienen ninguna grafía de este nombre."},
	"entity.agency.notices":   {"This agency's notices", "Avisos de esta agencia"},
	"entity.agency.contracts": {"This agency's registered contracts", "Contratos registrados de esta agencia"},
	"entity.agency.roster":    {"Its entry in the city's organizations roster, with leaders and payroll positions", "Su entrada en el padrón de organizaciones de la ciudad, con responsables y puestos de nómina"},
	"entity.agency.noroster":  {"The reviewed crosswalk ties this agency to no roster entry, so no roster page is linked.", "El cruce revisado no vincula esta agencia con ninguna entrada del padrón, así que no se enlaza ninguna página del padrón."},
	"entity.nonotices":        {"No notice of this agency is held; that does not mean none was published.", "No se guarda ningún aviso de esta agencia; eso no significa que no se haya publicado ninguno."},
	"entity.noawards":         {"No award or intent notice with a vendor is held for this agency.", "No se guarda ningún aviso de adjudicación o intención con proveedor para esta agencia."},
}

// sentences are the services' fixed sentences the pages show (the absence
// rules of record.AbsenceRules, the land page's own), in Spanish.
var sentences = map[string]string{
	"No search hits does not mean no record exists.":        "Que una búsqueda no encuentre nada no significa que no exista el registro.",
	"A record may lack a detail page or a source document.": "Un registro puede no tener página de detalle ni documento de origen.",
	"Each state of a record is checked on its own.":         "Cada estado de un registro se comprueba por separado.",
	"A search covers only the retained set of records. Missing hits do not prove that the service or an upstream source has no such record.": "Una búsqueda solo cubre los registros conservados. Que falten resultados no prueba que el servicio o una fuente de origen no tengan ese registro.",
}

// Say is sentence in lang: its Spanish when the list holds it, else as
// written.
func Say(lang, sentence string) string {
	if lang == "es" {
		if es, ok := sentences[sentence]; ok {
			return es
		}
	}
	return sentence
}
