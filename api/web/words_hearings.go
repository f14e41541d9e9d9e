package web

// The words of a land project's hearings (its page's Hearings section):
// the section, its note and calendar link, a hearing's status and place
// in the list.
var hearingWords = map[string]word{
	"w.hearings": {"Hearings", "Audiencias"},
	"w.hearings.note": {"Hearings and meetings that name one of the project's application numbers or its id: City Record public hearing notices, and Council, City Planning Commission and community board meetings. The next hearing comes first, then later ones, then past ones. Dates, times and places are as the source prints them; a hearing not listed may still be held.",
		"Audiencias y reuniones que nombran uno de los números de solicitud del proyecto o su id: avisos de audiencia pública del City Record y reuniones del Concejo, de la Comisión de Planificación Urbana y de las juntas comunitarias. Primero la próxima audiencia, luego las siguientes y después las pasadas. Fechas, horas y lugares tal como los publica la fuente; una audiencia no listada puede celebrarse igualmente."},
	"w.hearings.calendar": {"Add these hearings to your calendar", "Añadir estas audiencias a su calendario"},
	"w.no.hearing":        {"No hearing or meeting held here names one of its application numbers or its id (one may still be set).", "Ninguna audiencia ni reunión guardada aquí nombra uno de sus números de solicitud ni su id (puede fijarse igualmente)."},
	"w.time.not.stated":   {"time not stated", "hora no indicada"},
	"w.how.to.take.part":  {"How to take part: ", "Cómo participar: "},
}

var hearingLabels = map[string]map[string]word{
	"hearing_status": {
		"scheduled": {"Scheduled", "Programada"},
		"cancelled": {"Cancelled", "Cancelada"},
		"held":      {"Held", "Celebrada"},
		"past":      {"Date passed (whether it was held is not recorded)", "Fecha pasada (no consta si se celebró)"},
	},
	"hearing_when": {
		"next":     {"Next hearing", "Próxima audiencia"},
		"upcoming": {"Later", "Más adelante"},
		"past":     {"Past", "Pasada"},
		"undated":  {"Date not stated", "Fecha no indicada"},
	},
}

func init() { addWords(hearingWords, hearingLabels) }
