package mcp

import (
	"context"
	"net/url"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
)

type getContractIn struct {
	ID string `json:"id"`
}

// ContractOut is one contract read: found, not_found or unavailable,
// explicitly.
type ContractOut struct {
	Status    record.Availability `json:"status"`
	ID        string              `json:"id"`
	Message   string              `json:"message,omitempty"`
	Contract  *record.Contract    `json:"contract,omitempty"`
	Rows      []record.Contract   `json:"rows,omitempty"`
	RowsTotal int                 `json:"rows_total,omitempty"`
	Measure   string              `json:"measure"`
	// Payments: the payments joined to the contract by exact contract id
	// (procure.ContractPayments, as GET /api/contracts/{id} gives them),
	// registered vs paid by fiscal year and the coverage of the payments
	// held. Matter: the procurement matter of its PIN (notices,
	// registrations, payments), when it states one.
	Payments *procure.ContractPayments `json:"payments,omitempty"`
	// Registration is held, or not_held when no registered row is held
	// under the ID but payments name it (then contract is absent,
	// registration_note says so and payees are the vendors those payments
	// pay). PaymentRows pages every payment naming the contract ID (GET
	// /api/rows, cursor to the end; add format=csv for CSV).
	Registration     string          `json:"registration,omitempty"`
	RegistrationNote string          `json:"registration_note,omitempty"`
	Payees           []procure.Payee `json:"payees,omitempty"`
	PaymentRows      string          `json:"payment_rows,omitempty"`
	Matter           *MatterAnswer   `json:"matter,omitempty"`
	Absence          []string        `json:"absence_rules"`
	// Empty says why nothing is held on not_found (record.RecordAbsence).
	Empty *record.EmptyAnswer `json:"empty,omitempty"`
	// Sources are, on a found answer, the sources it is built from, each
	// with its coverage and freshness (state fresh, stale, failing or
	// never_loaded; since when; observed_at; newest source date;
	// schedule), as every search scope's sources state them.
	Sources []record.SourceCoverage `json:"sources,omitempty"`
}

// maxContractID bounds a contract or row id argument.
const maxContractID = 120

func (d *Deps) procurement() (*procure.Service, error) {
	if d.Procure == nil {
		return nil, record.Errorf(record.EUNAVAILABLE, "registered contracts are not available on this deployment")
	}
	return d.Procure, nil
}

func getContract(d *Deps) Tool {
	t := newTool(d, "get_contract", "Get one registered contract", ClassRead,
		"Read one registered contract by its exact contract ID (e.g. CT100220268808241) or the exact row id a browse "+
			"returned. Returns status found, not_found or unavailable explicitly: not_found means this service holds no "+
			"such contract, not that none was registered. A found contract carries agency (as printed and canonical id), "+
			"vendor, PIN, registration date and the fiscal year derived from it (July 1 to June 30, named for the year it "+
			"ends), registered amount with its validity, purpose, procurement method when the source states it, source "+
			"and links, and every row held under the same contract ID (versions, sub-vendor lines). Amounts are "+
			"registered value, never payments or spending. Was it paid? payments lists the Checkbook NYC payments joined "+
			"to the contract by exact contract id (method and confidence each) with registered_vs_paid by fiscal year and "+
			"the coverage of the payments held (state no_payments_held never means unpaid: the payments held are an "+
			"extract); matter is the procurement matter of its PIN (notices, registrations, payments on one timeline). "+
			"A contract ID whose registration is not held but which payments name is found too, with registration "+
			"not_held, its payments, their payees and registered_vs_paid; payment_rows pages every payment.",
		[]int{1},
		func(s *jsonschema.Schema) {
			bounded(s, "id", maxContractID, "Exact contract ID, or the exact row id of a contract.")
			prop(s, "id").MinLength = ptr(1)
		},
		func(ctx context.Context, d *Deps, in getContractIn) (ContractOut, error) {
			out := ContractOut{ID: in.ID, Measure: procure.ContractMeasure, Absence: record.AbsenceRules}
			svc, err := d.procurement()
			if err == nil {
				var r procure.ContractRead
				r, err = svc.Contract(ctx, in.ID)
				if err == nil {
					out.Status, out.Contract, out.Rows, out.RowsTotal = record.Found, &r.Contract, r.Rows, r.RowsTotal
					out.Payments, out.Sources = &r.Payments, r.Sources
					out.Registration, out.RegistrationNote, out.Payees = r.Registration, r.RegistrationNote, r.Payees
					if r.Registration == procure.RegistrationNotHeld {
						out.Contract = nil
					}
					if id := r.Contract.ContractID; id != "" {
						out.PaymentRows = d.BaseURL + "/api/rows?" + url.Values{"contract_id": {id}, "kind": {procure.RowPayment}}.Encode()
					}
					if out.Matter, err = d.matterOf(ctx, svc, r.MatterPIN); err == nil {
						return out, nil
					}
				}
			}
			switch record.ErrorCode(err) {
			case record.ENOTFOUND:
				out.Status = record.NotFound
				out.Message = "No contract with this exact ID is held by this service; that does not mean none was registered."
				out.Empty = d.absent(ctx, in.ID, procure.ContractKind.Name)
				return out, nil
			case record.EUNAVAILABLE:
				out.Status = record.Unavailable
				out.Message = "The contract could not be read right now; this does not mean it is missing. Try again later."
				return out, nil
			}
			return out, err
		})
	t.Limits = []string{"rows: at most 50 rows of one contract ID (rows_total counts all)",
		"payments: at most 100 payments (total counts all)", "matter.timeline: at most 50 steps"}
	t.Examples = []Example{{"A registered purchase of the Office of the Mayor", map[string]any{"id": "CT100220268808241"}}}
	return t
}
