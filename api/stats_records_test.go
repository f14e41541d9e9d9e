package api

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Form 1 /stats over the whole bundled sample lists, after the notice
// sections, every record kind held — registered contracts, payments,
// payroll (the payments dataset's and Citywide Payroll's), lot locations —
// each with its record type, counting rule and its own evidence date, as
// the engine's record coverage counts them; a kind nobody described (a
// test kind written here) appears too, with the default description. The
// contract rows held both as contracts and as contract entries are one
// set, counted once.
func TestStatsForm1ListsEveryRecordKind(t *testing.T) {
	e := newEntityEnv(t, Config{Form: 1})
	ctx := context.Background()
	probe := search.Record{Kind: "test_probe", ID: "p1", Source: "probesrc", SourceLabel: "a test source",
		Date: time.Date(2026, 3, 2, 0, 0, 0, 0, record.NewYork), DateLabel: "probed", Body: []byte(`{}`)}
	if err := e.be.PutRecords(ctx, []search.Record{probe}); err != nil {
		t.Fatal(err)
	}
	res, b := get(t, e, "/stats")
	if res.StatusCode != 200 {
		t.Fatalf("GET /stats: %d %s", res.StatusCode, b)
	}
	out := decode[CoverageStats](t, b)
	cov, err := e.be.RecordCoverage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// derived kinds (notice vectors) are indexes, not sources: held, but
	// never listed as a record set
	derived := 0
	for _, c := range cov {
		if search.IsDerived(c.RecordType) {
			derived++
		}
	}
	if derived == 0 {
		t.Fatal("the sample holds no derived kind: the check below would prove nothing")
	}
	for _, rs := range out.RecordSets {
		if search.IsDerived(rs.RecordKind) {
			t.Errorf("/stats lists the derived kind %s as a record set", rs.RecordKind)
		}
	}
	held := map[string]int{}
	last := map[string]string{}
	for _, c := range search.SourceCoverage(cov) {
		key := c.Source + "/" + search.ScopeType(c.RecordType)
		held[key] = max(held[key], c.Records)
		if _, seen := last[key]; !seen || !strings.Contains(c.RecordType, ".") {
			last[key] = c.LastSourceDate // the kind outside a family dates a set
		}
	}
	sets := map[string]RecordSet{}
	sum, notices := 0, 0
	for _, rs := range out.RecordSets {
		sum += rs.Records
		if rs.RecordKind == "" {
			notices += rs.Records
			continue
		}
		if _, dup := sets[rs.ID]; dup {
			t.Errorf("record set %s listed twice", rs.ID)
		}
		sets[rs.ID] = rs
		if rs.Records != held[rs.ID] || rs.EvidenceDate != last[rs.ID] || rs.RecordType == "" || rs.EvidenceRule == "" ||
			!strings.Contains(rs.CountingRule, "distinct record id") || !strings.Contains(rs.CountingRule, `"`+rs.Source+`"`) {
			t.Errorf("record set %+v; the engine holds %d, last %s", rs, held[rs.ID], last[rs.ID])
		}
		if d := search.Describe(rs.RecordKind); rs.RecordType != d.RecordType || rs.EvidenceRule != d.EvidenceRule ||
			!strings.HasSuffix(rs.CountingRule, d.CountingRule) {
			t.Errorf("record set %s does not read its kind's description", rs.ID)
		}
	}
	if len(sets) != len(held) {
		t.Errorf("%d record-kind sets for %d (source, type) pairs held: %v", len(sets), len(held), held)
	}
	for id, want := range map[string]string{
		"checkbook/contract": "contract", "contracts/contract": "contract", "checkbook/payment": "payment",
		"checkbook/payroll": "payment.payroll", "payroll/payroll": "payroll", "probesrc/test_probe": "test_probe",
	} {
		if sets[id].RecordKind != want {
			t.Errorf("set %s: kind %q, want %q", id, sets[id].RecordKind, want)
		}
	}
	if p := sets["payroll/payroll"]; p.Records != 1800 || p.EvidenceDate != "2016-06-30" || p.Links["api"] != "http://rw.test/api/payroll" {
		t.Errorf("payroll set %+v", p)
	}
	if p := sets["probesrc/test_probe"]; p.RecordType != "test probe" || p.EvidenceDate != "2026-03-02" || p.SourceLabel != "a test source" {
		t.Errorf("undescribed kind %+v", p)
	}
	if out.Totals.Records != sum || out.Totals.Notices != notices || out.Totals.RecordSets != len(out.RecordSets) {
		t.Errorf("totals %+v; sets add up to %d (%d notices)", out.Totals, sum, notices)
	}
	golden(t, "stats_form1_records.json", b)
}
