package link_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/recordwatch/recordwatch/indexer/link"
	"github.com/recordwatch/recordwatch/indexer/source/checkbook"
	"github.com/recordwatch/recordwatch/indexer/source/contracts"
	"github.com/recordwatch/recordwatch/indexer/source/crol"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
)

// sample reads the bundled notices, contract rows and Checkbook answers raw
// and links them, as the pipeline does.
func sample(t *testing.T) ([]record.Notice, []record.Contract, []procure.Payment) {
	t.Helper()
	fsys := os.DirFS("../../testdata/sample")
	c, errs := crol.Read(fsys, "crol")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	es, errs := contracts.LoadDir(fsys, "contracts")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	cb, errs := checkbook.ReadDir(fsys, "checkbook")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	es = append(es, cb.Contracts...)
	l := link.Linker{Crosswalk: entity.DefaultCrosswalk()}
	l.Notices(c.Notices)
	l.Contracts(es)
	l.Payments(cb.Payments)
	return c.Notices, es, cb.Payments
}

func TestLinkFillsDerivedKeys(t *testing.T) {
	notices, contracts, payments := sample(t)
	byID := map[string]record.Contract{}
	for _, e := range contracts {
		byID[e.ID] = e
	}
	e := byID["checkbook:contract:CT185020151429177:v1:sub:005"]
	if e.AgencyID != "design-and-construction" || e.VendorStem != "CDE AIR CONDITIONING" || e.PINBase != "85015B0065" || link.PINKey(e.PIN) != "85015B0065001C021" {
		t.Errorf("checkbook contract: %q %q %q", e.AgencyID, e.VendorStem, e.PINBase)
	}
	// every payment has its agency; a named payee has a stem, a payee
	// redacted for privacy ("N/A (PRIVACY/SECURITY)") never has one (86 of
	// the 1,001 bundled payments), so it is never joined or counted by name
	redacted, named := 0, 0
	for _, p := range payments {
		red := link.RedactedPayee(p.VendorName)
		if red {
			redacted++
		} else if p.VendorName != "" {
			named++
		}
		if p.AgencyID == "" || (p.VendorName != "" && !red && p.VendorStem == "") || (red && p.VendorStem != "") {
			t.Errorf("checkbook payment %s: agency %q, payee %q, stem %q", p.ID, p.AgencyID, p.VendorName, p.VendorStem)
		}
	}
	if redacted != 86 || named == 0 {
		t.Errorf("%d payments with a redacted payee (want 86), %d with a named payee", redacted, named)
	}
	for _, n := range notices {
		if n.AgencyID == "" {
			t.Fatalf("notice %s has no agency id", n.RequestID)
		}
		if n.VendorName != "" && n.VendorStem == "" {
			t.Fatalf("notice %s has a vendor and no stem", n.RequestID)
		}
	}
	// the agency resolution says how it was made
	var x record.Notice
	if a := (link.Linker{Crosswalk: entity.DefaultCrosswalk()}).Notice(&record.Notice{AgencyRaw: "Health and Mental Hygiene"}); a.ID == "" || a.Method == "" {
		t.Errorf("agency link %+v", a)
	}
	// linking twice changes nothing
	for _, n := range notices[:50] {
		x = n
		link.Linker{Crosswalk: entity.DefaultCrosswalk()}.Notice(&x)
		if x.AgencyID != n.AgencyID || x.VendorStem != n.VendorStem || len(x.Lenses) != len(n.Lenses) || x.Lens != n.Lens {
			t.Errorf("%s: linking again changed it", n.RequestID)
		}
	}
}

// Joins on real rows of the sample: the 2026 catering solicitation
// 20260515020 and its award 20260723031 (PIN 81626W0043001), and the
// DYCD renewal chain 12522P0001001 (notices R002, R004; registered
// contract rows of the same PIN, of sibling PINs 12522P0001003/004/005).
func TestJoinMethodsAndConfidences(t *testing.T) {
	notices, contracts, payments := sample(t)
	links := map[string]link.Link{}
	for _, l := range link.JoinNotices(notices) {
		links[l.ID] = l
	}
	for _, l := range link.Join(notices, contracts, payments) {
		if _, dup := links[l.ID]; dup {
			t.Fatalf("link %s twice", l.ID)
		}
		links[l.ID] = l
	}
	cases := []struct {
		name, id, method, confidence string
		same                         bool
	}{
		{"solicitation → award, same PIN", "notice:20260515020→notice:20260723031", entity.PINExact, entity.ConfidenceHigh, true},
		{"notice → its renewal notice", "notice:20220706041→notice:20240705012", entity.PINRenewal, entity.ConfidenceHigh, true},
		{"notice → contract of the same PIN", "notice:20260624018→contract:contracts:procurement:contract:CT112520278800354", entity.PINExact, entity.ConfidenceHigh, true},
		{"notice → a renewal's contract", "notice:20220706041→contract:contracts:procurement:contract:CT112520278800354", entity.PINRenewal, entity.ConfidenceHigh, true},
		{"notice → sibling contract sharing the base only", "notice:20220706041→contract:contracts:procurement:contract:CT112520278800230", entity.PINPrefix, entity.ConfidenceLow, false},
	}
	for _, c := range cases {
		l, ok := links[c.id]
		if !ok {
			t.Errorf("%s: no link %s", c.name, c.id)
			continue
		}
		if l.Method != c.method || l.Confidence != c.confidence || l.SameProcurement != c.same || l.Note() == "" {
			t.Errorf("%s: %+v, want %s/%s/%v", c.name, l, c.method, c.confidence, c.same)
		}
	}
	// a prefix link is never as sure as an exact one
	if links[cases[4].id].Confidence == links[cases[2].id].Confidence {
		t.Error("prefix and exact links have the same confidence")
	}
	// same input, same links
	again := link.Join(notices, contracts, payments)
	if n := len(links) - len(link.JoinNotices(notices)); len(again) != n {
		t.Errorf("%d links, then %d", n, len(again))
	}
}

// Payments follow their registration; a source's own join is medium; a
// vendor at an agency with no PIN in common is a low lead.
func TestJoinRules(t *testing.T) {
	n := record.Notice{RequestID: "20150101001", PIN: "85015B0065001C021", VendorStem: "CDE AIR CONDITIONING", AgencyID: "design-and-construction"}
	other := record.Notice{RequestID: "20150101002", PIN: "N/A", VendorStem: "CDE AIR CONDITIONING", AgencyID: "design-and-construction"}
	contracts := []record.Contract{
		{ID: "c1", PIN: "85015B0065001C021", ContractID: "CT1", VendorStem: "CDE AIR CONDITIONING", AgencyID: "design-and-construction"},
		{ID: "c2", PIN: "X", RequestID: "20150101002"},
	}
	payments := []procure.Payment{{ID: "p1", ContractID: "CT1"}, {ID: "p2", ContractID: "CT1", Payroll: true}}
	got := map[string]link.Link{}
	for _, l := range link.Join([]record.Notice{n, other}, contracts, payments) {
		got[l.ID] = l
	}
	want := map[string]entity.Join{
		"notice:20150101001→contract:c1": {Method: entity.PINExact, Confidence: entity.ConfidenceHigh, SameProcurement: true},
		"notice:20150101001→payment:p1":  {Method: entity.JoinContractID, Confidence: entity.ConfidenceHigh, SameProcurement: true},
		"notice:20150101002→contract:c2": {Method: entity.JoinSource, Confidence: entity.ConfidenceMedium, SameProcurement: true},
		"notice:20150101002→contract:c1": {Method: entity.JoinVendorAgency, Confidence: entity.ConfidenceLow},
	}
	if len(got) != len(want) {
		t.Errorf("%d links, want %d: %+v", len(got), len(want), got)
	}
	for id, j := range want {
		if got[id].Join != j {
			t.Errorf("%s: %+v, want %+v", id, got[id].Join, j)
		}
	}
}

// Registrations of one PIN group are linked pair by pair up to
// MaxPINClique records; a larger group (a multi-award solicitation) is
// linked to its first record only, so its links grow with its size.
func TestJoinContractsBoundsLargeGroups(t *testing.T) {
	var small, large []record.Contract
	for i := 0; i < 3; i++ {
		small = append(small, record.Contract{ID: fmt.Sprintf("s%02d", i), PIN: fmt.Sprintf("12522P0001%03d", i+1)})
	}
	for i := 0; i < link.MaxPINClique+4; i++ {
		large = append(large, record.Contract{ID: fmt.Sprintf("l%02d", i), PIN: fmt.Sprintf("06814L0041%03d", i+1)})
	}
	large = append(large, record.Contract{ID: "junk", PIN: "N/A"})
	if got := link.JoinContracts(small); len(got) != 3 {
		t.Errorf("a group of 3: %d links, want 3", len(got))
	}
	got := link.JoinContracts(large)
	if len(got) != link.MaxPINClique+3 {
		t.Errorf("a group of %d: %d links, want %d", link.MaxPINClique+4, len(got), link.MaxPINClique+3)
	}
	for _, l := range got {
		if l.From.ID != "l00" || l.Method != entity.PINPrefix || l.Confidence != entity.ConfidenceLow || l.SameProcurement || l.Key != "06814L0041" {
			t.Errorf("link %+v", l)
		}
	}
}
