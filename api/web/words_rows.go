package web

import "github.com/recordwatch/recordwatch/internal/procure"

// The row tables' notes (the procurement service's sentences the row
// tables of the vendor, agency, contract and matter pages show); their
// words and label tables (row_kind, collection, date_label) are the
// message files'.

func init() {
	addSentences(map[string]string{
		procure.RegistrationNotHeldNote: "registro no guardado; %d pagos de Checkbook NYC nombran este contrato. La fila del contrato registrado no está entre los registros guardados aquí (los contratos guardados son un extracto); los pagos de abajo nombran su ID de contrato.",
		procure.RegistrationNotHeldOne:  "registro no guardado; 1 pago de Checkbook NYC nombra este contrato. La fila del contrato registrado no está entre los registros guardados aquí (los contratos guardados son un extracto); los pagos de abajo nombran su ID de contrato.",
		procure.PayeeNotNamed:           "beneficiario no nombrado (oculto por privacidad)",
		procure.RowListNote:             "Los totales son de todas las filas que coinciden, no solo de esta página. Los totales de contratos son el valor registrado de las filas registradas (las filas sin fecha de registro se cuentan aparte); los totales de pagos suman los cheques emitidos; los importes de relleno o con errores de captura se listan pero nunca se suman. Las filas guardadas son un extracto de sus fuentes: una fila que falte aquí puede existir en la fuente.",
	})
}
