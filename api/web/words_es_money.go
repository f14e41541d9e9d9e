package web

// The money pages' Spanish (vendors, agencies, contracts and their
// analysis), the shared layout's and the scope box's: the site's words of
// those templates, the procurement and dossier services' fixed sentences
// and patterns (internal/procure, internal/dossier), and the reasons an
// amount is excluded. Record text (names, titles, purposes, agency labels
// as printed) is not here: the templates mark it data-verbatim.

func init() {
	addSentences(map[string]string{
		// the scope box's line (api entities_html.go scopeLine)
		"Searched %d records held here, source dates %s to %s, observed %s.": "Se buscó en %d registros guardados aquí, con fechas de la fuente del %s al %s, observados el %s.",
		"Searched %d records held here, source dates %s to %s.":              "Se buscó en %d registros guardados aquí, con fechas de la fuente del %s al %s.",
		"Searched %d records held here, observed %s.":                        "Se buscó en %d registros guardados aquí, observados el %s.",
		"Searched %d records held here.":                                     "Se buscó en %d registros guardados aquí.",
		"Only the records held here were searched.":                          "Solo se buscó en los registros guardados aquí.",

		// a digest link that does not redirect (api feeds_redirect.go)
		"This link does not point to a notice Recordwatch knows.":                                                          "Este enlace no apunta a ningún aviso que Recordwatch conozca.",
		"No notice with this id is held here.":                                                                             "Aquí no se guarda ningún aviso con este id.",
		"The link could not be checked right now; this does not mean the notice is missing. Please try again in a minute.": "No se pudo comprobar el enlace ahora; eso no significa que falte el aviso. Vuelva a intentarlo en un minuto.",
		"The link could not be checked.":                                                                                   "No se pudo comprobar el enlace.",

		// a by-id page that holds no such record (record.RecordAbsence),
		// said under the layout's absence type

		// the money pages' errors (internal/dossier, internal/procure)
		"no award or intent notice and no payments-dataset record held here names a vendor with the name stem \"%s\".": "ningún aviso de adjudicación o intención ni ningún registro del conjunto de pagos guardado aquí nombra a un proveedor con la raíz de nombre \"%s\".",
		"This does not mean there is no such vendor: a full-text search may still find mentions: %s":                   "Eso no significa que no exista ese proveedor: una búsqueda en el texto completo puede encontrar menciones: %s",
		"This does not mean there is no such vendor: a full-text search may still find mentions":                       "Eso no significa que no exista ese proveedor: una búsqueda en el texto completo puede encontrar menciones",
		"no agency with id \"%s\" is in the crosswalk or the records held here; GET /agencies lists the ids.":          "ninguna agencia con el id \"%s\" está en el cruce ni en los registros guardados aquí; GET /agencies lista los ids.",
		"A search may still find mentions: %s":                                         "Una búsqueda puede encontrar menciones: %s",
		"A search may still find mentions":                                             "Una búsqueda puede encontrar menciones",
		"no contract with ID \"%s\" is held.":                                          "no se guarda ningún contrato con el ID \"%s\".",
		"This service holds no such contract; that does not mean none was registered.": "Este servicio no guarda ese contrato; eso no significa que no se haya registrado.",
		"\"%s\" is not an accepted agency label (labels are the crosswalk's canonical agency names, matched with the same letter case)": "\"%s\" no es una etiqueta de agencia aceptada (las etiquetas son los nombres canónicos de agencia del cruce, con la misma capitalización)",
		"did you mean %s?":                         "¿quiso decir %s?",
		"did you mean %s or %s?":                   "¿quiso decir %s o %s?",
		"did you mean %s or %s or %s?":             "¿quiso decir %s, %s o %s?",
		"did you mean %s or %s or %s or %s?":       "¿quiso decir %s, %s, %s o %s?",
		"did you mean %s or %s or %s or %s or %s?": "¿quiso decir %s, %s, %s, %s o %s?",
		"Nothing was analysed for it: this says nothing about its contracts and never means it has zero awards.": "No se analizó nada para ella: esto no dice nada de sus contratos y nunca significa que no tenga adjudicaciones.",
		"Call without an agency label for the accepted list.":                                                    "Llame sin etiqueta de agencia para obtener la lista aceptada.",

		// the contract analysis (internal/procure contracts_analysis.go)
		"Rows without a valid amount (placeholders, negatives, data-entry errors, no amount) are counted in every count and excluded from every registered-value sum.": "Las filas sin importe válido (de relleno, negativos, errores de captura, sin importe) se cuentan en todos los recuentos y se excluyen de todas las sumas de valor registrado.",
		"FY%d (registered %d-07-01 to %d-06-30)":                                  "FY%d (registrado del %d-07-01 al %d-06-30)",
		"no registration date (pending or not yet registered), so no fiscal year": "sin fecha de registro (pendiente o aún no registrado), así que sin año fiscal",
		"no vendor name stated":                                                   "sin nombre de proveedor indicado",
		"no agency stated":                                                        "sin agencia indicada",
		"some rows were written before amount bands and registration states were kept: load the contract sources again to group and follow them": "algunas filas se escribieron antes de que se guardaran los rangos de importe y los estados de registro: cargue de nuevo las fuentes de contratos para agruparlas y seguirlas",
		"No registered contracts are held on this deployment, so nothing was analysed.":                                                          "Este servicio no guarda contratos registrados, así que no se analizó nada.",
		"Analysed %d of the registered contract rows held (%s).":                                                                                 "Se analizaron %d de las filas de contratos registrados guardadas (%s).",
		"Only these rows were read: contracts registered elsewhere or later are not counted.":                                                    "Solo se leyeron estas filas: los contratos registrados en otro lugar o más tarde no se cuentan.",
		"%d rows from %s":                                         "%d filas de %s",
		"%d rows from %s, registered %s to %s":                    "%d filas de %s, registradas del %s al %s",
		"%d rows from %s, observed %s":                            "%d filas de %s, observadas el %s",
		"%d rows from %s, registered %s to %s, observed %s":       "%d filas de %s, registradas del %s al %s, observadas el %s",
		"Nothing was analysed: the agency label is not accepted.": "No se analizó nada: la etiqueta de agencia no es aceptada.",
		"Totals measure the registered value or the count of registered contract rows, never payments or spending; rows without a valid amount are counted but never summed; a group or label absent here does not prove no contract exists.":                                                                                                                                                               "Los totales miden el valor registrado o el número de filas de contratos registrados, nunca pagos ni gasto; las filas sin importe válido se cuentan pero nunca se suman; que aquí falte un grupo o una etiqueta no prueba que no exista ningún contrato.",
		"every canonical agency name of the reviewed agency crosswalk (served by GET /agencies as canonical_name), active and inactive, except the City Record sections the DCAS agency list carries as agencies (not_an_agency); the list changes only when the reviewed mapping does, never with the contracts held. A label names one canonical id; spellings as printed in the sources are not labels.": "todos los nombres canónicos de agencia del cruce revisado de agencias (servido por GET /agencies como canonical_name), activos e inactivos, salvo las secciones del City Record que la lista de agencias de DCAS incluye como agencias (not_an_agency); la lista solo cambia cuando cambia la correspondencia revisada, nunca con los contratos guardados. Una etiqueta nombra un único id canónico; las grafías tal como se imprimen en las fuentes no son etiquetas.",
		// the amount bands (record.ContractAmountBands)
		"under $10,000":                     "menos de $10,000",
		"$10,000 to under $100,000":         "de $10,000 a menos de $100,000",
		"$100,000 to under $1 million":      "de $100,000 a menos de $1 millón",
		"$1 million to under $10 million":   "de $1 millón a menos de $10 millones",
		"$10 million to under $100 million": "de $10 millones a menos de $100 millones",
		"$100 million and over":             "$100 millones o más",
		"no valid amount (placeholder, negative, entry error or none): counted, not summed": "sin importe válido (de relleno, negativo, error de captura o ninguno): se cuenta, no se suma",

		// the ledgers and the payments held (internal/procure payments.go)
		// how a ledger's payments are found (procure.JoinedBy…)
		// the profiles' payments note (procure.PaymentsNote)
	})
}
