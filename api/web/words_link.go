package web

// The words of the pages behind the emailed watch links (confirm, manage,
// unsubscribe, the Follow control's answer; api/watches.go,
// templates/watch_link.html) and of the freshness banner: part of the one
// word table (words). The
// handlers name each as web.Word(lang, "watch.…"), so the word-list test
// (words_test.go) finds them; TestWatchLinkPagesInSpanish (api) walks the
// pages in both languages.
var watchWords = map[string]word{
	"watch.follow.failed":   {"The follow could not be set up", "No se pudo crear el seguimiento"},
	"watch.follow.title":    {"You follow %s", "Usted sigue %s"},
	"watch.check.email":     {"Check your email to confirm", "Revise su correo para confirmar"},
	"watch.link.unusable":   {"This link cannot be used", "Este enlace no se puede usar"},
	"watch.link.expiry":     {"Confirmation links expire %d hours after they are sent, and each confirms one watch once.", "Los enlaces de confirmación caducan %d horas después de enviarse, y cada uno confirma un seguimiento una sola vez."},
	"watch.again":           {"Make the request again (a new confirmation email is sent)", "Haga la solicitud de nuevo (se envía un nuevo correo de confirmación)"},
	"watch.confirm.title":   {"Confirm your watch", "Confirme su seguimiento"},
	"watch.confirm.message": {"This watch will email you new records that match:", "Este seguimiento le enviará por correo los registros nuevos que coincidan con:"},
	"watch.confirm.button":  {"Confirm", "Confirmar"},
	"watch.confirm.note":    {"Nothing is stored until you press Confirm: opening this page confirms nothing. This link expires %d hours after it was sent.", "No se guarda nada hasta que pulse Confirmar: abrir esta página no confirma nada. Este enlace caduca %d horas después de enviarse."},
	"watch.active.title":    {"Your watch is active", "Su seguimiento está activo"},
	"watch.ended.title":     {"This watch has ended", "Este seguimiento ha terminado"},
	"watch.ended.message":   {"No more digests are sent for it.", "Ya no se envían más resúmenes de él."},
	"watch.manage.title":    {"Your watch", "Su seguimiento"},
	"watch.manage.since":    {"Active since %s. It follows:", "Activo desde el %s. Sigue:"},
	"watch.manage.digests":  {"Digests: %s.", "Resúmenes: %s."},
	"watch.manage.changes":  {"Changes are checked %s; one mail per change, old → new.", "Los cambios se comprueban %s; un correo por cambio, antes → ahora."},
	"watch.manage.field":    {"Followed field %s: %s", "Campo seguido %s: %s"},
	"watch.manage.nofield":  {"(none)", "(ninguno)"},
	"watch.manage.desc":     {"Your description: %s", "Su descripción: %s"},
	"watch.manage.changed":  {"Changed: digests are now %s.", "Cambiado: los resúmenes ahora son %s."},
	"watch.schedule.daily":  {"daily, around %d:00 New York time", "diarios, hacia las %d:00, hora de Nueva York"},
	"watch.schedule.weekly": {"weekly, on %ss around %d:00 New York time", "semanales, los %s hacia las %d:00, hora de Nueva York"},
	"watch.unsub.title":     {"Unsubscribe", "Darse de baja"},
	"watch.unsub.message":   {"Stop the digests of this watch?", "¿Dejar de recibir los resúmenes de este seguimiento?"},
	"watch.unsub.button":    {"Unsubscribe", "Darse de baja"},
	"watch.unsub.done":      {"You are unsubscribed", "Se ha dado de baja"},
	"watch.unsub.ended":     {"This watch has ended; no more digests are sent for it.", "Este seguimiento ha terminado; ya no se envían más resúmenes de él."},
	"watch.remove.title":    {"This wasn't me: remove everything", "No fui yo: eliminarlo todo"},
	"watch.remove.message":  {"This address holds %d watches and %d queued emails. Remove them all? Nothing more is sent to it unless someone asks again.", "Esta dirección tiene %d seguimientos y %d correos en cola. ¿Eliminarlos todos? No se le enviará nada más salvo que alguien lo pida de nuevo."},
	"watch.remove.button":   {"Remove everything", "Eliminarlo todo"},
	"watch.remove.done":     {"Everything is removed", "Todo se ha eliminado"},
	"watch.remove.ended":    {"%d watches ended and %d queued emails dropped. Nothing more is sent to this address unless someone asks again.", "Terminaron %d seguimientos y se descartaron %d correos en cola. No se enviará nada más a esta dirección salvo que alguien lo pida de nuevo."},
	"watch.manage.add":      {"Add another watch for this address (from the site's search pages; this link counts as yours)", "Añadir otro seguimiento para esta dirección (desde las páginas de búsqueda del sitio; este enlace cuenta como suyo)"},
	// the freshness banner (templates/layout.html, api/sources.go bannerOf)
	"banner.since":  {"since %s", "desde el %s"},
	"banner.more":   {"and %d more", "y %d más"},
	"banner.note":   {"Answers from these sources may be out of date; what is held is the last good data.", "Las respuestas de estas fuentes pueden estar desactualizadas; lo guardado son los últimos datos válidos."},
	"banner.sample": {"Held from the bundled sample or files, not fetched live: run live to fetch current rows.", "Guardado de la muestra incluida o de archivos, no descargado en vivo: ejecútelo en vivo para obtener filas actuales."},
	// the payments part of the entity pages (templates/entity.html)
	"pay.contract.records": {"%d contract records", "%d registros de contratos"},
	"pay.registered.value": {"registered value", "valor registrado"},
	"pay.payments":         {"%d payments", "%d pagos"},
	"pay.paid":             {"paid", "pagado"},
	// the extent of the records a total is built on (extentWords)
	"extent.partial": {"Built on %s of the %s %s at the source (%s%%)%s, from %s: a partial extract; the total is of what is held, not of the source.", "Calculado sobre %s de los %s %s de la fuente (%s %%)%s, de %s: un extracto parcial; el total es de lo guardado, no de la fuente."},
	"extent.held":    {"Built on the %s %s held here%s, from %s: an extract of the source, which holds more; the total is of what is held, not of the source.", "Calculado sobre los %s %s guardados aquí%s, de %s: un extracto de la fuente, que tiene más; el total es de lo guardado, no de la fuente."},
	"extent.only":    {" dated %s only", " con fecha %s únicamente"},
	"extent.dates":   {" first dated %s, last dated %s", " con primera fecha %s y última fecha %s"},
	"extent.under":   {"under 0.1", "menos de 0,1"},
	// the days held (record.Extent.Say): runs of days, the rest, the days
	// holding none, the undated; and the statement of what is held
	"extent.statement": {"%s %s held here%s, from %s.", "%s %s guardados aquí%s, de %s."},
	"extent.day":       {"%s dated %s", "%s con fecha %s"},
	"extent.run":       {"%s dated each day from %s to %s", "%s con fecha de cada día del %s al %s"},
	"extent.and":       {" and ", " y "},
	"extent.more":      {"%s more on %s other days", "%s más en otros %s días"},
	"extent.moredays":  {"%s more on other days", "%s más en otros días"},
	"extent.gap":       {"none held on %s of the %s days from %s to %s", "nada guardado en %s de los %s días del %s al %s"},
	"extent.undated":   {"%s undated", "%s sin fecha"},
	// the vendor and agency pages (templates/entity.html)
	"ent.dates":            {" · records from %s to %s", " · registros del %s al %s"},
	"ent.awards.total":     {"%d notices; valid amounts total %s", "%d avisos; los importes válidos suman %s"},
	"ent.awards.excluded":  {"(%d placeholder or erroneous amounts excluded)", "(%d importes de relleno o erróneos excluidos)"},
	"ent.agency.awards":    {"%d award and intent notices; valid amounts total %s", "%d avisos de adjudicación e intención; los importes válidos suman %s"},
	"ent.notcounted":       {"(not counted)", "(no contado)"},
	"analysis.labels.pick": {"Analyse one agency label:", "Analizar una etiqueta de agencia:"},
	"analysis.labels.go":   {"Analyse", "Analizar"},
	"fy.none":              {"no fiscal year (not registered)", "sin año fiscal (no registrado)"},
	"ledger.ids":           {"ids", "identificadores"},
	"ledger.text":          {"text", "texto"},
	"ledger.item.new":      {"new", "nuevo"},
	"ledger.item.changed":  {"changed", "cambiado"},
}

// watchLabels are the machine values of the watch pages: what a follow
// follows, the cadence, and a ledger entry's run kind and outcome
// (internal/watch ledger.go).
var watchLabels = map[string]map[string]word{
	"follow_kind": {
		"notice":       {"notice %s", "el aviso %s"},
		"matter":       {"PIN %s", "el PIN %s"},
		"contract":     {"contract %s", "el contrato %s"},
		"land_project": {"land project %s", "el proyecto de uso del suelo %s"},
		"meeting":      {"meeting %s", "la reunión %s"},
	},
	// the fields a follow watches (internal/watch follow.go Snapshot)
	"followed_field": {
		"City Record notice":                  {"City Record notice", "aviso del City Record"},
		"amount":                              {"amount", "importe"},
		"award":                               {"award", "adjudicación"},
		"date and time":                       {"date and time", "fecha y hora"},
		"documents":                           {"documents", "documentos"},
		"due date":                            {"due date", "fecha límite"},
		"event date":                          {"event date", "fecha del evento"},
		"event place":                         {"event place", "lugar del evento"},
		"hearing dates":                       {"hearing dates", "fechas de audiencia"},
		"held":                                {"held", "celebrada"},
		"latest notice in the matter":         {"latest notice in the matter", "último aviso del expediente"},
		"milestone":                           {"milestone", "hito"},
		"minutes":                             {"minutes", "actas"},
		"notice type":                         {"notice type", "tipo de aviso"},
		"notices in the matter":               {"notices in the matter", "avisos del expediente"},
		"paid":                                {"paid", "pagado"},
		"payments":                            {"payments", "pagos"},
		"place":                               {"place", "lugar"},
		"public status":                       {"public status", "estado público"},
		"registered amount":                   {"registered amount", "importe registrado"},
		"registered contracts":                {"registered contracts", "contratos registrados"},
		"registered on":                       {"registered on", "registrado el"},
		"rows held (versions and amendments)": {"rows held (versions and amendments)", "filas guardadas (versiones y enmiendas)"},
		"stage":                               {"stage", "etapa"},
		"status":                              {"status", "estado"},
		"vendor":                              {"vendor", "proveedor"},
		"votes and decisions":                 {"votes and decisions", "votaciones y decisiones"},
	},
	// a source's state on the freshness banner (record.Stale, record.Failing)
	"freshness_state": {
		"stale":   {"out of date", "desactualizada"},
		"failing": {"failing (the last good rows are served)", "con fallos (se sirven las últimas filas válidas)"},
	},
	// what each join method means (internal/entity JoinMethods), said
	// beside a linked step
	"method_note": {
		"exact":             {"the record carries the same PIN", "el registro lleva el mismo PIN"},
		"renewal":           {"the same PIN once renewal suffixes (R001 …) are removed: another renewal of the same contract", "el mismo PIN sin los sufijos de renovación (R001 …): otra renovación del mismo contrato"},
		"prefix":            {"the same 10-character base PIN (agency, fiscal year, method, sequence): a solicitation and the awards and registrations that followed it", "el mismo PIN base de 10 caracteres (agencia, año fiscal, método, secuencia): una licitación y las adjudicaciones y registros que la siguieron"},
		"contract":          {"a payment that names the contract id of a registration linked by PIN", "un pago que nombra el identificador de contrato de un registro vinculado por PIN"},
		"source":            {"the source itself joined this registration to the notice", "la propia fuente vinculó este registro al aviso"},
		"vendor_agency":     {"the same vendor (name stem) at the same agency, with no PIN in common", "el mismo proveedor (raíz del nombre) en la misma agencia, sin PIN en común"},
		"contract_id_field": {"the payment's own contract id is this contract id, exactly (the registration itself is not held)", "el id de contrato del propio pago es exactamente este id de contrato (el registro en sí no se conserva)"},
	},
	// the records a total is built on, by record type and number (record.Extent.Noun)
	"extent_noun": {
		"payments":         {"payments", "pagos"},
		"payment":          {"payment", "pago"},
		"payroll payments": {"payroll payments", "pagos de nómina"},
		"payroll payment":  {"payroll payment", "pago de nómina"},
		"contract records": {"contract records", "registros de contratos"},
		"contract record":  {"contract record", "registro de contrato"},
		"payroll rows":     {"payroll rows", "filas de nómina"},
		"payroll row":      {"payroll row", "fila de nómina"},
	},
	// a meeting's documents (meeting.Doc*)
	"doc_kind": {
		"agenda":     {"Agenda", "Orden del día"},
		"minutes":    {"Minutes", "Actas"},
		"transcript": {"Transcript", "Transcripción"},
		"video":      {"Video", "Vídeo"},
		"notice":     {"Notice", "Aviso"},
		"attachment": {"Attachment", "Anexo"},
	},
	"cadence": {
		"daily":  {"daily", "diaria"},
		"weekly": {"weekly", "semanal"},
	},
	"weekday": {
		"Sunday": {"Sunday", "domingo"}, "Monday": {"Monday", "lunes"}, "Tuesday": {"Tuesday", "martes"},
		"Wednesday": {"Wednesday", "miércoles"}, "Thursday": {"Thursday", "jueves"}, "Friday": {"Friday", "viernes"},
		"Saturday": {"Saturday", "sábado"},
	},
	"ledger_kind": {
		"digest":    {"digest", "resumen"},
		"checkin":   {"check-in", "aviso de actividad"},
		"heartbeat": {"heartbeat", "señal de vida"},
		"change":    {"change", "cambio"},
	},
	"ledger_outcome": {
		"nothing new":             {"nothing new", "nada nuevo"},
		"handed to the relay":     {"handed to the relay", "entregado al servidor de correo"},
		"written to the outbox":   {"written to the outbox", "escrito en la bandeja de salida"},
		"planned, not sent yet":   {"planned, not sent yet", "previsto, aún no enviado"},
		"sending":                 {"sending", "enviándose"},
		"deferred":                {"deferred", "aplazado"},
		"failed; retried":         {"failed; retried", "fallido; se reintenta"},
		"dropped":                 {"dropped", "descartado"},
		"carried by a later mail": {"carried by a later mail", "incluido en un correo posterior"},
		"missed":                  {"missed", "no realizado"},
	},
}

func init() { addWords(watchWords, watchLabels) }
