// Package contracts reads registered-contract rows: the procurement read
// model of cityscroll (a third party that joined Checkbook NYC and PASSPort
// registrations to City Record notices), one JSON array of rows per file,
// into registered contracts (record.Contract, procure.ContractKind) of
// source "contracts".
//
// Rows are read as written: the agency string, vendor name and PIN stay
// raw; agency ids, vendor stems and base PINs are filled by the link stage
// (indexer/link).
package contracts

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
)

// Source and its coverage label (the names stored on every contract).
const (
	Source = "contracts"
	Label  = "Registered contracts as joined by CityScroll, a third party (Checkbook NYC and PASSPort rows)"
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

// ReadRows reads registered-contract rows of the cityscroll read model (a
// JSON array) into contracts of source "contracts": id
// "contracts:<procurement_id>", the contract id, PIN, agency and vendor as
// written, the amount (validated), the Checkbook registration date when the
// row has one (its fiscal year follows from it), and the City Record
// request id cityscroll joined. Values derived by cityscroll (stages, the
// summary line) stay out of the contract except in Raw; so do the derived
// keys (agency id, vendor stem, base PIN), which the link stage fills.
func ReadRows(data []byte, file string, observed time.Time) ([]record.Contract, []error) {
	var rows []json.RawMessage
	if err := json.Unmarshal(data, &rows); err != nil {
		return nil, []error{fmt.Errorf("%s: not a JSON array of contract rows: %w", file, err)}
	}
	var out []record.Contract
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
		e := record.Contract{
			ID: Source + ":" + r.ProcurementID, Source: Source, SourceLabel: Label,
			AgencyLabel: r.AgencyName, VendorName: r.VendorName, ContractID: r.ContractID, PIN: r.PIN, RequestID: r.RequestID,
			Purpose: r.ShortTitle, Status: r.PrimaryStage, ObservedAt: observed, Raw: map[string]string{},
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
					e.RegisteredOn, e.FiscalYear = t, record.ContractFiscalYear(t)
				}
			}
		}
		if m := e.Raw["selection_method_description"]; m != "" && m != "-" {
			e.Method = m
		}
		if e.RequestID != "" {
			label := record.N("money.contract.link.notice_joined")
			e.Links = append(e.Links, record.ContractURL{Label: label.String(), LabelKey: label, URL: record.OfficialURL(e.RequestID)})
		}
		out = append(out, e)
	}
	return out, errs
}

// LatestDate is the latest registration date, or zero: the observation
// time of a file that states none (it cannot have been observed before its
// newest row).
func LatestDate(cs []record.Contract) time.Time {
	var t time.Time
	for _, c := range cs {
		if c.RegisteredOn.After(t) {
			t = c.RegisteredOn
		}
	}
	return t
}

// LoadDir reads every *.json file under dir (recursively, in name order)
// as contract rows. Each file's contracts are stamped observed at their
// latest date; an id read twice keeps the last file's row. Contracts are
// sorted by id.
func LoadDir(fsys fs.FS, dir string) ([]record.Contract, []error) {
	var names []string
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(strings.ToLower(d.Name()), ".json") {
			names = append(names, p)
		}
		return nil
	})
	if err != nil {
		return nil, []error{fmt.Errorf("contracts: %s: %w", dir, err)}
	}
	sort.Strings(names)
	var errs []error
	byID := map[string]record.Contract{}
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		es, ferrs := ReadRows(data, name, time.Time{})
		errs = append(errs, ferrs...)
		observed := LatestDate(es)
		for _, e := range es {
			e.ObservedAt = observed
			byID[e.ID] = e
		}
	}
	out := make([]record.Contract, 0, len(byID))
	for _, e := range byID {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, errs
}
