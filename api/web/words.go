package web

import (
	"fmt"
	"html/template"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/recordwatch/recordwatch/internal/record"
)

// Langs are the languages of the site's own words: English, the default,
// and Spanish (?lang=es, part of every permalink). Record text is never
// translated: it stays as published, and the pages say so.
var Langs = []string{"en", "es"}

// langFuncs are the template functions bound to one language.
func langFuncs(lang string) template.FuncMap {
	i := 0
	if lang == "es" {
		i = 1
	}
	return template.FuncMap{
		"lang": func() string { return lang },
		// monthName is a month's name in lang
		"monthName": func(m time.Month) string {
			if lang == "es" {
				return monthsES[m-1]
			}
			return m.String()
		},
		// label is a machine value's label (labels.go)
		"label": func(kind, value string) string { return Label(lang, kind, value) },
		// fy names a fiscal year (0: not registered), in lang
		"fy": func(n int) string {
			if n == 0 {
				return Word(lang, "fy.none")
			}
			return "FY" + strconv.Itoa(n)
		},
		// extentWords is the extent of a total's records (extent.go)
		"extentWords": func(es []record.Extent) string { return extentWords(lang, es) },
		// plain says the machine words a service note names in words
		"plain": func(note string) string { return Plain(lang, Say(lang, note)) },
		// say is a service's fixed sentence (an absence rule) in lang:
		// the Spanish of sentences (words.go), else as written
		"say": func(sentence string) string { return Say(lang, sentence) },
		// recordNote is plain, with the record text the note quotes
		// marked as such (words_es_meet.go)
		"recordNote": func(note string) any { return recordNote(lang, note) },
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

var monthsES = [12]string{"enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"}

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

	"error.notfound":      {"Page not found", "Página no encontrada"},
	"error.notfound.more": {"There is no page at this address. It may have been typed wrong, or this service does not offer it.", "No hay ninguna página en esta dirección. Puede que esté mal escrita o que este servicio no la ofrezca."},
	"error.invalid":       {"This address asks for something the site cannot read", "Esta dirección pide algo que el sitio no puede leer"},
	"error.busy":          {"Too many requests just now", "Demasiadas solicitudes en este momento"},
	"error.busy.more":     {"Please wait a moment and try again.", "Espere un momento y vuelva a intentarlo."},
	"error.failed":        {"Something went wrong on our side", "Algo falló de nuestro lado"},
	"error.failed.more":   {"The page could not be made. Please try again later.", "No se pudo preparar la página. Vuelva a intentarlo más tarde."},
	"error.refused":       {"This request was refused", "Esta solicitud fue rechazada"},
	"error.home":          {"Go to the home page", "Ir a la página de inicio"},
	"error.search":        {"Search every record", "Buscar en todos los registros"},

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
	"stats.digestruns":  {"Scheduled digest runs", "Envíos programados de resúmenes"},
	"stats.digestruns.missed": {"Watches with a missed scheduled run now (due more than %[2]s ago, nothing in their ledger): %[1]d. Due watches a run left without an entry in the last %[4]d days: %[3]d. Either is an operator error.",
		"Alertas con un envío programado no realizado ahora (debido hace más de %[2]s, nada en su registro): %[1]d. Alertas que un envío dejó sin entrada en los últimos %[4]d días: %[3]d. Ambos son un error del operador."},

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
	"chart.groups.title":      {"The groups ranked", "Los grupos ordenados"},
	"chart.groups.desc":       {"One bar per group, its length the ranked figure; a dashed bar marks a group with rows excluded from the value sums. The table beside it gives every number.", "Una barra por grupo, de longitud igual a la cifra ordenada; una barra discontinua marca un grupo con filas excluidas de las sumas. La tabla de al lado da todos los números."},
	"chart.excluded":          {"rows excluded from the value sum", "filas excluidas de la suma"},
	"chart.fy.title":          {"Registered value by fiscal year", "Valor registrado por año fiscal"},
	"chart.fy.desc":           {"One column per fiscal year of registration, its height the registered value of the rows with a valid amount; pending rows with no registration date have no fiscal year and are not drawn. The table below gives every number.", "Una columna por año fiscal de registro, de altura igual al valor registrado de las filas con importe válido; las filas pendientes sin fecha de registro no tienen año fiscal y no se dibujan. La tabla de abajo da todos los números."},
	"chart.fy.year":           {"Fiscal year", "Año fiscal"},
	"chart.fy.value":          {"Registered value", "Valor registrado"},
	"analysis.ranked":         {"Ranked by %s, grouped by %s", "Ordenado por %s, agrupado por %s"},
	"analysis.shown":          {"%d of %d groups shown.", "Se muestran %d de %d grupos."},
	"analysis.ungrouped":      {"%d rows in no group:", "%d filas sin grupo:"},
	"analysis.dates":          {"Registration dates %s to %s.", "Fechas de registro del %s al %s."},
	"analysis.population":     {"%d registered rows: %d with a valid amount, registered value %s; %d excluded from the value sums.", "%d filas registradas: %d con importe válido, valor registrado %s; %d excluidas de las sumas."},
	"cal.title":               {"Calendar", "Calendario"},
	"cal.desc":                {"Each month as a grid, Monday first; weekends are shaded and evening meetings (5 PM or later) marked. Each meeting shows its four facts: held, minutes, City Record notice. The list below holds the same meetings.", "Cada mes como una cuadrícula, empezando el lunes; los fines de semana van sombreados y las reuniones de tarde (desde las 5 PM) marcadas. Cada reunión muestra sus cuatro hechos: celebrada, actas, aviso del City Record. La lista de abajo contiene las mismas reuniones."},
	"cal.evening":             {"evening", "tarde"},
	"cal.weekend":             {"weekend", "fin de semana"},
	"cal.mon":                 {"Mon", "lun"},
	"cal.tue":                 {"Tue", "mar"},
	"cal.wed":                 {"Wed", "mié"},
	"cal.thu":                 {"Thu", "jue"},
	"cal.fri":                 {"Fri", "vie"},
	"cal.sat":                 {"Sat", "sáb"},
	"cal.sun":                 {"Sun", "dom"},
	"cal.notime":              {"time unknown", "hora desconocida"},
	"stages.title":            {"Decision path: observed records beside the procedure's stages", "Proceso de decisión: registros observados junto a las etapas del procedimiento"},
	"stages.desc":             {"Left track: how many held records evidence each stage (a small dot: none). Right track: the procedure's stages in order — filled when the records show the stage happened, half-tone in progress or current, a dashed ring not started, a dotted red ring not recorded or unknown — with the Charter's time limit. The two lists below give the same facts in words.", "Pista izquierda: cuántos registros guardados prueban cada etapa (un punto pequeño: ninguno). Pista derecha: las etapas del procedimiento en orden —rellena si los registros muestran que ocurrió, a medio tono en curso o actual, anillo discontinuo no iniciada, anillo punteado rojo sin registro o desconocida— con el plazo de la Carta. Las dos listas de abajo dan los mismos hechos en palabras."},
	"stages.observed":         {"Records", "Registros"},
	"stages.procedure":        {"Procedure stages (Charter)", "Etapas del procedimiento (Carta)"},
	"stages.clock":            {"%d-day limit", "plazo de %d días"},
	"chart.timeline.title":    {"Registrations over time", "Registros a lo largo del tiempo"},
	"chart.timeline.desc":     {"One column per registered row, in date order, its height the registered amount (a hairline: no valid amount). Rows not registered have no date and are only in the table below, which gives every number.", "Una columna por fila registrada, por orden de fecha, de altura igual al importe registrado (una línea fina: sin importe válido). Las filas no registradas no tienen fecha y solo están en la tabla de abajo, que da todos los números."},
	"entity.contracts":        {"Registered contracts", "Contratos registrados"},
	"entity.contracts.count":  {"%d registered contract rows held; the first %d:", "%d filas de contratos registrados guardadas; las primeras %d:"},
	"entity.nocontracts":      {"No registered contract row is held for it; that does not mean none was registered.", "No se guarda ninguna fila de contrato registrado; eso no significa que no se haya registrado ninguno."},
	"map.title":               {"Where the project is", "Dónde está el proyecto"},
	"map.desc":                {"New York City's boroughs and community districts; the project's community districts are shaded and each located lot is a dot (its centroid). The list beside it names every lot, located or not, with a link to a real map.", "Los distritos y distritos comunitarios de Nueva York; los distritos comunitarios del proyecto van sombreados y cada lote localizado es un punto (su centroide). La lista de al lado nombra cada lote, localizado o no, con un enlace a un mapa real."},
	"map.source":              {"Outlines: NYC Department of City Planning (simplified).", "Contornos: Departamento de Planificación Urbana de NYC (simplificados)."},
	"map.open":                {"open on a map", "abrir en un mapa"},
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
	// the page kinds' own words (templates/*.html)
	"w.a.name.identifies.nobody.the.same.name.p": {"A name identifies nobody: the same name printed for another organization is another row. No separate dossier exists for a person.", "Un nombre no identifica a nadie: el mismo nombre impreso para otra organización es otra fila. No existe un expediente aparte para una persona."},
	"w.a.plan.not.an.observation":                {" (a plan, not an observation)", " (un plan, no una observación)"},
	"w.action":                                   {"Action ", "Acción "},
	"w.actions":                                  {"Actions", "Acciones"},
	"w.agency":                                   {"Agency", "Agencia"},
	"w.agency.2":                                 {" · agency ", " · agencia "},
	"w.agency.dossier":                           {"agency dossier", "expediente de la agencia"},
	"w.amount":                                   {"Amount", "Importe"},
	"w.amounts.here.are.registered.value.never.": {"Amounts here are registered value, never payments or spending", "Los importes son valor registrado, nunca pagos ni gasto"},
	"w.any":                                {"any", "cualquiera"},
	"w.applicant":                          {" · applicant ", " · solicitante "},
	"w.as.printed":                         {"As printed", "Tal como se imprimió"},
	"w.atom.feed":                          {"Atom feed", "Canal Atom"},
	"w.attendance":                         {" · attendance: ", " · asistencia: "},
	"w.awards":                             {"Awards", "Adjudicaciones"},
	"w.awards.and.intents":                 {"Awards and intents", "Adjudicaciones e intenciones"},
	"w.borough":                            {"Borough ", "Distrito "},
	"w.bounds":                             {"Bounds: ", "Límites: "},
	"w.browse":                             {"Browse", "Ver"},
	"w.browse.them":                        {"Browse them", "Verlas"},
	"w.calendar.feed.icalendar":            {"Calendar feed (iCalendar)", "Canal de calendario (iCalendar)"},
	"w.canonical.id":                       {"Canonical id ", "Id canónico "},
	"w.centroid":                           {" · centroid ", " · centroide "},
	"w.city.record.notice":                 {"City Record notice", "Aviso del City Record"},
	"w.city.record.notice.2":               {"; City Record notice: ", "; aviso del City Record: "},
	"w.city.record.notices.linked":         {"City Record notices linked", "Avisos del City Record vinculados"},
	"w.meetings.joined":                    {"Meetings that name this project", "Reuniones que nombran este proyecto"},
	"w.no.meeting.held.names.this.project": {"No meeting held here names one of its application numbers or its id (a meeting may still have discussed it).", "Ninguna reunión guardada aquí nombra uno de sus números de solicitud ni su id (una reunión puede haberlo tratado igualmente)."},
	"w.land.projects.joined":               {"Land projects its agenda names", "Proyectos de uso del suelo que nombra su orden del día"},
	"w.civil.service.lists.naming.this.agency": {"Civil-service lists naming this agency", "Listas del servicio civil que nombran a esta agencia"},
	"w.community.district":                     {"Community district ", "Distrito comunitario "},
	"w.community.districts":                    {" · community districts ", " · distritos comunitarios "},
	"w.confidence":                             {" confidence: ", " de confianza: "},
	"w.confidence.2":                           {" confidence)", " de confianza)"},
	"w.confidence.3":                           {"Confidence", "Confianza"},
	"w.contract.id":                            {"Contract ID", "ID del contrato"},
	"w.coverage":                               {"Coverage", "Cobertura"},
	"w.date":                                   {"Date", "Fecha"},
	"w.date.unknown":                           {"Date unknown", "Fecha desconocida"},
	"w.days":                                   {" days", " días"},
	"w.decision.path":                          {"Decision path", "Proceso de decisión"},
	"w.decision.path.as.json":                  {"decision path as JSON", "proceso de decisión en JSON"},
	"w.documents":                              {"Documents", "Documentos"},
	"w.environmental.review":                   {"Environmental review: ", "Revisión ambiental: "},
	"w.every.row":                              {"every row", "todas las filas"},
	"w.evidence":                               {" · evidence ", " · pruebas "},
	"w.exam":                                   {"Exam", "Examen"},
	"w.excluded":                               {"Excluded", "Excluidas"},
	"w.excluded.2":                             {" excluded · ", " excluidos · "},
	"w.excluded.start.unknown":                 {"Excluded: start unknown (", "Excluidas: inicio desconocido ("},
	"w.field":                                  {"Field", "Campo"},
	"w.fields.read.from.the.calendar.text":     {"Fields read from the calendar text", "Campos leídos del texto del calendario"},
	"w.file":                                   {"(file ", "(archivo "},
	"w.filter":                                 {"Filter", "Filtrar"},
	"w.fiscal.year":                            {"Fiscal year", "Año fiscal"},
	"w.fiscal.year.2":                          {"Fiscal year ", "Año fiscal "},
	"w.follow":                                 {"Follow", "Seguir"},
	"w.four.facts.each.on.its.own":             {"Four facts, each on its own", "Cuatro hechos, cada uno por separado"},
	"w.group":                                  {"Group", "Grupo"},
	"w.group.by":                               {"Group by: ", "Agrupar por: "},
	"w.held":                                   {"Held", "Celebrada"},
	"w.held.2":                                 {"; held: ", "; celebrada: "},
	"w.how":                                    {"How", "Cómo"},
	"w.in.parallel.with.the.other.stages.of":   {" · in parallel with the other stages of ", " · en paralelo con las demás etapas de "},
	"w.json.feed":                              {"JSON feed", "Canal JSON"},
	"w.land.use.projects":                      {"Land-use projects", "Proyectos de uso del suelo"},
	"w.last.milestone":                         {"Last milestone", "Último hito"},
	"w.leaders.by.roster.release":              {"Leaders by roster release", "Responsables por edición del padrón"},
	"w.lens":                                   {"Lens", "Lente"},
	"w.linked.by":                              {"(linked by ", "(vinculado por "},
	"w.lots":                                   {"Lots", "Lotes"},
	"w.measure":                                {"Measure: ", "Medida: "},
	"w.meetings":                               {"Meetings ", "Reuniones "},
	"w.meetings.2":                             {" meetings", " reuniones"},
	"w.minutes":                                {"Minutes", "Actas"},
	"w.minutes.2":                              {"; minutes: ", "; actas: "},
	"w.name":                                   {"Name", "Nombre"},
	"w.name.applicant.or.address":              {"Name, applicant or address ", "Nombre, solicitante o dirección "},
	"w.next.page":                              {"Next page", "Página siguiente"},
	"w.no.actions.held":                        {"No actions held.", "No se guarda ninguna acción."},
	"w.no.ceqr.number.held":                    {"no CEQR number held", "sin número CEQR registrado"},
	"w.no.date":                                {"no date", "sin fecha"},
	"w.no.documents.are.held.for.this.meeting": {"No documents are held for this meeting.", "No se guarda ningún documento de esta reunión."},
	"w.no.geometry":  {"no geometry: ", "sin geometría: "},
	"w.no.lots.held": {"No lots held.", "No se guarda ningún lote."},
	"w.no.meetings.held.here.match.that.does.no": {"No meetings held here match; that does not mean none are scheduled.", "Ninguna reunión guardada aquí coincide; eso no significa que no haya ninguna programada."},
	"w.no.name.held":                             {"(no name held)", "(sin nombre registrado)"},
	"w.notice.links.undecided":                   {"Not decided: no City Record notices were held (or they could not be read) when this project was linked, so whether any notice names it is unknown here.", "Sin decidir: no había avisos del City Record guardados (o no se pudieron leer) cuando se vinculó este proyecto, así que aquí no se sabe si algún aviso lo nombra."},
	"w.no.notice.is.linked.none.held.names.its.": {"No notice is linked: none held names its application or CEQR numbers or its lots. That does not mean none was published.", "No hay avisos vinculados: ninguno de los guardados nombra sus números de solicitud o CEQR ni sus lotes. Eso no significa que no se haya publicado ninguno."},
	"w.no.payments.dataset.records.are.held.on.": {"No payments-dataset records are held on this deployment.", "Este servicio no guarda registros del conjunto de datos de pagos."},
	"w.no.registration.date.held":                {"no registration date held", "sin fecha de registro"},
	"w.no.source.link.held.for.this.row":         {"No source link held for this row.", "No se guarda ningún enlace a la fuente para esta fila."},
	"w.none.held":                                {"none held", "sin valor"},
	"w.none.stated":                              {"none stated", "no indicado"},
	"w.normative.the.procedure.s.stages":         {"Normative: the procedure's stages", "Normativo: las etapas del procedimiento"},
	"w.not.a.valid.amount.counted.but.never.sum": {": not a valid amount, counted but never summed", ": no es un importe válido; se cuenta pero nunca se suma"},
	"w.not.stated":                               {"not stated", "no indicado"},
	"w.not.stated.by.the.source":                 {"not stated by the source", "no lo indica la fuente"},
	"w.not.valid.not.summed":                     {"not valid (not summed)", "no válido (no se suma)"},
	"w.nothing.recorded.is.held":                 {"Nothing recorded is held.", "No se guarda nada registrado."},
	"w.notice":                                   {"Notice", "Aviso"},
	"w.notice.2":                                 {"notice ", "aviso "},
	"w.notices":                                  {"Notices", "Avisos"},
	"w.observed":                                 {" · observed ", " · observado "},
	"w.observed.2":                               {"Observed", "Observada"},
	"w.observed.3":                               {", observed ", ", observado "},
	"w.observed.what.the.sources.recorded":       {"Observed: what the sources recorded", "Observado: lo que registraron las fuentes"},
	"w.of":                                       {" of ", " de "},
	"w.of.the.people.lens.for":                   {" of the people lens for ", " de la lente de personas para "},
	"w.official.name.variants":                   {"Official name variants", "Variantes oficiales del nombre"},
	"w.official.zap.project.page":                {"Official ZAP project page", "Página oficial del proyecto en ZAP"},
	"w.organization.row":                         {"Organization row", "Fila de organización"},
	"w.payments.dataset":                         {"Payments dataset", "Conjunto de datos de pagos"},
	"w.payroll.rows":                             {"payroll rows", "filas de nómina"},
	"w.person.row":                               {"Person row", "Fila de persona"},
	"w.place.not.stated":                         {"Place not stated.", "Lugar no indicado."},
	"w.planned":                                  {"planned ", "previsto "},
	"w.planned.end":                              {"planned end ", "fin previsto "},
	"w.planned.for":                              {"planned for ", "previsto para el "},
	"w.planned.not.since":                        {"; not observed since", "; no observado desde entonces"},
	"w.population":                               {"Population", "Población"},
	"w.positions":                                {"Positions", "Puestos"},
	"w.positions.held.citywide.payroll":          {"Positions held (Citywide Payroll)", "Puestos (nómina municipal)"},
	"w.positions.payroll.rows.regular.gross.pai": {" positions (payroll rows) · regular gross paid ", " puestos (filas de nómina) · sueldo bruto regular pagado "},
	"w.principal.officer":                        {"principal officer", "responsable principal"},
	"w.unknown":                                  {"unknown", "desconocido"},
	"w.not.registered":                           {"not registered", "no registrado"},
	"w.printed.as":                               {"Printed as ", "Impreso como "},
	"w.procedure":                                {"Procedure ", "Procedimiento "},
	"w.procedure.2":                              {"Procedure", "Procedimiento"},
	"w.procedure.3":                              {"Procedure: ", "Procedimiento: "},
	"w.procurement.method":                       {"Procurement method", "Método de contratación"},
	"w.project":                                  {"Project", "Proyecto"},
	"w.projects.match.completed.and.past.projec": {" projects match (completed and past projects included)", " proyectos coinciden (incluidos los completados y los pasados)"},
	"w.published":                                {"Published", "Publicado"},
	"w.purpose":                                  {"Purpose", "Objeto"},
	"w.rank.by":                                  {"· Rank by: ", "· Ordenar por: "},
	"w.registered":                               {"Registered", "Registrado"},
	"banner.notfresh":                            {"Not fresh:", "Sin actualizar:"},
	"banner.details":                             {"Sources and their freshness", "Fuentes y su actualidad"},
	"follow.aria":                                {"Follow this record", "Seguir este registro"},
	"follow.label":                               {"Email me when it changes (old → new)", "Escríbame cuando cambie (antes → ahora)"},
	"follow.button":                              {"Follow", "Seguir"},
	"w.registered.vs.paid":                       {"Registered vs paid", "Registrado frente a pagado"},
	"w.registered.vs.paid.by.fiscal.year":        {"Registered vs paid by fiscal year:", "Registrado frente a pagado por año fiscal:"},
	"w.paid":                                     {"paid", "pagado"},
	"w.payments":                                 {"Payments", "Pagos"},
	"w.payment":                                  {"Payment", "Pago"},
	"w.payee":                                    {"Payee", "Beneficiario"},
	"w.issued":                                   {"Issued", "Emitido"},
	"w.link":                                     {"Link", "Vínculo"},
	"w.undated":                                  {"undated", "sin fecha"},
	"w.joined.by":                                {"Joined by", "Vinculado por"},
	"w.no.record.held":                           {"no record held", "ningún registro guardado"},
	"w.registered.amount":                        {"Registered amount", "Importe registrado"},
	"w.registered.value":                         {"Registered value", "Valor registrado"},
	"w.regular.gross.paid":                       {"Regular gross paid", "Sueldo bruto regular pagado"},
	"w.regular.gross.paid.over.every.payroll.ro": {"Regular gross paid over every payroll row held for this agency: ", "Sueldo bruto regular pagado en todas las filas de nómina guardadas de esta agencia: "},
	"w.relation":                         {"Relation", "Relación"},
	"w.relations":                        {"Relations", "Relaciones"},
	"w.release":                          {"Release", "Edición"},
	"w.review.procedure":                 {" · review procedure ", " · procedimiento de revisión "},
	"w.roster.release":                   {" · roster release ", " · edición del padrón "},
	"w.row":                              {"Row", "Fila"},
	"w.rows":                             {"Rows", "Filas"},
	"w.rows.held.under.this.contract.id": {"Rows held under this contract ID", "Filas guardadas con este ID de contrato"},
	"w.rows.of.titles.not.listed":        {" rows of titles not listed)", " filas de cargos no listados)"},
	"w.rows.with.no.title.printed":       {" rows with no title printed", " filas sin cargo impreso"},
	"w.share.of.rows":                    {"Share of rows", "Parte de las filas"},
	"w.share.of.value":                   {"Share of value", "Parte del valor"},
	"w.source":                           {"Source", "Fuente"},
	"w.source.2":                         {". Source: ", ". Fuente: "},
	"w.source.3":                         {" · source ", " · fuente "},
	"w.source.fields.as.read":            {"Source fields as read", "Campos de la fuente tal como se leyeron"},
	"w.source.links":                     {"Source links", "Enlaces a la fuente"},
	"w.source.page":                      {"source page", "página de la fuente"},
	"w.sources.and.conflicts":            {"Sources and conflicts", "Fuentes y discrepancias"},
	"w.spellings":                        {"Spellings", "Grafías"},
	"w.spellings.in.the.sources":         {"Spellings in the sources", "Grafías en las fuentes"},
	"w.stage":                            {"Stage ", "Etapa "},
	"w.stage.2":                          {"Stage", "Etapa"},
	"w.start.time.unknown":               {", start time unknown", ", hora de inicio desconocida"},
	"w.state":                            {"State", "Estado"},
	"w.status":                           {"Status ", "Estado "},
	"w.suggested.labels":                 {"Suggested labels: ", "Etiquetas sugeridas: "},
	"w.the.held.sources.do.not.disagree.on.the.": {"The held sources do not disagree on the compared fields.", "Las fuentes guardadas no discrepan en los campos comparados."},
	"w.the.source.marks.this.meeting.tentative":  {"The source marks this meeting tentative.", "La fuente marca esta reunión como provisional."},
	"w.this.is.what.the.release.printed.not.pro": {". This is what the release printed, not proof of who holds the role now.", ". Es lo que imprimió la edición, no prueba de quién ocupa el cargo hoy."},
	"w.time.unknown":            {"time unknown", "hora desconocida"},
	"w.times.are.new.york.time": {". Times are New York time.", ". Las horas son de Nueva York."},
	"w.title":                   {"Title", "Cargo"},
	"w.title.as.printed":        {"Title as printed", "Cargo tal como se imprimió"},
	"w.titles":                  {" titles", " cargos"},
	"w.to":                      {" to ", " a "},
	"w.unpublished.minutes.or.an.unlinked.notic": {"Unpublished minutes or an unlinked notice never mean the meeting did not exist.", "Unas actas sin publicar o un aviso sin vincular nunca significan que la reunión no existiera."},
	"w.valid.amounts":               {"Valid amounts", "Importes válidos"},
	"w.valid.amounts.2":             {" valid amounts, ", " importes válidos, "},
	"w.value":                       {"Value", "Valor"},
	"w.vendor":                      {"Vendor", "Proveedor"},
	"w.vendor.name.stem":            {"Vendor name stem ", "Raíz del nombre del proveedor "},
	"w.what.this.page.does.not.say": {"What this page does not say", "Lo que esta página no dice"},
	"w.when.and.where":              {"When and where", "Cuándo y dónde"},
	"w.where":                       {"Where", "Dónde"},
}

// sentences are the services' fixed sentences the pages show (the absence
// rules of record.AbsenceRules, the land page's own), in Spanish.
var sentences = map[string]string{
	"No search hits does not mean no record exists.":        "Que una búsqueda no encuentre nada no significa que no exista el registro.",
	"A record may lack a detail page or a source document.": "Un registro puede no tener página de detalle ni documento de origen.",
	"Each state of a record is checked on its own.":         "Cada estado de un registro se comprueba por separado.",
	// the watch service's answers shown on the watch link pages (internal/watch service.go)
	"The watch is active. Digests start now; a welcome email with manage and unsubscribe links is on its way.": "El seguimiento está activo. Los resúmenes empiezan ahora; un correo de bienvenida con enlaces para gestionarlo y darse de baja va de camino.",
	"A confirmation email stating how the request was understood will be sent to the address (an address gets at most one such email a day: requests made meanwhile are listed together in the next one). No watch is stored and no digest is sent until its link is followed.": "Un correo de confirmación que indica cómo se entendió la solicitud se enviará a la dirección (una dirección recibe como mucho un correo así al día: las solicitudes hechas entretanto se enumeran juntas en el siguiente). No se guarda ningún seguimiento ni se envía ningún resumen hasta que se siga su enlace.",
	"A confirmation email stating what will be followed will be sent to the address (an address gets at most one such email a day: requests made meanwhile are listed together in the next one). No watch is stored and nothing is sent until its link is followed.":            "Un correo de confirmación que indica lo que se seguirá se enviará a la dirección (una dirección recibe como mucho un correo así al día: las solicitudes hechas entretanto se enumeran juntas en el siguiente). No se guarda ningún seguimiento ni se envía nada hasta que se siga su enlace.",
	"The watch is active. A welcome email stating its scope, with manage and unsubscribe links, will be sent to the address (an address gets at most one such email a day: watches made meanwhile are listed together in the next one).":                                        "El seguimiento está activo. Un correo de bienvenida que indica su alcance, con enlaces para gestionarlo y darse de baja, se enviará a la dirección (una dirección recibe como mucho un correo así al día: los seguimientos creados entretanto se enumeran juntos en el siguiente).",
	"The watch is active. It mails when a followed field changes (old → new); nothing is sent for what the record holds now. A welcome email with manage and unsubscribe links will be sent (an address gets at most one such email a day).":                                    "El seguimiento está activo. Escribe cuando cambia un campo seguido (antes → ahora); no se envía nada por lo que el registro contiene ahora. Un correo de bienvenida con enlaces para gestionarlo y darse de baja se enviará (una dirección recibe como mucho un correo así al día).",
	// the procurement matter's notes and absences (internal/procure matter.go)
	"One procurement: the notices, registrations and payments that share this PIN or its base.": "Una sola contratación: los avisos, registros y pagos que comparten este PIN o su base.",
	"This PIN is carried by %d award notices and no solicitation or intent to award: it is a blanket PIN shared by many awards (a pre-qualified list, a renewal chain or an umbrella contract), shown as a chain of awards, not as one procurement.": "Este PIN lo llevan %d avisos de adjudicación y ninguna licitación ni intención de adjudicar: es un PIN general compartido por muchas adjudicaciones (una lista precalificada, una cadena de renovaciones o un contrato marco), mostrado como una cadena de adjudicaciones, no como una sola contratación.",
	"The timeline holds the records held here that carry the PIN or its base; a step that is missing (no solicitation, no registration, no payment) may exist at the source.":                                                                        "La cronología contiene los registros guardados aquí que llevan el PIN o su base; un paso que falte (sin licitación, sin registro, sin pago) puede existir en la fuente.",
	"No registration held here carries this PIN; Checkbook NYC and PASSPort may still have one.":                                                                                                                                                     "Ningún registro de contrato guardado aquí lleva este PIN; Checkbook NYC y PASSPort pueden tener uno.",
	"No payments held: no payment held here names a contract registered under this PIN, or states the PIN itself.":                                                                                                                                   "No hay pagos guardados: ningún pago guardado aquí nombra un contrato registrado con este PIN ni indica el propio PIN.",
	"%d records share only the 10-character base PIN %s: they are shown with link method prefix (confidence low) and summed apart, not added to this procurement's totals.":                                                                          "%d registros comparten solo el PIN base de 10 caracteres %s: se muestran con el método de vínculo por prefijo (confianza baja) y se suman aparte, sin añadirse a los totales de esta contratación.",
	"Awarded sums valid award and intent amounts; registered sums registered contract amounts (value, not spending); paid sums payments held here. Only records of the same procurement are added: the same PIN or a renewal of it, and payments naming those contracts. Records that share only the 10-character base PIN (link method prefix, confidence low) may be other vendors' contracts: they are summed apart, never added. Placeholder and erroneous amounts are excluded; a sum with nothing held reads as absent, not $0.": "Adjudicado suma los importes válidos de adjudicaciones e intenciones; registrado suma los importes de los contratos registrados (valor, no gasto); pagado suma los pagos guardados aquí. Solo se suman los registros de la misma contratación: el mismo PIN o una renovación suya, y los pagos que nombran esos contratos. Los registros que comparten solo el PIN base de 10 caracteres (método de vínculo por prefijo, confianza baja) pueden ser contratos de otros proveedores: se suman aparte, nunca se añaden. Los importes de relleno y erróneos se excluyen; una suma sin nada guardado se lee como ausente, no como 0 $.",
	// the agency page's positions when no payroll row names it (internal/people payroll.go)
	"No Citywide Payroll row held here names this agency: no payroll held (not proof that the agency has no positions). Positions held by title as the Citywide Payroll dataset prints them: each payroll row is one position in one agency, title and fiscal year. A row is not a person row and no person is inferred from it; names are printed only in the payroll rows themselves, as the dataset prints them.": "Ninguna fila de la nómina municipal guardada aquí nombra esta agencia: no hay nóminas guardadas (no prueba que la agencia no tenga puestos). Puestos por título tal como los imprime la nómina municipal: cada fila es un puesto en una agencia, un título y un año fiscal. Una fila no es una persona y no se deduce ninguna persona de ella; los nombres solo aparecen en las propias filas de la nómina, tal como las imprime el conjunto de datos.",
	// the contract analysis's measure (procure.ContractMeasure)
	"registered value and count of registered contract rows; not payments or spending": "valor registrado y número de filas de contratos registrados; no pagos ni gasto",
	// the vendor and agency pages' absences (internal/dossier dossier.go)
	"A vendor is matched by name stem: legal suffixes and case do not matter, but a different spelling of the name does. Notices that mention the vendor without naming it as the awardee are not counted here; a full-text search finds them.": "Un proveedor se identifica por la raíz de su nombre: no importan los sufijos legales ni la capitalización, pero una grafía distinta del nombre sí. Los avisos que mencionan al proveedor sin nombrarlo como adjudicatario no se cuentan aquí; una búsqueda en el texto completo los encuentra.",
	"No award or intent notice held here names this vendor; the official City Record may still have some.":                                                                                                                                      "Ningún aviso de adjudicación o intención guardado aquí nombra a este proveedor; puede que el City Record oficial tenga alguno.",
	"No payments-dataset record held here names this vendor; Checkbook NYC may still have some.":                                                                                                                                                "Ningún registro del conjunto de pagos guardado aquí nombra a este proveedor; puede que Checkbook NYC tenga alguno.",
	"Some notices carry placeholder or erroneous amounts; they are listed but excluded from the totals.":                                                                                                                                        "Algunos avisos llevan importes de relleno o erróneos; se listan pero se excluyen de los totales.",
	"Counts cover the City Record notices and payments-dataset records held here (see scope); no count proves that the agency has no other records.":                                                                                            "Los recuentos cubren los avisos del City Record y los registros del conjunto de pagos guardados aquí (véase el alcance); ningún recuento prueba que la agencia no tenga otros registros.",
	"No City Record notice held here names this agency; the official City Record may still have some.":                                                                                                                                          "Ningún aviso del City Record guardado aquí nombra esta agencia; puede que el City Record oficial tenga alguno.",
	"No payments-dataset record held here names this agency; Checkbook NYC may still have some.":                                                                                                                                                "Ningún registro del conjunto de pagos guardado aquí nombra esta agencia; puede que Checkbook NYC tenga alguno.",
	"No source spelling of this agency is held yet; the id comes from the reviewed mapping.":                                                                                                                                                    "Todavía no se guarda ninguna grafía de esta agencia en las fuentes; el identificador viene de la correspondencia revisada.",
	// a contract's source links (indexer/source/contracts)
	"City Record notice joined by the source": "Aviso del City Record vinculado por la fuente",
	// a hearing's notice document (indexer/source/meetings hearings.go)
	"City Record notice %s": "Aviso del City Record %s",
	// absent sums (internal/procure procure.go)
	"no contracts held": "no hay contratos guardados",
	"no payments held":  "no hay pagos guardados",
	"no payroll held":   "no hay nóminas guardadas",
	"no awards held":    "no hay adjudicaciones guardadas",
	"A search covers only the retained set of records. Missing hits do not prove that the service or an upstream source has no such record.": "Una búsqueda solo cubre los registros conservados. Que falten resultados no prueba que el servicio o una fuente de origen no tengan ese registro.",
}

// pageSentences are the services' sentences only the server-rendered
// pages show (the land procedure's, the meetings' evidence, the people
// lens's notes…), in Spanish; they are not shipped to the scripts, which
// carry only sentences (words-es.js stays small). Each area adds its own
// (addSentences in words_es_*.go).
var pageSentences = map[string]string{}

// addSentences adds Spanish sentences: to the scripts' list too when
// scripts, else to the pages' only. A sentence defined twice is a panic at
// start.
func addSentences(scripts bool, m map[string]string) {
	for en, es := range m {
		if _, dup := sentences[en]; dup {
			panic("web: sentence defined twice: " + en)
		}
		if _, dup := pageSentences[en]; dup {
			panic("web: sentence defined twice: " + en)
		}
		if scripts {
			sentences[en] = es
		} else {
			pageSentences[en] = es
		}
	}
}

// Say is sentence in lang: its Spanish when the list holds it, else as
// written.
//
// A sentence of the list with %d or %s in it is a pattern: a service
// sentence with a number or a name in its place reads in Spanish with the
// same number or name (static/app.js say does the same for the scripts).
//
// A service's note is often several sentences, or clauses joined by "; "
// (a stage's evidence and its condition): when the whole is not in the
// list, each sentence and then each clause is said on its own, so that a
// composed note reads in Spanish when each of its parts is listed. A part
// no list holds stays as written (the plain-words test finds it).
//
// A pattern's argument that is itself a listed sentence (a reason inside
// a note) is said too; a name or a number no list holds stays as written.
func Say(lang, sentence string) string { return say(lang, sentence, nil) }

// say is Say; mark, when not nil, is applied to each argument of a
// pattern that no list says (a name, a date, a quoted text: a record's
// value), so that a page can mark it as record text
// (words_es_meet.go recordNote).
func say(lang, sentence string, mark func(string) string) string {
	if lang != "es" || sentence == "" {
		return sentence
	}
	if es, ok := sayWhole(sentence, mark); ok {
		return es
	}
	if parts := splitSentences(sentence); len(parts) > 1 {
		for i, p := range parts {
			parts[i] = say(lang, p, mark)
		}
		return strings.Join(parts, " ")
	}
	if parts := strings.Split(sentence, "; "); len(parts) > 1 {
		for i, p := range parts {
			if es, ok := sayWhole(p, mark); ok {
				parts[i] = es
			}
		}
		return strings.Join(parts, "; ")
	}
	return sentence
}

// sayWhole is the Spanish of one sentence of the lists, or of one that
// matches a pattern.
func sayWhole(sentence string, mark func(string) string) (string, bool) {
	if es, ok := sentences[sentence]; ok {
		return es, true
	}
	if es, ok := pageSentences[sentence]; ok {
		return es, true
	}
	p, m, ok := matchPattern(sentence)
	if !ok {
		return "", false
	}
	args := make([]any, len(m))
	for i := range args {
		a := m[i]
		if a != sentence { // a pattern of placeholders only would say itself forever
			a = say("es", a, mark)
		}
		if a == m[i] && mark != nil {
			a = mark(a)
		}
		args[i] = a
	}
	return fmt.Sprintf(strings.ReplaceAll(p.es, "%d", "%s"), args...), true
}

// matchPattern is the pattern (patterns) sentence matches, with its
// arguments in order.
func matchPattern(sentence string) (sentencePattern, []string, bool) {
	for _, p := range patterns() {
		if m := p.re.FindStringSubmatch(sentence); m != nil {
			return p, m[1:], true
		}
	}
	return sentencePattern{}, nil, false
}

// sentenceEnd is where one sentence of a note ends and another begins: a
// full stop and a space before a capital letter or a digit.
var sentenceEnd = regexp.MustCompile(`[.!?] +[A-Z0-9(“"]`)

// splitSentences cuts a note into its sentences (each keeps its full
// stop); a note of one sentence is one part.
func splitSentences(s string) []string {
	var out []string
	for {
		loc := sentenceEnd.FindStringIndex(s)
		if loc == nil {
			break
		}
		out = append(out, strings.TrimSpace(s[:loc[0]+1]))
		_, size := utf8.DecodeLastRuneInString(s[:loc[1]]) // the next sentence's first letter (“ is 3 bytes)
		s = s[loc[1]-size:]
	}
	return append(out, s)
}

type sentencePattern struct {
	re      *regexp.Regexp
	es      string
	scripts bool // from sentences, the list shipped to the scripts
}

var (
	patternsOnce sync.Once
	patternList  []sentencePattern
)

// patterns are the sentences with %d or %s, as expressions, built once
// (after every area's addSentences has run), the longest first so that
// the most specific pattern wins.
func patterns() []sentencePattern {
	patternsOnce.Do(func() {
		var ens []string
		all := map[string]string{}
		for _, m := range []map[string]string{sentences, pageSentences} {
			for en, es := range m {
				if strings.Contains(en, "%d") || strings.Contains(en, "%s") {
					ens = append(ens, en)
					all[en] = es
				}
			}
		}
		sort.Slice(ens, func(i, j int) bool {
			if len(ens[i]) != len(ens[j]) {
				return len(ens[i]) > len(ens[j])
			}
			return ens[i] < ens[j]
		})
		for _, en := range ens {
			expr := regexp.QuoteMeta(en)
			expr = strings.ReplaceAll(expr, "%d", `(\d[\d,]*)`)
			expr = strings.ReplaceAll(expr, "%s", `(.+?)`)
			_, scripts := sentences[en]
			patternList = append(patternList, sentencePattern{regexp.MustCompile("^" + expr + "$"), all[en], scripts})
		}
	})
	return patternList
}

// Sentences lists the English sentences the list says in Spanish (for
// tests: one left in English on a Spanish page is a miss).
func Sentences() []string {
	out := make([]string, 0, len(sentences)+len(pageSentences))
	for _, m := range []map[string]string{sentences, pageSentences} {
		for en := range m {
			out = append(out, en)
		}
	}
	return out
}

// WordKeys lists the keys of the site's words (for tests).
func WordKeys() []string {
	out := make([]string, 0, len(words))
	for k := range words {
		out = append(out, k)
	}
	return out
}
