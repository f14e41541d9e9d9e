package indexer

import (
	"context"
	"io/fs"

	"github.com/recordwatch/recordwatch/indexer/link"
	"github.com/recordwatch/recordwatch/indexer/source/civillist"
	"github.com/recordwatch/recordwatch/indexer/source/leaders"
	"github.com/recordwatch/recordwatch/internal/people"
)

// leadersSource: the NYC Governance Organizations roster (t3jq-9nkf) and
// its name crosswalk, as typed people rows (organizations and the persons
// a release names).
type leadersSource struct{}

func (leadersSource) Name() string  { return leaders.Source }
func (leadersSource) Label() string { return leaders.Label }
func (leadersSource) Holds() string { return HoldsRecords }
func (leadersSource) Read(fsys fs.FS, dir string) (Batch, []error) {
	b, errs := leaders.ReadDir(fsys, dir)
	return leadersBatch(b), errs
}

// Fetch reads the roster live (leaders.Fetcher), whole: each live read is
// one roster release, dated the day it was fetched. The checkpoint is not
// used.
func (leadersSource) Fetch(ctx context.Context, _ Checkpoint, cfg LiveConfig, batch func(Batch, []error) error) error {
	f := &leaders.Fetcher{Client: cfg.Client, AppToken: cfg.SODAToken, PageSize: cfg.PageSize, Now: cfg.Now}
	b, errs, err := f.Fetch(ctx)
	if err != nil {
		return err
	}
	return batch(leadersBatch(b), errs)
}

// leadersBatch is the batch of a roster read, from files or live.
func leadersBatch(b leaders.Batch) Batch {
	return Batch{Rows: b.Read, Merged: b.Merged, Records: []RecordSet{peopleSet(b.Rows)}}
}

// peopleSet is the record set of people rows, linked to the crosswalk.
func peopleSet(rows []people.Row) RecordSet {
	return Set[people.Row]{Of: people.Kind, Items: rows, LinkWith: link.PeopleRows}
}

// civillistSource: DCAS civil-service exams and eligible lists, typed
// civil records kept beside the organizations (the agency a list names
// is resolved by the crosswalk; a list naming none is citywide).
type civillistSource struct{}

func (civillistSource) Name() string  { return civillist.Source }
func (civillistSource) Label() string { return civillist.Label }
func (civillistSource) Holds() string { return HoldsRecords }
func (civillistSource) Read(fsys fs.FS, dir string) (Batch, []error) {
	b, errs := civillist.ReadDir(fsys, dir)
	return Batch{Rows: b.Read, Merged: b.Merged, Records: []RecordSet{Set[people.CivilRecord]{Of: people.CivilKind, Items: b.Records,
		LinkWith: link.CivilRecords}}}, errs
}
