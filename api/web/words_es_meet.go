package web

import (
	"html"
	"html/template"
	"regexp"
	"strings"
)

// The Spanish of the meetings, people and organizations, stats and about
// pages: the services' fixed sentences (the meetings' evidence and notes
// written at index time, the roster's and the payroll's notes) and the
// label tables of their machine values. Record text (body names, titles,
// places, names as printed, section names) is not translated: the
// templates mark it data-verbatim, and recordNote marks the record values
// a note quotes.

func init() {
	addSentences(meetingSentences)
	addSentences(peopleSentences)
	addSentences(sourcesSentences)

}

// verbatimOpen and verbatimClose bracket a record's value inside a note
// said in Spanish (private-use runes no source text holds).
const verbatimOpen, verbatimClose = "\uE000", "\uE001"

// phraseRe is an argument that reads as a phrase of the site's (a
// lowercase word, then more words): it is never marked as record text,
// so that one no list says stays visible to the plain-words test.
var phraseRe = regexp.MustCompile(`^[a-z]+ `)

// markRecord brackets a pattern's argument that no list says: a name, a
// date, a status, a quoted text, as the record gives it.
func markRecord(s string) string {
	if strings.TrimSpace(s) == "" || phraseRe.MatchString(s) {
		return s
	}
	return verbatimOpen + s + verbatimClose
}

// quotedRe is a quoted text in a note (strconv.Quote's, or typographic):
// the words of a record as printed.
var quotedRe = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|“[^”]*”`)

// recordNote is a service's note in lang, as plain says it; in Spanish the
// record values the note carries (the arguments of its pattern that no
// list says, and quoted text) are marked data-verbatim: they stay as
// published. English is plain's, unchanged.
func recordNote(lang, note string) any {
	if lang != "es" {
		return Plain(lang, Say(lang, note))
	}
	s := Plain(lang, say(lang, note, markRecord))
	var b strings.Builder
	outside := func(t string) {
		last := 0
		for _, loc := range quotedRe.FindAllStringIndex(t, -1) {
			b.WriteString(html.EscapeString(t[last:loc[0]]))
			b.WriteString(`<span data-verbatim>` + html.EscapeString(t[loc[0]:loc[1]]) + `</span>`)
			last = loc[1]
		}
		b.WriteString(html.EscapeString(t[last:]))
	}
	depth, from := 0, 0
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], verbatimOpen):
			if depth == 0 {
				outside(s[from:i])
				from = i + len(verbatimOpen)
			}
			depth++
			i += len(verbatimOpen)
		case strings.HasPrefix(s[i:], verbatimClose) && depth > 0:
			depth--
			if depth == 0 {
				inner := strings.NewReplacer(verbatimOpen, "", verbatimClose, "").Replace(s[from:i])
				b.WriteString(`<span data-verbatim>` + html.EscapeString(inner) + `</span>`)
				from = i + len(verbatimClose)
			}
			i += len(verbatimClose)
		default:
			i++
		}
	}
	if depth > 0 {
		outside(strings.NewReplacer(verbatimOpen, "", verbatimClose, "").Replace(s[from:]))
	} else {
		outside(s[from:])
	}
	return template.HTML(b.String())
}

// meetingSentences are the meetings' evidence and notes, as the meeting
// parsers (indexer/source/meetings), the meeting service
// (internal/meeting) and the link stage (indexer/link meeting.go,
// meeting_land.go) write them.
var meetingSentences = map[string]string{
	// internal/meeting meeting.go MinutesFact
	"the source links a minutes document":                             "la fuente enlaza un documento de actas",
	"the source links a minutes document (status %s)":                 "la fuente enlaza un documento de actas (estado %s)",
	"the source links a minutes document, published %s":               "la fuente enlaza un documento de actas, publicado el %s",
	"the source links a minutes document (status %s), published %s":   "la fuente enlaza un documento de actas (estado %s), publicado el %s",
	"no minutes document is linked by the source":                     "la fuente no enlaza ningún documento de actas",
	"no minutes document is linked by the source (minutes status %s)": "la fuente no enlaza ningún documento de actas (estado de las actas: %s)",
	// internal/meeting meeting.go TimeNotStated
	"not stated": "no indicada",
	// internal/meeting service.go: the meetings left out by a time filter
	"meetings in the window that match every other filter but whose start time the source does not give, so they cannot be judged evening or not": "reuniones del periodo que cumplen todos los demás filtros pero cuya hora de inicio la fuente no da, así que no se puede decir si son por la tarde o no",
	"none: a weekend is known from the date alone":                                                                 "ninguna: el fin de semana se sabe solo por la fecha",
	"no time filter applied: meetings whose start is unknown are included in the rows with when.start_known false": "sin filtro de hora: las reuniones cuyo inicio se desconoce se incluyen en las filas con when.start_known false",
	"start unknown: %s": "inicio desconocido: %s",
	// internal/meeting service.go: the answers a meeting page or the
	// calendar shows instead
	"meetings are not available on this deployment":                    "las reuniones no están disponibles en esta instalación",
	"a meeting id is required (source:source id, e.g. legistar:22525)": "se necesita un identificador de reunión (fuente:identificador en la fuente, p. ej. legistar:22525)",
	"no meeting with id %s is held":                                    "no se guarda ninguna reunión con el identificador %s",
	"to (%s) is before from (%s)":                                      "la fecha final (%s) es anterior a la inicial (%s)",
	"the date window is at most %d days":                               "el periodo es de %d días como máximo",
	"unknown time filter %s; one of %s":                                "filtro de hora desconocido %s; uno de %s",
	"unknown attendance %s; one of %s":                                 "asistencia desconocida %s; una de %s",
	"unknown meeting source %s; one of %s":                             "fuente de reuniones desconocida %s; una de %s",
	"body %s has no letters or digits":                                 "el órgano %s no tiene letras ni dígitos",

	// indexer/source/meetings legistar.go
	"Legistar event date and time (New York)": "fecha y hora del evento en Legistar (Nueva York)",
	"Legistar gives the date but no time":     "Legistar da la fecha pero no la hora",
	"Legistar gives no date":                  "Legistar no da fecha",
	"a physical location is the only place Legistar gives; no remote link is published": "un lugar físico es lo único que da Legistar; no se publica ningún enlace a distancia",
	"Legistar gives no location": "Legistar no da lugar",
	"the link stage has not run": "la etapa de vinculación no se ha ejecutado",
	"deferred: Legistar agenda status %s (minutes status %s does not make it held)":                                  "aplazada: estado del orden del día en Legistar %s (el estado de las actas %s no la hace celebrada)",
	"cancelled: Legistar agenda status %s, comment %s":                                                               "cancelada: estado del orden del día en Legistar %s, comentario %s",
	"held as recorded in Legistar: %s":                                                                               "celebrada según consta en Legistar: %s",
	"minutes %s are linked":                                                                                          "hay actas enlazadas (%s)",
	"a roll call is recorded on %d item(s)":                                                                          "consta una votación nominal en %d punto(s)",
	"scheduled: the event starts after the source was observed (%s); agenda status %s":                               "programada: el evento empieza después de la observación de la fuente (%s); estado del orden del día %s",
	"the date has passed but Legistar records neither minutes nor a roll call (agenda status %s, minutes status %s)": "la fecha ya pasó pero Legistar no registra ni actas ni votación nominal (estado del orden del día %s, estado de las actas %s)",
	"the event files carry no fetch time and no modification time":                                                   "los archivos de eventos no llevan hora de descarga ni de modificación",
	"the event files carry no fetch time; observed no earlier than the latest change they hold (LastModified %s)":    "los archivos de eventos no llevan hora de descarga; observados no antes del último cambio que contienen (LastModified %s)",
	"fetched live from the source at %s":                                                                             "descargado en vivo de la fuente el %s",
	// indexer/source/meetings live.go
	"%s (live read: roll calls of the event items are not fetched)": "%s (lectura en vivo: no se descargan las votaciones nominales de los puntos del evento)",
	// indexer/source/meetings legistar.go: the documents' labels
	"Agenda":                    "Orden del día",
	"Minutes":                   "Actas",
	"Video":                     "Video",
	"Media":                     "Medios",
	"Meeting detail (Legistar)": "Detalle de la reunión (Legistar)",
	// indexer/source/meetings minutes.go: the minutes document's label
	"Minutes: %s": "Actas: %s",

	// indexer/source/meetings hearings.go
	"the cached snapshot's as-of date (%s, from its file name)":                                                                               "la fecha de corte de la copia guardada (%s, según el nombre de su archivo)",
	"the file records no observation date":                                                                                                    "el archivo no registra fecha de observación",
	"no snapshot date; observed no earlier than the latest publication it holds":                                                              "sin fecha de la copia; observado no antes de la última publicación que contiene",
	"City Record event_date gives the day only (midnight)":                                                                                    "la event_date del City Record da solo el día (medianoche)",
	"City Record event_date (floating time, read as New York time)":                                                                           "event_date del City Record (hora sin zona, leída como hora de Nueva York)",
	"the notice offers in-person and remote attendance":                                                                                       "el aviso ofrece asistencia presencial y a distancia",
	"the notice says the hearing is held remotely":                                                                                            "el aviso dice que la audiencia se celebra a distancia",
	"the notice gives a physical place and no remote link":                                                                                    "el aviso da un lugar físico y ningún enlace a distancia",
	"the notice states no place in its fields; read the notice text":                                                                          "el aviso no indica lugar en sus campos; lea el texto del aviso",
	"a City Record hearing notice links no minutes, and no minutes are held for this hearing":                                                 "un aviso de audiencia del City Record no enlaza actas, y no se guardan actas de esta audiencia",
	"scheduled: the hearing is after the notice was observed (%s); City Record announces hearings and does not record whether they were held": "programada: la audiencia es posterior a la observación del aviso (%s); el City Record anuncia audiencias y no registra si se celebraron",
	"City Record announces hearings and does not record whether they were held":                                                               "el City Record anuncia audiencias y no registra si se celebraron",
	"the meeting is read from City Record notice %s itself":                                                                                   "la reunión se lee del propio aviso %s del City Record",

	// indexer/source/meetings meetings.go: the calendars' observation
	"the date the calendar texts were copied (calendars/OBSERVED); the PDFs carry no fetch date": "la fecha en que se copiaron los textos de los calendarios (calendars/OBSERVED); los PDF no llevan fecha de descarga",
	"the calendar texts carry no observation date":                                               "los textos de los calendarios no llevan fecha de observación",

	// indexer/source/meetings calendar.go: when, where, the facts
	"read from the calendar text (see parsed_fields)":                                                         "leída del texto del calendario (véanse parsed_fields)",
	"the calendar gives the date but no start time":                                                           "el calendario da la fecha pero no la hora de inicio",
	"listed as a Zoom meeting":                                                                                "figura como reunión por Zoom",
	"a venue and a live stream (watching only; the stream may not allow testimony)":                           "un lugar y una transmisión en vivo (solo para ver; puede que la transmisión no permita dar testimonio)",
	"a venue is given and no remote link":                                                                     "se da un lugar y ningún enlace a distancia",
	"the calendar gives no place":                                                                             "el calendario no da lugar",
	"a community-board calendar links no minutes, and no minutes are held for this meeting":                   "un calendario de junta comunitaria no enlaza actas, y no se guardan actas de esta reunión",
	"the calendar marks it tentative or \"if necessary\"; calendars do not record whether meetings were held": "el calendario la marca como provisional o \"if necessary\"; los calendarios no registran si las reuniones se celebraron",
	"a calendar lists planned meetings and does not record whether they were held":                            "un calendario enumera reuniones previstas y no registra si se celebraron",
	// calendar.go: how each field was read (meeting.ParsedField.How)
	"the board's e-mail address %s":                                                          "la dirección de correo de la junta %s",
	"the file name %s only; the text names no board address":                                 "solo el nombre del archivo %s; el texto no da ninguna dirección de la junta",
	"the printed heading %s":                                                                 "el encabezado impreso %s",
	"the vertical letters %s down the margin and the year %d printed alone":                  "las letras verticales %s en el margen y el año %d impreso aparte",
	"the day number's column in the grid, on the weekday of its header; month from %s":       "la columna del número del día en la cuadrícula, en el día de la semana de su encabezado; mes: %s",
	"the time printed in the day's cell: %s":                                                 "la hora impresa en la celda del día: %s",
	"the cell's lines above its time, joined":                                                "las líneas de la celda encima de su hora, unidas",
	"the cell's address lines (below its time, or above it from a street number on), joined": "las líneas de dirección de la celda (debajo de su hora, o encima desde un número de calle), unidas",
	"the calendar's note on where committee meetings are held":                               "la nota del calendario sobre dónde se celebran las reuniones de comité",
	"the heading %s":                                            "el encabezado %s",
	"the document's own date %s":                                "la fecha del propio documento %s",
	"the sentence %s":                                           "la frase %s",
	"the document lists board meeting dates":                    "el documento enumera fechas de reuniones de la junta",
	"the agenda's heading":                                      "el encabezado del orden del día",
	"the schedule's heading":                                    "el encabezado del calendario",
	"the heading naming the meeting dates":                      "el encabezado que da las fechas de las reuniones",
	"the memo's note on its meetings":                           "la nota del memorando sobre sus reuniones",
	"the text: \"Combined Public Hearings and Board Meetings\"": "el texto: \"Combined Public Hearings and Board Meetings\"",
	"printed with the date":                                     "impreso con la fecha",
	"the year heading above the date in the same column":        "el encabezado del año sobre la fecha en la misma columna",
	"a listed date; year from %s":                               "una fecha de la lista; año: %s",
	"a listed date; year from %s; its weekday (%s) agrees":      "una fecha de la lista; año: %s; su día de la semana (%s) coincide",
	"the time on the date's line":                               "la hora en la línea de la fecha",
	"the time on the line below the date":                       "la hora en la línea debajo de la fecha",
	"the time the text states for its meetings (%s), applied to every listed date":               "la hora que el texto indica para sus reuniones (%s), aplicada a cada fecha de la lista",
	"the text states no time for this date (none on its line, none for the meetings in general)": "el texto no indica hora para esta fecha (ninguna en su línea, ninguna para las reuniones en general)",
	"\"Zoom Meeting\" beside the date (no link given)":                                           "\"Zoom Meeting\" junto a la fecha (sin enlace)",
	"the text says the location is to be determined":                                             "el texto dice que el lugar está por determinar",
	"the address beside the date":                                                                "la dirección junto a la fecha",
	"the address block beside the date":                                                          "el bloque de dirección junto a la fecha",
	"live stream":                                                                                "transmisión en vivo",
	// hearings.go: a notice's remote link
	"remote attendance": "asistencia a distancia",

	// indexer/source/meetings minutes.go
	"the minutes state no start time in their heading":                                          "las actas no indican hora de inicio en su encabezado",
	"the start time the minutes state: %s":                                                      "la hora de inicio que indican las actas: %s",
	"the minutes' heading: %s":                                                                  "el encabezado de las actas: %s",
	"minutes of %s dated %s are held: %s (the date read from %s)":                               "se guardan actas de %s con fecha %s: %s (la fecha se leyó de %s)",
	"the board's minutes record the meeting":                                                    "las actas de la junta registran la reunión",
	"the place is not read from minutes":                                                        "el lugar no se lee de las actas",
	"the minutes text carries no fetch date; the document is dated %s":                          "el texto de las actas no lleva fecha de descarga; el documento tiene fecha %s",
	"the date the minutes give for the meeting: %s":                                             "la fecha que las actas dan para la reunión: %s",
	"the date at the top of the minutes: %s":                                                    "la fecha al principio de las actas: %s",
	"the date the minutes give for the meeting: %s; month and year agree with the link text %s": "la fecha que las actas dan para la reunión: %s; el mes y el año coinciden con el texto del enlace %s",
	"the date at the top of the minutes: %s; month and year agree with the link text %s":        "la fecha al principio de las actas: %s; el mes y el año coinciden con el texto del enlace %s",
	"month and year agree with the link text %s":                                                "el mes y el año coinciden con el texto del enlace %s",
	"%s; attached to this calendar entry of the same board and day":                             "%s; asignadas a esta entrada del calendario de la misma junta y el mismo día",
	"the board's minutes of that day record the meeting (%s)":                                   "las actas de la junta de ese día registran la reunión (%s)",

	// indexer/link meeting.go: the City Record notice link
	"the meeting has no date to compare with notice event dates": "la reunión no tiene fecha que comparar con las fechas de evento de los avisos",
	"the notices could not be read: %s":                          "no se pudieron leer los avisos: %s",
	"but no City Record notice of this body's agency is held on any day, so the retained set cannot show whether it notices its meetings": "pero no se guarda ningún aviso del City Record de la agencia de este órgano en ningún día, así que lo guardado no puede mostrar si anuncia sus reuniones",
	"notices of this body's agency are held on other days":                                                                                "se guardan avisos de la agencia de este órgano en otros días",
	"no City Record hearing notice with an event on %s is held":                                                                           "no se guarda ningún aviso de audiencia del City Record con un evento el %s",
	"no City Record notices were readable when the meeting was linked":                                                                    "no había avisos del City Record legibles cuando se vinculó la reunión",
	"evidence too thin to say it was not noticed (a notice may exist outside the retained set)":                                           "pruebas demasiado escasas para decir que no se anunció (puede existir un aviso fuera de lo guardado)",
	"City Record notice %s: same %s":                                                                                                      "aviso %s del City Record: mismo %s",
	"notice(s) %s name this body on the same day, but neither the time nor the place agrees; too thin to link or to rule out":             "los avisos %s nombran este órgano el mismo día, pero no coinciden ni la hora ni el lugar; demasiado escaso para vincular o descartar",
	"%d City Record hearing notice(s) with an event on %s are held":                                                                       "se guardan %d aviso(s) de audiencia del City Record con un evento el %s",
	"none names this body": "ninguno nombra este órgano",
	"%d City Record hearing notice(s) with an event on %s are held; none names this body": "se guardan %d aviso(s) de audiencia del City Record con un evento el %s; ninguno nombra este órgano",
	// the matched fields of a link (in order: body, date, time, place)
	"body, date":              "órgano y fecha",
	"body, date, time":        "órgano, fecha y hora",
	"body, date, place":       "órgano, fecha y lugar",
	"body, date, time, place": "órgano, fecha, hora y lugar",
	// indexer/link meeting_land.go: a meeting's land project join (the
	// date as three numbers, so that a body named "Committee on …" is
	// read whole)
	"%s on %d-%d-%d: an agenda item (%s) names %s (%s)": "%s el %d-%d-%d: un punto del orden del día (%s) nombra %s (%s)",
	"%s on %d-%d-%d: its text (%s) names %s (%s)":       "%s el %d-%d-%d: su texto (%s) nombra %s (%s)",
	"application %s, an action of land project %s":      "la solicitud %s, una acción del proyecto de uso del suelo %s",
	"land project %s": "el proyecto de uso del suelo %s",
}

// sourcesSentences are the sources report's notes (api/sources.go,
// internal/record freshness.go, the jobs' windows: indexer/schedule.go,
// mailer/operator.go).
var sourcesSentences = map[string]string{
	"A source is fresh only when its own fetch succeeded within its maximum age (for a source a job fetches live, its own live fetch: files loaded into it do not count; for a file-only source, its files' observation); stale past it; failing while its own live fetch fails, whatever its age (the records held are the last good ones); never loaded when nothing of it is held (every source the service loads is listed, held or not). schedule says \"live\" or \"file only\".": "Una fuente está actualizada solo cuando su propia descarga tuvo éxito dentro de su antigüedad máxima (para una fuente que un trabajo descarga en vivo, su propia descarga en vivo: los archivos cargados en ella no cuentan; para una fuente solo de archivos, la observación de sus archivos); desactualizada pasado ese plazo; con fallos mientras falla su propia descarga en vivo, sea cual sea su antigüedad (los registros guardados son los últimos válidos); nunca cargada cuando no se guarda nada de ella (se listan todas las fuentes que carga el servicio, guardadas o no). El calendario dice «en vivo» o «solo archivos».",
	"A job marks only the sources it fetched, each by its own part of the run (a receipt's parts): one upstream failing marks that source failing with its error even when the job's other parts succeeded. An upstream answering no rows for the window asked has nothing new: a good fetch.":                                                                                                                                                                                          "Un trabajo marca solo las fuentes que descargó, cada una por su propia parte de la ejecución (las partes de un recibo): un origen que falla marca esa fuente con fallos y su error aunque las demás partes del trabajo hayan tenido éxito. Un origen que no devuelve filas para el periodo pedido no tiene nada nuevo: es una descarga válida.",
	"A segment of the search index that fails its checksum or cannot be read is refused, never served: its records are listed under unavailable (answered as unavailable, never as not found) until they are loaded again from their source.":                                                                                                                                                                                                                                           "Un segmento del índice de búsqueda que no supera su suma de comprobación o no se puede leer se rechaza y nunca se sirve: sus registros se listan como no disponibles (se responden como no disponibles, nunca como no encontrados) hasta que se vuelven a cargar desde su fuente.",
	"NYC Open Data 4j6i-9rmr Brooklyn Borough President ULURP recommendations":                                                "Recomendaciones ULURP del presidente del distrito de Brooklyn (NYC Open Data 4j6i-9rmr)",
	"Community board calendars (text of the boards' PDF calendars and agendas)":                                               "Calendarios de las juntas comunitarias (texto de los calendarios y órdenes del día en PDF de las juntas)",
	"Community board minutes (text of the boards' full-board minutes PDFs)":                                                   "Actas de las juntas comunitarias (texto de las actas en PDF de los plenos de las juntas)",
	"Checkbook NYC (NYC Comptroller) XML API":                                                                                 "API XML de Checkbook NYC (Contralor de NYC)",
	"City Record hearing notices with event dates (NYC Open Data dg92-zbpx)":                                                  "Avisos de audiencias del City Record con fechas de los actos (NYC Open Data dg92-zbpx)",
	"Annual City Council report on eligible list utilization, Local Law 50 of 2004 (NYC Open Data qjzt-ytn9), via cityscroll": "Informe anual del Concejo Municipal sobre el uso de las listas de elegibles, Ley Local 50 de 2004 (NYC Open Data qjzt-ytn9), a través de cityscroll",
	"DCAS OASys active exams (GetActiveExams)":                                                                                "Exámenes activos de DCAS OASys (GetActiveExams)",
	"Registered contracts as joined by CityScroll, a third party (Checkbook NYC and PASSPort rows)":                           "Contratos registrados tal como los vincula CityScroll, un tercero (filas de Checkbook NYC y PASSPort)",
	"NYC Council land-use items (Legistar, as mirrored by jehiah/nyc_legislation)":                                            "Asuntos de uso del suelo del Concejo de NYC (Legistar, en la copia de jehiah/nyc_legislation)",
	"City Record Online (NYC Open Data dg92-zbpx; 2014 DCAS export)":                                                          "City Record Online (NYC Open Data dg92-zbpx; exportación de DCAS de 2014)",
	"NYC Open Data gt5i-dmde Manhattan Borough President ULURP recommendation PDFs":                                           "PDF de recomendaciones ULURP del presidente del distrito de Manhattan (NYC Open Data gt5i-dmde)",
	"ZAP land-use projects (NYC Department of City Planning: portal answers, Open Data hgx4-8ukb and 2iga-a6mk)":              "Proyectos de uso del suelo de ZAP (Departamento de Planificación Urbana de NYC: respuestas del portal, Open Data hgx4-8ukb y 2iga-a6mk)",
	"NYC Agencies and Governance Organizations roster (NYC Open Data t3jq-9nkf, OTI/MODA), dated releases":                    "Padrón de agencias y organizaciones de gobierno de NYC (NYC Open Data t3jq-9nkf, OTI/MODA), ediciones fechadas",
	"NYC Council events (Legistar)":                                                                                           "Actos del Concejo de NYC (Legistar)",
	"MapPLUTO lot centroids of ZAP project lots (DCP PLUTO, as materialized by cityscroll)":                                   "Centroides MapPLUTO de los lotes de proyectos de ZAP (DCP PLUTO, tal como los materializa cityscroll)",
	"Citywide Payroll Data (NYC Open Data k397-673e)":                                                                         "Datos de la nómina municipal (NYC Open Data k397-673e)",
	"ZAP portal project lot geometry (NYC Department of City Planning)":                                                       "Geometría de los lotes de proyectos del portal ZAP (Departamento de Planificación Urbana de NYC)",
	"A source is fresh when it was observed (its last good fetch) within its maximum age and its live fetch is not failing; stale past its maximum age; failing while its live fetch fails (the records held are the last good ones); never_loaded when nothing of it is held.": "Una fuente está al día cuando se observó (su última descarga correcta) dentro de su antigüedad máxima y su descarga en vivo no falla; desactualizada cuando pasa de su antigüedad máxima; con fallos mientras su descarga en vivo falla (los registros guardados son los últimos válidos); nunca cargada cuando no se guarda nada de ella.",
	"A job is late when no run started within two of its intervals; a job that never ran says so and is not late (live fetching may be off).":                                                                                                                                   "Una tarea va con retraso cuando ninguna ejecución empezó dentro de dos de sus intervalos; una tarea que nunca se ejecutó lo dice y no va con retraso (puede que la descarga en vivo esté desactivada).",
	"Receipts list each run's window, the rows read, written and rejected (with the first reasons), its start, finish and outcome.":                                                                                                                                             "Los comprobantes enumeran de cada ejecución su ventana, las filas leídas, escritas y rechazadas (con los primeros motivos), su inicio, su fin y su resultado.",
	// internal/record freshness.go
	"nothing of this source is held":                                                                                  "no se guarda nada de esta fuente",
	"the live fetch fails; the records held are the last good ones":                                                   "la descarga en vivo falla; los registros guardados son los últimos válidos",
	"held with no observation time: it may be out of date":                                                            "guardada sin hora de observación: puede estar desactualizada",
	"observed %s, past its maximum age of %s":                                                                         "observada el %s, pasada su antigüedad máxima de %s",
	"loaded from files (the bundled sample unless -source-dir was given) observed %s; run live to fetch current rows": "cargada de archivos (la muestra incluida salvo que se indicara -source-dir), observada %s; ejecútelo en vivo para obtener filas actuales",
	"at an unknown date": "en una fecha desconocida",
	"never run in this deployment (live fetching off, or not started yet)": "nunca ejecutada en esta instalación (descarga en vivo desactivada, o aún sin empezar)",
	"no run since %s: more than %d intervals of %s":                        "ninguna ejecución desde %s: más de %d intervalos de %s",
	// the jobs' windows
	"digest window %s":              "ventana de resúmenes %s",
	"%s by day, %s to %s":           "%s por día, del %s al %s",
	"every row (no checkpoint yet)": "todas las filas (aún sin punto de control)",
	"rows updated since %s (the checkpoint less a %s overlap)": "filas actualizadas desde %s (el punto de control menos un solapamiento de %s)",
	"the ZAP project and project-BBL tables, whole":            "las tablas de proyectos y de proyecto-BBL de ZAP, enteras",
	"every Citywide Payroll row":                               "todas las filas de la nómina municipal",
	"the whole governance roster":                              "el padrón de gobierno entero",
	"meetings from %d days ago to %d days ahead":               "reuniones desde hace %d días hasta dentro de %d días",
}

// peopleSentences are the roster's, the payroll's and the civil-service
// lists' notes on the organization and person pages (internal/people,
// indexer/source/leaders, internal/procure payroll.go).
var peopleSentences = map[string]string{
	// internal/people leaders.go SourceLimits
	"A dated roster: a node says who the release printed as of its date, not who holds the role now.":                                                    "Un padrón fechado: cada entrada dice a quién imprimió la edición en su fecha, no quién ocupa el cargo hoy.",
	"Names are printed by the roster's publisher (OTI/MODA); first and last names are derived from the full name and drop middle initials and suffixes.": "Los nombres los imprime quien publica el padrón (OTI/MODA); el nombre y el apellido se derivan del nombre completo y omiten iniciales intermedias y sufijos.",
	"A name identifies nobody: the same name printed for two organizations is two person rows until a source says they are one.":                         "Un nombre no identifica a nadie: el mismo nombre impreso en dos organizaciones son dos filas de persona hasta que una fuente diga que son una.",
	"Titles are free text as printed (\"President and CEO\", \"President & CEO\").":                                                                      "Los cargos son texto libre tal como se imprimieron (\"President and CEO\", \"President & CEO\").",
	// internal/people service.go: the answers a person or organization
	// page shows instead
	"this deployment's search engine holds no people or organization rows": "el motor de búsqueda de esta instalación no guarda filas de personas ni de organizaciones",
	"a person or organization id is required":                              "se necesita un identificador de persona o de organización",
	"an id has at most %d characters":                                      "un identificador tiene %d caracteres como máximo",
	"no person or organization row with id %s is held":                     "no se guarda ninguna fila de persona ni de organización con el identificador %s",
	// internal/people leaders.go
	"No separate dossier exists for a person: this service keeps dossiers of vendors and agencies only. The person row is the record.": "No hay expediente aparte de una persona: este servicio solo lleva expedientes de proveedores y agencias. La fila de persona es el registro.",
	// internal/people people.go Release.AsOf
	"as of %s":              "a fecha de %s",
	"as fetched on %s":      "descargado el %s",
	"as of an unknown date": "en una fecha desconocida",
	// internal/people people.go: the people lens's follow note
	"The feed follows the agency's Changes in Personnel notices (the people lens); a watch with the same lens and agency also follows the roster releases that change its leader, and a people search for the agency lists them (roster).": "El canal sigue los avisos Changes in Personnel de la agencia (la lente de personas); un seguimiento con la misma lente y agencia sigue también las ediciones del padrón que cambian a su responsable, y una búsqueda de personas de la agencia las enumera (padrón).",
	"A person is not matched by name: notices print names as the payroll system writes them.": "A una persona no se la identifica por el nombre: los avisos imprimen los nombres como los escribe el sistema de nómina.",
	// indexer/source/leaders leaders.go: the relations' notes
	"printed as the principal officer of this record %s; not proof of who holds the role now":  "impreso como responsable principal de este registro %s; no prueba quién ocupa el cargo hoy",
	"free text as printed, not a record id":                                                    "texto libre tal como se imprimió, no un identificador de registro",
	"only the derived first and last names are printed (middle initials and suffixes dropped)": "solo se imprimen el nombre y el apellido derivados (sin iniciales intermedias ni sufijos)",
	"the roster prints the title %s but no name (vacant or unpublished)":                       "el padrón imprime el cargo %s pero ningún nombre (vacante o sin publicar)",
	// internal/people civil.go
	"Exam-level and list-level rows of DCAS datasets, each with its own date and source; no per-candidate civil-service list is held, and a list's use counts are the annual report's as printed.": "Filas por examen y por lista de los conjuntos de datos de DCAS, cada una con su fecha y su fuente; no se guarda ninguna lista de servicio civil por candidato, y los recuentos de uso de una lista son los del informe anual tal como se imprimieron.",
	// internal/procure payroll.go PayrollMeasure
	// internal/people payroll.go PositionsNote and its prefixes
}
