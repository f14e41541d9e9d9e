package web

// The money pages' sentences that are not yet notes, in Spanish: the scope
// box's line (composed by the API), a digest link's answer and the money
// services' error messages. The services' notes of these pages (profiles,
// sums, ledgers, the contract analysis) are keys in the message files.
// Record text (names, titles, purposes, agency labels as printed) is not
// here: the templates mark it data-verbatim.

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
		// the amount bands (record.ContractAmountBands)

		// the ledgers and the payments held (internal/procure payments.go)
		// how a ledger's payments are found (procure.JoinedBy…)
		// the profiles' payments note (procure.PaymentsNote)
	})
}
