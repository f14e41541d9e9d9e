package checkbook

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// contractRow is a row of the cityscroll procurement read model
// (procurement_browse_rows.json). Field names are cityscroll's; the
// registration date is only inside source_observation_refs
// ("checkbook_contracts:contract:registered:<contract id>:<vendor>:prime-vendor:<date>").
type contractRow struct {
	ProcurementID     string          `json:"procurement_id"`
	Refs              []string        `json:"source_observation_refs"`
	RequestID         string          `json:"request_id"`
	StartDate         string          `json:"start_date"`
	AgencyName        string          `json:"agency_name"`
	ShortTitle        string          `json:"short_title"`
	PIN               string          `json:"pin"`
	ContractID        string          `json:"contract_id"`
	ContractAmount    json.RawMessage `json:"contract_amount"`
	VendorName        string          `json:"vendor_name"`
	SelectionMethod   string          `json:"selection_method_description"`
	PrimaryStage      string          `json:"primary_stage"`
	SourceSystems     []string        `json:"source_systems"`
	ProcurementStages []string        `json:"procurement_stages"`
}

// ReadContractRows reads registered-contract rows of the cityscroll read
// model (a JSON array) into contract entries of source "contracts": id
// "contracts:<procurement_id>", the contract id, PIN, agency and vendor as
// written, the amount (validated), the Checkbook registration date when the
// row has one (its fiscal year follows from it), and the City Record
// request id cityscroll joined. Values derived by cityscroll (stages, the
// summary line) stay out of the entry except in Raw.
func ReadContractRows(data []byte, file string, cw *entity.Crosswalk, observed time.Time) ([]search.Entry, []error) {
	var rows []json.RawMessage
	if err := json.Unmarshal(data, &rows); err != nil {
		return nil, []error{fmt.Errorf("%s: not a JSON array of contract rows: %w", file, err)}
	}
	var out []search.Entry
	var errs []error
	for i, raw := range rows {
		var r contractRow
		if err := json.Unmarshal(raw, &r); err != nil {
			errs = append(errs, fmt.Errorf("%s: row %d: %w", file, i+1, err))
			continue
		}
		if r.ProcurementID == "" {
			errs = append(errs, fmt.Errorf("%s: row %d has no procurement_id", file, i+1))
			continue
		}
		e := search.Entry{
			ID: ContractsSource + ":" + r.ProcurementID, Source: ContractsSource, SourceLabel: ContractsLabel, Kind: search.EntryContract,
			AgencyRaw: r.AgencyName, VendorName: r.VendorName, ContractID: r.ContractID, PIN: r.PIN, RequestID: r.RequestID,
			Title: r.ShortTitle, Status: r.PrimaryStage, ObservedAt: observed, Raw: map[string]string{},
		}
		var fields map[string]json.RawMessage
		_ = json.Unmarshal(raw, &fields)
		for k, v := range fields {
			var s string
			if json.Unmarshal(v, &s) == nil {
				e.Raw[k] = s
			} else if string(v) != "null" {
				e.Raw[k] = string(v)
			}
		}
		if r.AgencyName != "" {
			l := cw.Resolve(r.AgencyName)
			e.AgencyID, e.AgencyName = l.ID, l.Name
		}
		if r.VendorName != "" {
			e.VendorStem = entity.VendorStem(r.VendorName)
		}
		if r.PIN != "" {
			e.PINBase = entity.PINBase(r.PIN)
		}
		if len(r.ContractAmount) > 0 && string(r.ContractAmount) != "null" {
			e.AmountRaw = strings.Trim(string(r.ContractAmount), `"`)
			e.AmountLabel = "contract amount"
			if v, ok := record.ParseAmount(e.AmountRaw); ok {
				e.Amount, e.AmountValid = v, true
			}
		}
		for _, ref := range r.Refs {
			parts := strings.Split(ref, ":")
			if len(parts) >= 7 && parts[0] == "checkbook_contracts" && parts[2] == "registered" {
				if t := record.ParseDate(parts[len(parts)-1]); !t.IsZero() {
					e.Date, e.DateLabel = t, "registered"
					e.FiscalYear = record.FiscalYear(t)
				}
			}
		}
		out = append(out, e)
	}
	return out, errs
}

// latestDate is the latest entry date, or zero.
func latestDate(entries []search.Entry) time.Time {
	var t time.Time
	for _, e := range entries {
		if e.Date.After(t) {
			t = e.Date
		}
	}
	return t
}
