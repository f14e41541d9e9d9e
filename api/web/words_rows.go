package web

import "github.com/recordwatch/recordwatch/internal/procure"

// The row tables' words (templates/rows.html and the row tables of the
// vendor, agency, contract and matter pages): every payment, registered
// contract row and payroll row behind a door, paged, sorted, downloadable.

func init() {
	addWords(map[string]word{
		"page.rows":                 {"Every row held", "Todas las filas guardadas"},
		"rows.matched":              {"%d rows matched; %d on this page.", "%d filas coinciden; %d en esta página."},
		"rows.registered":           {"Registered contract rows (registered value)", "Filas de contratos registrados (valor registrado)"},
		"rows.not.registered":       {"Contract rows not registered (apart, not in registered value)", "Filas de contratos no registradas (aparte, fuera del valor registrado)"},
		"rows.payroll":              {"Payroll rows", "Filas de nómina"},
		"rows.sort":                 {"Sort by:", "Ordenar por:"},
		"rows.sort.date":            {"date, oldest first", "fecha, la más antigua primero"},
		"rows.sort.date_desc":       {"date, newest first", "fecha, la más reciente primero"},
		"rows.sort.amount_desc":     {"amount, largest first", "importe, el mayor primero"},
		"rows.kind":                 {"Kind", "Tipo"},
		"rows.next":                 {"Next page", "Página siguiente"},
		"rows.first":                {"First page", "Primera página"},
		"rows.download.csv":         {"Download every row (CSV)", "Descargar todas las filas (CSV)"},
		"rows.every.row":            {"Every row, page by page", "Todas las filas, página a página"},
		"rows.table.title":          {"Payments and contract rows", "Pagos y filas de contratos"},
		"rows.table.shown":          {"%d of %d rows shown here.", "%d de %d filas mostradas aquí."},
		"contract.payments.listed":  {"%d of %d payments listed here.", "%d de %d pagos listados aquí."},
		"contract.as.payments.name": {"(as the payments name it)", "(tal como lo nombran los pagos)"},
		"ledger.both":               {"both held: compare", "ambos guardados: comparables"},
		// the notice view's payments (static/app.js noticePayments)
		"js.beyond.title":   {"Vendors, contracts and payments matching this search", "Proveedores, contratos y pagos que coinciden con esta búsqueda"},
		"js.beyond.count":   {"%s: %s", "%s: %s"},
		"js.pay.totals":     {"Joined payments: %s (%s). Registered contract rows: %s (%s registered value).", "Pagos vinculados: %s (%s). Filas de contratos registrados: %s (%s de valor registrado)."},
		"js.pay.year":       {"registered %s, paid %s", "registrado %s, pagado %s"},
		"js.pay.both":       {" (both held: compare)", " (ambos guardados: comparables)"},
		"js.pay.undated":    {"undated", "sin fecha"},
		"js.pay.date":       {"Date", "Fecha"},
		"js.pay.kind":       {"Kind", "Tipo"},
		"js.pay.vendor":     {"Vendor or payee", "Proveedor o beneficiario"},
		"js.pay.contract":   {"Contract ID", "ID del contrato"},
		"js.pay.amount":     {"Amount", "Importe"},
		"js.pay.linked":     {"How linked", "Cómo se vinculó"},
		"js.pay.invalid":    {"not a valid amount (not summed)", "importe no válido (no sumado)"},
		"js.pay.apart":      {"; another procurement, summed apart", "; otra contratación, sumada aparte"},
		"js.pay.incomplete": {"More joined rows are held than listed here; the procurement matter lists them all.", "Hay más filas vinculadas que las listadas aquí; el expediente de contratación las lista todas."},
		"js.pay.matter":     {"The procurement matter of PIN %s: every notice, registration and payment", "El expediente de contratación del PIN %s: cada aviso, registro y pago"},
	}, map[string]map[string]word{
		// a row's kind (procure.Row*)
		"row_kind": {
			"payment":  {"payment", "pago"},
			"contract": {"contract row", "fila de contrato"},
			"payroll":  {"payroll", "nómina"},
		},
		// the collections of a federated search (federated.Collections)
		"collection": {
			"notices":          {"notices", "avisos"},
			"agencies":         {"agencies", "agencias"},
			"community_boards": {"community boards", "juntas comunitarias"},
			"vendors":          {"vendors", "proveedores"},
			"contracts":        {"contracts", "contratos"},
			"land_projects":    {"land projects", "proyectos de uso del suelo"},
			"meetings":         {"meetings", "reuniones"},
			"people":           {"people and organizations", "personas y organizaciones"},
			"payroll":          {"payroll", "nómina"},
			"payments":         {"payments", "pagos"},
		},
		// what a row's date is (procure.Date*, the payments' date labels)
		"date_label": {
			"registered": {"registered", "registrado"},
			"received":   {"received", "recibido"},
			"issued":     {"issued", "emitido"},
			"paid":       {"paid", "pagado"},
		},
	})
	addSentences(false, map[string]string{
		procure.RegistrationNotHeldNote: "registro no guardado; %d pagos de Checkbook NYC nombran este contrato. La fila del contrato registrado no está entre los registros guardados aquí (los contratos guardados son un extracto); los pagos de abajo nombran su ID de contrato.",
		procure.RegistrationNotHeldOne:  "registro no guardado; 1 pago de Checkbook NYC nombra este contrato. La fila del contrato registrado no está entre los registros guardados aquí (los contratos guardados son un extracto); los pagos de abajo nombran su ID de contrato.",
		procure.LedgerBothNote:          "Solo los años marcados como con valor registrado y pagos a la vez comparan lo pagado con lo registrado; en los demás años un lado no está guardado aquí, lo que no significa que sea cero.",
		procure.PayeeNotNamed:           "beneficiario no nombrado (oculto por privacidad)",
		procure.RowListNote:             "Los totales son de todas las filas que coinciden, no solo de esta página. Los totales de contratos son el valor registrado de las filas registradas (las filas sin fecha de registro se cuentan aparte); los totales de pagos suman los cheques emitidos; los importes de relleno o con errores de captura se listan pero nunca se suman. Las filas guardadas son un extracto de sus fuentes: una fila que falte aquí puede existir en la fuente.",
	})
}
