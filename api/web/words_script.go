package web

import (
	"bytes"
	"encoding/json"
	"strings"
)

// The words of the script-rendered views (static/app.js, static/pins.js):
// part of the one word table (words), under "js.", served to the scripts
// with the label tables and the Spanish of the services' fixed sentences
// as /static/words-<lang>.js (Script). The scripts call t("js.…") and
// label(kind, value); a missing key shows as [[key]], which the word-list
// test (words_test.go) and the browser suite's plain-words walk catch.
// %s and %d are filled in order, as in the templates' t.
var scriptWords = map[string]word{
	// the matter timeline (timeline.go, drawn on the server for the matter view)
	"tl.title":   {"Procurement matter %s over time", "El expediente de contratación %s a lo largo del tiempo"},
	"tl.desc":    {"Three tracks, never merged: City Record notices, contract registrations and payments. Each step is a mark at its date, its height the step's valid amount (a hairline: no valid amount, as for a solicitation). The list below gives every step with its amount and how it was linked.", "Tres pistas que nunca se mezclan: avisos del City Record, registros de contratos y pagos. Cada paso es una marca en su fecha, de altura igual a su importe válido (una línea fina: sin importe válido, como en una licitación). La lista de abajo da cada paso con su importe y cómo se vinculó."},
	"tl.undated": {"%d steps have no date and are only in the list.", "%d pasos no tienen fecha y solo están en la lista."},
	"tl.none":    {"none held", "ninguno guardado"},
	// page titles and headings the handlers name (api/*_html.go, meetings.go, sources.go)
	"page.contract":    {"Contract %s", "Contrato %s"},
	"page.analysis":    {"Registered contracts analysis", "Análisis de contratos registrados"},
	"page.analysis.by": {"Registered contracts by %s", "Contratos registrados por %s"},
	"page.land":        {"Land project %s", "Proyecto de uso del suelo %s"},
	"page.meeting":     {"Meeting", "Reunión"},
	"page.meetings":    {"Upcoming meetings", "Próximas reuniones"},
	// the sources page (templates/sources.html)
	"src.late":       {"Late:", "Con retraso:"},
	"src.late.note":  {"no run within two intervals.", "ninguna ejecución en dos intervalos."},
	"src.notfresh":   {"Answers from these sources may be out of date.", "Las respuestas de estas fuentes pueden estar desactualizadas."},
	"src.held":       {"Sources held", "Fuentes guardadas"},
	"src.source":     {"Source", "Fuente"},
	"src.type":       {"Record type", "Tipo de registro"},
	"src.state":      {"State", "Estado"},
	"src.observed":   {"Observed", "Observada"},
	"src.newest":     {"Newest source date", "Fecha más reciente de la fuente"},
	"src.maxage":     {"Maximum age", "Antigüedad máxima"},
	"src.records":    {"Records", "Registros"},
	"src.note":       {"Note", "Nota"},
	"src.since":      {"since", "desde"},
	"src.every":      {"fetched every %s", "descargada cada %s"},
	"src.lasterror":  {"Last error:", "Último error:"},
	"src.unread":     {"Could not be read:", "No se pudo leer:"},
	"src.jobs":       {"Scheduled live fetches", "Descargas programadas en vivo"},
	"src.nojobs":     {"No job is scheduled in this deployment.", "Este servicio no tiene ninguna tarea programada."},
	"src.job":        {"source %s, every %s, maximum age %s", "fuente %s, cada %s, antigüedad máxima %s"},
	"src.lateword":   {"Late.", "Con retraso."},
	"src.ontime":     {"On time", "A tiempo"},
	"src.nextdue":    {"; next run due %s UTC", "; próxima ejecución prevista %s UTC"},
	"src.started":    {"Started (UTC)", "Inicio (UTC)"},
	"src.finished":   {"Finished", "Fin"},
	"src.window":     {"Window asked", "Ventana pedida"},
	"src.read":       {"Read", "Leídas"},
	"src.written":    {"Written", "Escritas"},
	"src.rejected":   {"Rejected", "Rechazadas"},
	"src.outcome":    {"Outcome", "Resultado"},
	"src.rules":      {"Rules", "Reglas"},
	"ledger.title":   {"Delivery ledger", "Registro de envíos"},
	"ledger.note":    {"Every run of this watch, newest first, kept 90 days (the text of each mail 7 days): the window, what matched, what was new or changed, what was sent and how it went.", "Cada ejecución de este seguimiento, de la más reciente a la más antigua, guardada 90 días (el texto de cada correo, 7 días): la ventana, lo que coincidió, lo nuevo o cambiado, lo enviado y cómo fue."},
	"ledger.window":  {"Window", "Ventana"},
	"ledger.run":     {"Run", "Ejecución"},
	"ledger.matched": {"Matched", "Coincidencias"},
	"ledger.new":     {"New or changed", "Nuevo o cambiado"},
	"ledger.sent":    {"Sent", "Enviado"},
	"ledger.outcome": {"Outcome", "Resultado"},
	"ledger.none":    {"No run yet: the first is at the watch's next window.", "Todavía no hay ejecuciones: la primera será en la próxima ventana del seguimiento."},
	"ledger.switch":  {"Switch to %s digests", "Cambiar a resúmenes con frecuencia: %s"},
	// the property dispositions page (templates/property.html)
	"prop.title":        {"Property dispositions on the map", "Disposiciones de propiedades en el mapa"},
	"prop.search":       {"Search the Property Disposition notices", "Buscar en los avisos de disposición de propiedades"},
	"prop.geojson":      {"GeoJSON of the same places", "GeoJSON de los mismos lugares"},
	"prop.lead":         {"%d Property Disposition notices read (the newest, at most 300): %d placed on the map, %d with no location.", "%d avisos de disposición de propiedades leídos (los más recientes, 300 como máximo): %d situados en el mapa, %d sin ubicación."},
	"prop.map.title":    {"Where the property dispositions are", "Dónde están las disposiciones de propiedades"},
	"prop.map.desc":     {"New York City's boroughs and community districts. An outline holding notices is shaded, with the number of notices placed in it written on it; a located lot is a dot. Each property is placed as finely as the evidence allows: at its lot when a bundled lot file locates it, else at its community district, else at its borough (the BBL's first digit, or the one borough the notice names). The table beside the map gives the same numbers.", "Los distritos y distritos comunitarios de Nueva York. Un contorno con avisos va sombreado, con el número de avisos situados en él escrito encima; un lote localizado es un punto. Cada propiedad se sitúa con la precisión que permiten las pruebas: en su lote si un archivo de lotes incluido lo localiza, si no en su distrito comunitario, si no en su distrito (la primera cifra del BBL o el único distrito que nombra el aviso). La tabla de al lado da los mismos números."},
	"prop.areas":        {"Where they are placed", "Dónde se sitúan"},
	"prop.area":         {"Area", "Zona"},
	"prop.placedat":     {"Placed at", "Situados en"},
	"prop.notices":      {"Notices", "Avisos"},
	"prop.bbls":         {"Lots (BBLs)", "Lotes (BBL)"},
	"prop.noareas":      {"No notice is placed in a borough or district.", "Ningún aviso se sitúa en un distrito ni en un distrito comunitario."},
	"prop.lots":         {"Located lots", "Lotes localizados"},
	"prop.bbl":          {"BBL", "BBL"},
	"prop.nolots":       {"No lot is located: no bundled lot file holds the BBLs these notices name, so each is placed at its district or borough instead.", "Ningún lote está localizado: ningún archivo de lotes incluido contiene los BBL que nombran estos avisos, así que cada uno se sitúa en su distrito comunitario o en su distrito."},
	"prop.none":         {"With no location: %d notices", "Sin ubicación: %d avisos"},
	"prop.none.count":   {"%d notices", "%d avisos"},
	"prop.none.more":    {"The first %d of %d are listed; the JSON twin lists every one.", "Se listan los %d primeros de %d; el gemelo JSON los lista todos."},
	"prop.none.nothing": {"Every notice read is placed on the map.", "Todos los avisos leídos están situados en el mapa."},
	"prop.why.nobbl":    {"The notice states no BBL and names no single borough.", "El aviso no indica ningún BBL ni nombra un único distrito."},
	"prop.why.badbbl":   {"The BBL the notice states names no borough (its first digit is not 1 to 5).", "El BBL que indica el aviso no corresponde a ningún distrito (su primera cifra no está entre 1 y 5)."},
	"prop.rule":         {"Addresses, tax lots and BBLs are read from the notice text; addresses of hearing venues and offices are never taken for the property. No location does not mean the property does not exist.", "Las direcciones, los lotes fiscales y los BBL se leen del texto del aviso; las direcciones de lugares de audiencia y de oficinas nunca se toman por la propiedad. Que no haya ubicación no significa que la propiedad no exista."},
	"js.property.map":   {"The property dispositions on the map", "Las disposiciones de propiedades en el mapa"},

	"js.lens.search":   {"All records", "Todos los registros"},
	"js.lens.money":    {"Money: procurement", "Dinero: contratación"},
	"js.lens.land":     {"Land use", "Uso del suelo"},
	"js.lens.property": {"Property disposition", "Disposición de propiedades"},
	"js.lens.rules":    {"Agency rules", "Normas de las agencias"},
	"js.lens.meetings": {"Hearings and meetings", "Audiencias y reuniones"},
	"js.lens.people":   {"Changes in personnel", "Cambios de personal"},

	"js.loading":        {"Loading…", "Cargando…"},
	"js.twin.machine":   {"Machine-readable twin: ", "Gemelo legible por máquina: "},
	"js.search.all":     {"Search all records", "Buscar en todos los registros"},
	"js.twin.json":      {"JSON", "JSON"},
	"js.twin.atom":      {"Atom feed", "Canal Atom"},
	"js.twin.jsonfeed":  {"JSON Feed", "Canal JSON"},
	"js.twin.ical":      {"Calendar (iCal)", "Calendario (iCal)"},
	"js.twin.official":  {"Official notice", "Aviso oficial"},
	"js.twin.opendata":  {"Open Data row", "Fila de Open Data"},
	"js.twin.changes":   {"Changes since pinned (JSON)", "Cambios desde que se marcó (JSON)"},
	"js.twin.mentions":  {"Full-text mentions (JSON)", "Menciones en el texto completo (JSON)"},
	"js.twin.crosswalk": {"Agency crosswalk", "Cruce de agencias"},
	"js.flags":          {"Flags", "Indicadores"},

	"js.amount.invalid": {"Not a valid amount (source says “%s”); excluded from amount filters and totals", "No es un importe válido (la fuente dice «%s»); excluido de los filtros de importe y de los totales"},
	// a notice's one-line summary (app.js noticeSummary), from the twin's fields
	"js.sum.by":           {"by %s", "de %s"},
	"js.sum.to":           {" to %s", " a %s"},
	"js.sum.vendor":       {"vendor %s", "proveedor %s"},
	"js.sum.published":    {"published %s", "publicado el %s"},
	"js.sum.due":          {"due %s", "vence el %s"},
	"js.sum.event":        {"event %s", "evento el %s"},
	"js.deadline.rolling": {"No fixed deadline (rolling)", "Sin plazo fijo (continuo)"},
	"js.deadline.passed":  {" (passed)", " (vencido)"},

	"js.scope.aria":        {"What this search covers", "Lo que cubre esta búsqueda"},
	"js.scope.title":       {"What was searched", "Qué se buscó"},
	"js.scope.words":       {"words %s", "palabras %s"},
	"js.scope.phrases":     {"phrases %s", "frases %s"},
	"js.scope.excluding":   {"excluding %s", "excluyendo %s"},
	"js.scope.searched":    {"Searched", "Buscado"},
	"js.scope.everything":  {"everything", "todo"},
	"js.scope.in":          {"%s in %s", "%s en %s"},
	"js.scope.filters":     {"Filters", "Filtros"},
	"js.scope.matchedby":   {"Matched by", "Coincidencia por"},
	"js.scope.hybrid":      {"words and meaning: ", "palabras y significado: "},
	"js.scope.meaning":     {"meaning: ", "significado: "},
	"js.scope.model":       {" (model %s, %s notice vectors)", " (modelo %s, %s vectores de avisos)"},
	"js.scope.sources":     {"Sources", "Fuentes"},
	"js.scope.nosources":   {"none held", "ninguna guardada"},
	"js.scope.observed":    {"observed %s", "observado el %s"},
	"js.scope.sourcedates": {"source dates %s to %s", "fechas de la fuente del %s al %s"},
	"js.scope.records":     {"%s records", "%s registros"},
	"js.scope.corpus":      {"Corpus observed", "Corpus observado"},
	"js.scope.notobserved": {"not yet observed (a load has not completed)", "aún no observado (no ha terminado ninguna carga)"},
	"js.scope.dates":       {"Dates held", "Fechas guardadas"},
	"js.scope.daterange":   {"%s to %s (not every date between is covered)", "del %s al %s (no se cubren todas las fechas intermedias)"},
	"js.scope.held":        {"Held", "Guardado"},
	"js.scope.heldcount":   {"%s records, %s passages", "%s registros, %s pasajes"},
	"js.scope.matched":     {"Matched", "Coincidencias"},
	"js.scope.lowerbound":  {" (counted exactly up to %s; the API gives the exact figure when asked: ", " (contado con exactitud hasta %s; la API da la cifra exacta si se le pide: "},
	"js.absence.title":     {"No hits here does not mean no record exists.", "Que aquí no haya resultados no significa que no exista el registro."},
	"js.sort.best":         {"Best match / newest", "Mejor coincidencia / más reciente"},
	"js.sort.newest":       {"Newest first", "Más recientes primero"},
	"js.sort.oldest":       {"Oldest first", "Más antiguos primero"},
	"js.sort.due":          {"Due soonest", "Vencimiento más próximo"},
	"js.sort.event":        {"Event soonest", "Evento más próximo"},
	"js.sort.amount":       {"Largest amount", "Mayor importe"},
	"js.mode.keyword":      {"The words as typed", "Las palabras tal como se escriben"},
	"js.mode.semantic":     {"By meaning", "Por significado"},
	"js.mode.hybrid":       {"Both", "Ambos"},
	"js.form.aria":         {"Search %s", "Buscar en %s"},
	"js.form.keywords":     {"Keywords", "Palabras clave"},
	"js.form.placeholder":  {"e.g. construction \"pest management\" -queens", "p. ej. construction \"pest management\" -queens"},
	"js.form.more":         {"More filters", "Más filtros"},
	"js.form.agency":       {"Agency (as printed)", "Agencia (tal como se imprimió)"},
	"js.form.vendor":       {"Vendor", "Proveedor"},
	"js.form.min":          {"Minimum amount ($)", "Importe mínimo ($)"},
	"js.form.min.example":  {"e.g. 500000 or 1.5m", "p. ej. 500000 o 1.5m"},
	"js.form.from":         {"Published from", "Publicado desde"},
	"js.form.to":           {"Published to", "Publicado hasta"},
	"js.form.order":        {"Order", "Orden"},
	"js.form.match":        {"Match", "Coincidencia"},
	"js.form.open":         {"Open solicitations only", "Solo licitaciones abiertas"},
	"js.form.submit":       {"Search", "Buscar"},
	"js.facets.aria":       {"Refine", "Afinar"},
	"js.facets.summary":    {"Refine: lens, agency, notice type, year", "Afinar: lente, agencia, tipo de aviso, año"},
	"js.facets.lens":       {"Lens", "Lente"},
	"js.facets.agency":     {"Agency", "Agencia"},
	"js.facets.type":       {"Notice type", "Tipo de aviso"},
	"js.facets.year":       {"Year", "Año"},
	"js.pin":               {"Pin", "Marcar"},
	"js.pin.pinned":        {"Pinned", "Marcado"},
	"js.pin.remove":        {"Remove", "Quitar"},
	"js.pin.full":          {"The list already holds 50 records, the most a shared list may hold.", "La lista ya tiene 50 registros, el máximo de una lista compartida."},
	"js.pin.big":           {"The list is over the 32 KB a shared list may take: remove records or notes.", "La lista supera los 32 KB que admite una lista compartida: quite registros o notas."},
	"js.pin.title":         {"Recordwatch pin list", "Marcadores de Recordwatch"},
	"js.pin.shared":        {"Shared list: ", "Lista compartida: "},
	"js.pin.failed":        {"Could not share: ", "No se pudo compartir: "},
	"js.pin.count":         {"%s of 50 records", "%s de 50 registros"},
	"js.hit.pin":           {" · PIN ", " · PIN "},
	"js.results":           {"Results", "Resultados"},
	"js.results.one":       {"%s notice", "%s aviso"},
	"js.results.many":      {"%s notices", "%s avisos"},
	"js.next":              {"Next page →", "Página siguiente →"},
	"js.watch.title":       {"Watch this search by email", "Seguir esta búsqueda por correo"},
	"js.watch.aria":        {"Watch this search", "Seguir esta búsqueda"},
	"js.email":             {"Email address", "Dirección de correo"},
	"js.watch.text":        {"What to watch, in plain English", "Qué seguir, en inglés sencillo"},
	"js.watch.asrequest":   {"As the request says (daily unless it says weekly)", "Como diga la solicitud (a diario salvo que diga semanal)"},
	"js.watch.daily":       {"Daily (only on days with something new)", "A diario (solo los días con novedades)"},
	"js.watch.weekly":      {"Weekly, on Mondays (a check-in when nothing is new)", "Semanal, los lunes (un aviso aunque no haya novedades)"},
	"js.watch.often":       {"How often", "Con qué frecuencia"},
	"js.watch.confirm":     {"Send me a confirmation link", "Envíenme un enlace de confirmación"},
	"js.watch.create":      {"Create watch", "Crear seguimiento"},
	"js.sending":           {"Sending…", "Enviando…"},
	"js.done":              {"Done: check your email.", "Hecho: revise su correo."},
	"js.watch.failed":      {"The watch could not be created: %s", "No se pudo crear el seguimiento: %s"},
	"js.watch.understood":  {" Understood as: ", " Entendido como: "},
	"js.watch.digests":     {" Digests: %s.", " Resúmenes: %s."},
	"js.follow.aria":       {"Follow this %s", "Seguir: %s"},
	"js.follow.label":      {"Email me when it changes (old → new)", "Escríbame cuando cambie (antes → ahora)"},
	"js.follow.button":     {"Follow", "Seguir"},
	"js.follow.failed":     {"The follow could not be set up: %s", "No se pudo activar el seguimiento: %s"},
	"js.status":            {"the server answered %s", "el servidor respondió %s"},
	"js.notice.missing":    {"Notice %s is not held here", "El aviso %s no se guarda aquí"},
	"js.notice.official":   {"The official City Record may still have it: ", "Puede que el City Record oficial lo tenga: "},
	"js.notice.lookup":     {"look it up there", "búsquelo allí"},
	"js.notice.title":      {"Notice %s", "Aviso %s"},
	"js.notice.agency":     {"Agency", "Agencia"},
	"js.notice.printedas":  {" (printed as “%s”)", " (impreso como «%s»)"},
	"js.notice.section":    {"Section", "Sección"},
	"js.notice.type":       {"Notice type", "Tipo de aviso"},
	"js.notice.category":   {"Category", "Categoría"},
	"js.notice.method":     {"Selection method", "Método de selección"},
	"js.notice.published":  {"Published", "Publicado"},
	"js.notice.to":         {" to %s", " al %s"},
	"js.notice.deadline":   {"Deadline", "Plazo"},
	"js.notice.amount":     {"Amount", "Importe"},
	"js.notice.vendor":     {"Vendor", "Proveedor"},
	"js.notice.vendortext.counted": {"(read from the notice's text, which has no vendor field; counted in this vendor's totals)",
		"(leído del texto del aviso, que no tiene campo de proveedor; contado en los totales de este proveedor)"},
	"js.notice.vendortext.uncounted": {"(read from the notice's text, which has no vendor field; not counted in any totals: this way of naming a vendor has not been checked on enough notices)",
		"(leído del texto del aviso, que no tiene campo de proveedor; no se cuenta en ningún total: esta forma de nombrar a un proveedor no se ha comprobado en suficientes avisos)"},
	"js.notice.vendortext.several": {"(read from the notice's text, which names several vendors; not counted in any of their totals)",
		"(leído del texto del aviso, que nombra a varios proveedores; no se cuenta en los totales de ninguno)"},
	"js.notice.pin":         {"PIN", "PIN"},
	"js.notice.event":       {"Event", "Evento"},
	"js.notice.at":          {" at %s", " en %s"},
	"js.notice.request":     {"Request ID", "ID de la solicitud"},
	"js.notice.payments":    {"Payments dataset", "Conjunto de datos de pagos"},
	"js.notice.documents":   {"Documents", "Documentos"},
	"js.notice.fulltext":    {"Full text", "Texto completo"},
	"js.notice.verbatim":    {"As the source published it, in its own language.", "Tal como lo publicó la fuente, en su idioma original."},
	"js.notice.notext":      {"The source row carries no full text.", "La fila de la fuente no trae texto completo."},
	"js.notice.observed":    {"Source observed %s. The official notice is authoritative.", "Fuente observada el %s. El aviso oficial es la fuente válida."},
	"js.cycle.aria":         {"Earlier cycles", "Ciclos anteriores"},
	"js.cycle.title":        {"Earlier cycles of this work", "Ciclos anteriores de este trabajo"},
	"js.cycle.match":        {"%s match (confidence %s): ", "coincidencia %s (confianza %s): "},
	"js.cycle.contract":     {"Registered contract %s", "Contrato registrado %s"},
	"js.cycle.registered":   {", registered %s", ", registrado el %s"},
	"js.cycle.next":         {"Next cycle possibly around %s (%s).", "Próximo ciclo posiblemente hacia el %s (%s)."},
	"js.cycle.searched":     {"Searched: %s. No match does not mean no earlier cycle exists.", "Buscado: %s. Que no haya coincidencias no significa que no exista un ciclo anterior."},
	"js.matter.title":       {"Procurement matter %s", "Expediente de contratación %s"},
	"js.matter.pin":         {"PIN", "PIN"},
	"js.matter.base":        {"Base PIN", "PIN base"},
	"js.matter.prefix":      {"10-character base", "Base de 10 caracteres"},
	"js.matter.awarded":     {"Awarded", "Adjudicado"},
	"js.matter.registered":  {"Registered", "Registrado"},
	"js.matter.paid":        {"Paid", "Pagado"},
	"js.matter.timeline":    {"Timeline", "Cronología"},
	"js.matter.nosteps":     {"No steps are held.", "No se guarda ningún paso."},
	"js.matter.contract":    {"Contract %s", "Contrato %s"},
	"js.matter.linked":      {"Linked by %s (%s confidence): ", "Vinculado por %s (confianza %s): "},
	"js.matter.picture":     {"The timeline could not be drawn; the list below holds every step.", "No se pudo dibujar la cronología; la lista de abajo contiene todos los pasos."},
	"js.inv.expired":        {"This shared investigation has expired (snapshots live 90 days).", "Esta investigación compartida ha caducado (las copias duran 90 días)."},
	"js.inv.title":          {"Shared investigation", "Investigación compartida"},
	"js.inv.pinned":         {"Pinned %s · readable until %s", "Marcada el %s · legible hasta el %s"},
	"js.inv.whenpinned":     {"When pinned: ", "Al marcarla: "},
	"js.inv.unchanged":      {"Unchanged since pinned", "Sin cambios desde que se marcó"},
	"js.inv.now":            {"Now: %s", "Ahora: %s"},
	"js.inv.rule":           {"Each state of a record is checked on its own: a change here says only what this service holds now.", "Cada estado de un registro se comprueba por separado: un cambio aquí solo dice lo que este servicio guarda ahora."},
	"js.vendor.title":       {"Vendor %s", "Proveedor %s"},
	"js.vendor.stem":        {"Vendor name stem %s", "Raíz del nombre del proveedor %s"},
	"js.vendor.dates":       {" · records from %s to %s", " · registros del %s al %s"},
	"js.spellings":          {"Spellings", "Grafías"},
	"js.awards.intents":     {"Awards and intents", "Adjudicaciones e intenciones"},
	"js.awards.total":       {"%s notices; valid amounts total %s", "%s avisos; los importes válidos suman %s"},
	"js.awards.invalid":     {"; %s without a valid amount (not counted)", "; %s sin importe válido (no se cuentan)"},
	"js.fy":                 {"Fiscal year", "Año fiscal"},
	"js.notices":            {"Notices", "Avisos"},
	"js.valid.amounts":      {"Valid amounts", "Importes válidos"},
	"js.agencies":           {"Agencies", "Agencias"},
	"js.agency.count":       {": %s notices, %s", ": %s avisos, %s"},
	"js.none.held":          {"None held.", "No se guarda ninguno."},
	"js.payments.title":     {"Payments dataset (Checkbook NYC)", "Conjunto de datos de pagos (Checkbook NYC)"},
	"js.payments.line":      {"%s contract registrations (%s registered value) · %s payments (%s paid)", "%s registros de contratos (%s de valor registrado) · %s pagos (%s pagados)"},
	"js.agency.title":       {"Agency %s", "Agencia %s"},
	"js.agency.id":          {"Canonical id %s", "Id canónico %s"},
	"js.agency.spellings":   {"Spellings in the sources", "Grafías en las fuentes"},
	"js.agency.variant":     {" — %s, %s records", " — %s, %s registros"},
	"js.agency.notices":     {"%s notices", "%s avisos"},
	"js.agency.bylens":      {"By lens", "Por lente"},
	"js.agency.bytype":      {"By notice type", "Por tipo de aviso"},
	"js.agency.recent":      {"Recent", "Recientes"},
	"js.agency.awards":      {"Awards", "Adjudicaciones"},
	"js.agency.awardstotal": {"%s award and intent notices; valid amounts total %s", "%s avisos de adjudicación e intención; los importes válidos suman %s"},
	"js.vendor":             {"Vendor", "Proveedor"},
	"js.notfound":           {"Page not found", "Página no encontrada"},
	"js.notfound.view":      {"No view is called “%s”. ", "Ninguna vista se llama «%s». "},
}

// moreLabels are the label tables of the values only the script views
// show (labels.go holds the rest); merged into labels at start.
var moreLabels = map[string]map[string]word{
	// view.Flags codes (internal/view)
	"flag": {
		"rolling_deadline": {"Rolling deadline", "Plazo continuo"},
		"invalid_amount":   {"The amount is a placeholder or entry error and is not counted", "El importe es un marcador o un error de entrada y no se cuenta"},
		"deadline_passed":  {"The due date has passed", "El plazo ha vencido"},
		"open":             {"Open: due today or later, or rolling", "Abierta: vence hoy o más tarde, o es continua"},
		"multi_day":        {"Published over several days", "Publicado durante varios días"},
		"source_html":      {"The source text held HTML markup; it is shown as text", "El texto de la fuente tenía marcas HTML; se muestra como texto"},
		"no_full_text":     {"The source row carries no full text", "La fila de la fuente no trae texto completo"},
		"future_dated":     {"Dated past tomorrow: it moves no source's newest date", "Fechado después de mañana: no mueve la fecha más reciente de la fuente"},
	},
	// the filters a notice search's scope names (search.Query.Searched)
	"filter": {
		"section":         {"section", "sección"},
		"notice_type":     {"notice type", "tipo de aviso"},
		"agency":          {"agency", "agencia"},
		"vendor":          {"vendor", "proveedor"},
		"pin":             {"PIN", "PIN"},
		"pin_prefix":      {"10-character base PIN", "PIN base de 10 caracteres"},
		"base_pin":        {"PIN without renewal suffixes", "PIN sin sufijos de renovación"},
		"collections":     {"collections", "colecciones"},
		"source":          {"source", "fuente"},
		"request_id":      {"request ids", "ids de solicitud"},
		"min_amount":      {"minimum amount", "importe mínimo"},
		"max_amount":      {"maximum amount", "importe máximo"},
		"amount_validity": {"amounts", "importes"},
		"from":            {"published from", "publicado desde"},
		"to":              {"published to", "publicado hasta"},
		"due_from":        {"due from", "vence desde"},
		"due_to":          {"due to", "vence hasta"},
		"event_from":      {"event from", "evento desde"},
		"event_to":        {"event to", "evento hasta"},
		"rolling":         {"rolling deadlines", "plazos continuos"},
		"kind":            {"kind", "tipo"},
	},
	// the record types a scope's sources hold, said as a plural
	"record_type": {
		"notice":   {"notices", "avisos"},
		"contract": {"contract rows", "filas de contratos"},
		"payment":  {"payments", "pagos"},
		"payroll":  {"payroll rows", "filas de nómina"},
		"record":   {"records", "registros"},
	},
	// the steps of a procurement matter (procure.Matter)
	"step": {
		"solicitation": {"Solicitation", "Licitación"},
		"intent":       {"Intent to award", "Intención de adjudicar"},
		"award":        {"Award", "Adjudicación"},
		"registration": {"Registration", "Registro"},
		"contract":     {"Contract", "Contrato"},
		"payment":      {"Payment", "Pago"},
		"hearing":      {"Public hearing", "Audiencia pública"},
		"notice":       {"Notice", "Aviso"},
		"other":        {"Other notice", "Otro aviso"},
	},
	// the record kind of a matter's step
	"step_record": {
		"notice":   {"City Record notice", "Aviso del City Record"},
		"contract": {"Contract registration", "Registro de contrato"},
		"payment":  {"Payment", "Pago"},
	},
	// the kinds of record a pin list holds (api ShareKinds)
	"pin_kind": {
		"notice":       {"Notice", "Aviso"},
		"vendor":       {"Vendor", "Proveedor"},
		"agency":       {"Agency", "Agencia"},
		"matter":       {"Procurement matter", "Expediente de contratación"},
		"contract":     {"Contract", "Contrato"},
		"land_project": {"Land-use project", "Proyecto de uso del suelo"},
		"meeting":      {"Meeting", "Reunión"},
		"person":       {"Person row", "Fila de persona"},
		"organization": {"Organization", "Organización"},
		"payroll":      {"Payroll row", "Fila de nómina"},
	},
	// how finely a property is placed (land.Location kinds)
	"location_kind": {
		"lot":      {"its lot", "su lote"},
		"district": {"community district", "distrito comunitario"},
		"borough":  {"borough", "distrito"},
		"none":     {"no location", "sin ubicación"},
	},
	// a pinned record then and now (api ItemChange)
	"comparison": {
		"unchanged": {"unchanged", "sin cambios"},
		"changed":   {"changed", "cambiado"},
		"unknown":   {"unknown (a read was unavailable)", "desconocido (una lectura no estuvo disponible)"},
	},
	// a record's availability (record.Availability)
	"availability": {
		"found":       {"found", "encontrado"},
		"not_found":   {"not found", "no encontrado"},
		"unavailable": {"unavailable", "no disponible"},
		"partial":     {"partial", "parcial"},
	},
	// the tiers of an earlier-cycle match (internal/cycle)
	"tier": {
		"strict":       {"Strict", "Estricta"},
		"corroborated": {"Corroborated", "Corroborada"},
	},
	// the columns of a notice's payments table (api view of payments)
	"column": {
		"contract_id":      {"Contract ID", "ID del contrato"},
		"vendor":           {"Vendor", "Proveedor"},
		"vendor_name":      {"Vendor", "Proveedor"},
		"amount":           {"Amount", "Importe"},
		"issue_date":       {"Issued", "Emitido"},
		"date":             {"Date", "Fecha"},
		"agency":           {"Agency", "Agencia"},
		"agency_name":      {"Agency", "Agencia"},
		"fiscal_year":      {"Fiscal year", "Año fiscal"},
		"document_id":      {"Document", "Documento"},
		"purpose":          {"Purpose", "Objeto"},
		"expense_category": {"Expense category", "Categoría de gasto"},
		"link":             {"Link", "Vínculo"},
		"method":           {"Joined by", "Vinculado por"},
		"confidence":       {"Confidence", "Confianza"},
	},
}

// addWords adds a part of the word table (ws) and of the label tables
// (ls) to the one table; a key or a kind defined twice is a panic at start.
func addWords(ws map[string]word, ls map[string]map[string]word) {
	for k, w := range ws {
		if _, dup := words[k]; dup {
			panic("web: word " + k + " is defined twice")
		}
		words[k] = w
	}
	for kind, set := range ls {
		if _, dup := labels[kind]; dup {
			panic("web: label kind " + kind + " is defined twice")
		}
		labels[kind] = set
	}
}

func init() {
	addWords(scriptWords, moreLabels)
	for _, lang := range Langs {
		scripts[lang] = buildScript(lang)
	}
}

// scripts are the served word scripts, one per language.
var scripts = map[string][]byte{}

// ScriptName is the static file that carries lang's words to the
// scripts.
func ScriptName(lang string) string { return "words-" + lang + ".js" }

// Script is the word script of lang: window.RW, with the "js." words, every
// label table and the Spanish of the services' fixed sentences (say).
func Script(lang string) []byte { return scripts[lang] }

func buildScript(lang string) []byte {
	i := 0
	if lang == "es" {
		i = 1
	}
	type out struct {
		Lang      string                       `json:"lang"`
		Words     map[string]string            `json:"words"`
		Labels    map[string]map[string]string `json:"labels"`
		Sentences map[string]string            `json:"sentences"`
	}
	o := out{Lang: lang, Words: map[string]string{}, Labels: map[string]map[string]string{}, Sentences: map[string]string{}}
	for k, w := range words {
		if strings.HasPrefix(k, "js.") {
			o.Words[k] = w[i]
		}
	}
	for kind, set := range labels {
		m := map[string]string{}
		for v, w := range set {
			m[v] = w[i]
		}
		o.Labels[kind] = m
	}
	if lang == "es" {
		o.Sentences = sentences
	}
	b, err := json.Marshal(o) // sorted keys: the same bytes every start
	if err != nil {
		panic(err)
	}
	var buf bytes.Buffer
	buf.WriteString("// The site's own words for its scripts, generated from api/web/words.go, words_script.go and labels.go.\n\"use strict\";\nwindow.RW = ")
	buf.Write(b)
	buf.WriteString(";\n")
	return buf.Bytes()
}
