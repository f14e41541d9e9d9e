package indexer

import (
	"context"
	"io/fs"

	"github.com/recordwatch/recordwatch/indexer/link"
	"github.com/recordwatch/recordwatch/indexer/source/civillist"
	"github.com/recordwatch/recordwatch/indexer/source/leaders"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/people"
)

// leadersSource: the NYC Governance Organizations roster (t3jq-9nkf) and
// its name crosswalk, as typed people rows (organizations and the persons
// a release names).
type leadersSource struct{}

func (leadersSource) Name() string  { return leaders.Source }
func (leadersSource) Label() string { return leaders.Label }
func (leadersSource) Holds() string { return HoldsRecords }
func (leadersSource) Live() bool    { return true }
func (leadersSource) Read(fsys fs.FS, dir string) (Batch, []error) {
	b, errs := leaders.ReadDir(fsys, dir)
	return Batch{Rows: b.Read, Merged: b.Merged, Records: []RecordSet{peopleSet(b.Rows)}}, errs
}

// peopleSet is the record set of people rows, linked to the crosswalk.
func peopleSet(rows []people.Row) RecordSet {
	return Set[people.Row]{Of: people.Kind, Items: rows, LinkWith: linkPeople}
}

// linkPeople ties organization rows (and the person rows their records
// name) to crosswalk agencies by the crosswalk's NYC Governance
// Organizations id: an exact id join, never a name match.
func linkPeople(_ context.Context, env link.Env, rows []people.Row) []error {
	byGOID := people.AgenciesByRecordID(env.Linker.Crosswalk)
	for i := range rows {
		rows[i].AgencyID = byGOID[rows[i].OrgID] // a person: the agency whose record names them
	}
	return nil
}

// FetchedLeaders is a live read of the roster (leaders.Fetcher) as a
// source for Load: its Read returns the fetched rows whatever the files.
func FetchedLeaders(b leaders.Batch, errs []error) Source { return fetchedLeaders{b, errs} }

type fetchedLeaders struct {
	b    leaders.Batch
	errs []error
}

func (fetchedLeaders) Name() string  { return leaders.Source }
func (fetchedLeaders) Label() string { return leaders.Label }
func (fetchedLeaders) Holds() string { return HoldsRecords }
func (fetchedLeaders) Live() bool    { return true }
func (f fetchedLeaders) Read(fs.FS, string) (Batch, []error) {
	return Batch{Rows: f.b.Read, Merged: f.b.Merged, Records: []RecordSet{peopleSet(f.b.Rows)}}, f.errs
}

// civillistSource: DCAS civil-service exams and eligible lists, typed
// civil records kept beside the organizations (the agency a list names
// is resolved by the crosswalk; a list naming none is citywide).
type civillistSource struct{}

func (civillistSource) Name() string  { return civillist.Source }
func (civillistSource) Label() string { return civillist.Label }
func (civillistSource) Holds() string { return HoldsRecords }
func (civillistSource) Live() bool    { return false }
func (civillistSource) Read(fsys fs.FS, dir string) (Batch, []error) {
	b, errs := civillist.ReadDir(fsys, dir)
	return Batch{Rows: b.Read, Merged: b.Merged, Records: []RecordSet{Set[people.CivilRecord]{Of: people.CivilKind, Items: b.Records,
		LinkWith: func(_ context.Context, env link.Env, items []people.CivilRecord) []error {
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
		}}}}, errs
}
