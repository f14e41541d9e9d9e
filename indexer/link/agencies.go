package link

import (
	"context"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/record"
)

// The link functions of the kinds whose only derived field is an agency
// id: payroll rows, people and organization rows, civil-service records.
// Each is the LinkWith of its record set in the pipeline.

// PayrollRows resolves the agency of each payroll row with the crosswalk
// (a row naming none keeps none).
func PayrollRows(_ context.Context, env Env, rows []record.PayrollRow) []error {
	for i := range rows {
		if rows[i].AgencyPrinted == "" {
			rows[i].AgencyID, rows[i].AgencyName, rows[i].AgencyMethod = "", "", ""
			continue
		}
		l := env.Linker.Crosswalk.Resolve(rows[i].AgencyPrinted)
		rows[i].AgencyID, rows[i].AgencyName, rows[i].AgencyMethod = l.ID, l.Name, l.Method
	}
	return nil
}

// PeopleRows ties organization rows (and the person rows their records
// name) to crosswalk agencies by the crosswalk's NYC Governance
// Organizations id: an exact id join, never a name match.
func PeopleRows(_ context.Context, env Env, rows []people.Row) []error {
	byGOID := people.AgenciesByRecordID(env.Linker.Crosswalk)
	for i := range rows {
		rows[i].AgencyID = byGOID[rows[i].OrgID] // a person: the agency whose record names them
	}
	return nil
}

// CivilRecords resolves the agency a civil-service list names (a list
// naming none is citywide; a name the crosswalk does not know keeps no
// id).
func CivilRecords(_ context.Context, env Env, items []people.CivilRecord) []error {
	for i := range items {
		if items[i].AgencyName == "" {
			continue
		}
		a := env.Linker.Crosswalk.Resolve(items[i].AgencyName)
		if a.Method != entity.MethodOwn {
			items[i].AgencyID, items[i].AgencyMethod = a.ID, a.Method
		}
	}
	return nil
}
