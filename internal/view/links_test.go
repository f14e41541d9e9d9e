package view

import (
	"testing"

	"github.com/recordwatch/recordwatch/internal/record"
)

func TestLinksShapes(t *testing.T) {
	f1 := Links{Base: "https://rw.example", Form: 1}
	f2 := Links{Base: "https://rw.example", Form: 2}
	n := record.Notice{RequestID: "20240101001", VendorStem: "ACME-WEST BUILDERS", VendorName: " Acme-West Builders, Inc. ",
		AgencyID: "parks-and-recreation", AgencyName: "Parks and Recreation", PIN: "846 24/B"}
	cases := []struct{ got, want string }{
		{f1.Notice(n.RequestID), "https://rw.example/#notice/20240101001"},
		{f1.NoticeJSON(n.RequestID), "https://rw.example/api/notices/20240101001"},
		// a stem stored under the earlier rule ("ACME-WEST") links to its
		// current form; the old "acme~west-builders" permalink redirects there
		{f1.Vendor(n.VendorStem, n.VendorName), "https://rw.example/vendors/acme-west-builders/"},
		{f2.Vendor(n.VendorStem, n.VendorName), "https://rw.example/#vendor/Acme-West%20Builders%2C%20Inc."},
		{f2.Vendor("ACME", ""), "https://rw.example/#vendor/ACME"},
		{f1.Agency(n.AgencyID, n.AgencyName), "https://rw.example/agencies/parks-and-recreation/"},
		{f2.Agency(n.AgencyID, n.AgencyName), "https://rw.example/#agency/Parks%20and%20Recreation"},
		{f2.Agency("HRA/DEPT OF SOCIAL SERVICES", ""), "https://rw.example/#agency/HRA%2FDEPT%20OF%20SOCIAL%20SERVICES"},
		{f1.Matter(n.PIN), "https://rw.example/#matter/846%2024%2FB"},
		{f1.Digest("money", n.RequestID), "https://rw.example/r/money/20240101001"},
		{Links{}.Notice("x"), "/#notice/x"},
	}
	for i, c := range cases {
		if c.got != c.want {
			t.Errorf("case %d: got %q, want %q", i, c.got, c.want)
		}
	}
	l := f1.ForNotice(n)
	if l.Permalink != cases[0].want || l.Vendor != cases[2].want || l.Agency != cases[5].want || l.Matter != cases[8].want ||
		f1.Vendor("", "ABC Corp.") != "https://rw.example/vendors/abc/" {
		t.Errorf("ForNotice Form 1 = %+v", l)
	}
	if l := f2.ForNotice(record.Notice{RequestID: "1", AgencyName: "X"}); l.Vendor != "" || l.Matter != "" || l.Agency != "https://rw.example/#agency/X" {
		t.Errorf("ForNotice without vendor/PIN = %+v", l)
	}
}
