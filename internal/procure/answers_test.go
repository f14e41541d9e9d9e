package procure

import (
	"testing"
	"time"
)

// A row is shown one way on every surface: a valid amount with its value,
// an invalid one with its source text and the reason it is not summed,
// none when the row states none; the date as a New York day.
func TestRowViewShowsAmountsWithTheirValidity(t *testing.T) {
	late := time.Date(2025, 7, 1, 2, 0, 0, 0, time.UTC) // June 30 in New York
	valid := Row{ID: "r1", Source: "checkbook", Kind: RowPayment, VendorName: " ACME INC ", Date: late, Amount: 1234.5, AmountValid: true,
		AmountRaw: "1234.50", AmountLabel: "check amount"}.View()
	if valid.Vendor != "ACME INC" || valid.Date != "2025-06-30" || valid.Amount == nil || !valid.Amount.Valid ||
		*valid.Amount.Value != 1234.5 || valid.Amount.Display != "$1,234.50" || valid.Amount.Note != "check amount" {
		t.Errorf("valid row: %+v %+v", valid, valid.Amount)
	}
	invalid := Row{ID: "r2", AmountRaw: "0"}.View()
	if invalid.Amount == nil || invalid.Amount.Valid || invalid.Amount.Value != nil || invalid.Amount.SourceText != "0" ||
		invalid.Amount.Note != InvalidAmountNote || invalid.Date != "" {
		t.Errorf("invalid row: %+v %+v", invalid, invalid.Amount)
	}
	if none := (Row{ID: "r3"}).View(); none.Amount != nil {
		t.Errorf("a row stating no amount shows one: %+v", none.Amount)
	}
}

// Totals read as absent when nothing is held, never as zero dollars; the
// rows listed are never nil and payroll is present only when held.
func TestPaymentsViewSaysWhatIsAbsent(t *testing.T) {
	v := Totals(RowPage{}, 10).View()
	if v.Entries == nil || len(v.Entries) != 0 || v.Payroll != nil || v.Note != PaymentsNote {
		t.Errorf("empty totals: %+v", v)
	}
	if v.Contracts.Amount.Value != nil || v.Contracts.Amount.Display != NoContracts || v.Payments.Amount.Display != NoPayments {
		t.Errorf("nothing held reads %+v / %+v", v.Contracts.Amount, v.Payments.Amount)
	}
	k := Sum{Records: 3, ValidAmounts: 2, Amount: 10}.Total()
	if k.Count != 3 || k.ValidAmounts != 2 || k.WithoutValidAmount != 1 || k.Amount.Value == nil || *k.Amount.Value != 10 {
		t.Errorf("kind total: %+v", k)
	}
	ys := FiscalYearTotals([]FiscalYear{{FiscalYear: 2026, Count: 2, ValidAmounts: 0}})
	if len(ys) != 1 || ys[0].Amount.Value != nil || ys[0].Amount.Display != "no valid amounts held" {
		t.Errorf("a fiscal year without a valid amount: %+v", ys)
	}
	if FiscalYearTotals(nil) == nil {
		t.Error("fiscal years are never nil")
	}
}

// A notice's joins are shown one way: nothing joined is no answer (nil),
// the base-PIN records are summed apart only when some are held, every
// entry keeps its method, confidence and evidence, and the totals carry
// registered vs paid.
func TestNoticeJoinView(t *testing.T) {
	var none *NoticeJoin
	if none.View() != nil {
		t.Error("no join shows an answer")
	}
	j := &NoticeJoin{PIN: "85015B0065001C021", Totals: Totals(RowPage{}, 10), Apart: Totals(RowPage{}, 10), Complete: true,
		Ledger: Ledger{State: NoPaymentsHeld},
		Links:  []JoinedRow{{Row: Row{ID: "c1", Kind: RowContract, AmountRaw: "0"}, Link: Link{Method: "pin_exact", Confidence: "high", Note: "same PIN", SameProcurement: true}}}}
	v := j.View()
	if v.Apart != nil || v.Totals == nil || v.Totals.Ledger == nil || v.Totals.Ledger.State != NoPaymentsHeld || v.Absence != JoinNote || !v.Complete {
		t.Errorf("join view: %+v", v)
	}
	if len(v.Links) != 1 || v.Links[0].Method != "pin_exact" || v.Links[0].Evidence != "same PIN" || !v.Links[0].SameProcurement ||
		v.Links[0].Entry.Amount == nil || v.Links[0].Entry.Amount.Valid {
		t.Errorf("joined entries: %+v", v.Links)
	}
	j.Apart.Records = 1
	if j.View().Apart == nil {
		t.Error("base-PIN records held are not shown apart")
	}
}

// Awards add valid amounts only and count the others apart; with no valid
// amount the sum reads as absent, never $0.
func TestAwardSummaryCountsInvalidAmountsApart(t *testing.T) {
	s := Awards{Total: 5, ValidAmounts: 3, Amount: 1500, ByFiscalYear: []FiscalYear{{FiscalYear: 2025, Count: 5, ValidAmounts: 3, Amount: 1500}}}.Summary()
	if s.WithoutValidAmount != 2 || s.Amount.Value == nil || *s.Amount.Value != 1500 || len(s.ByFiscalYear) != 1 || s.ByFiscalYear[0].Amount.Display != "$1,500.00" {
		t.Errorf("summary %+v", s)
	}
	none := Awards{}.Summary()
	if none.Amount.Value != nil || none.Amount.Display != "no awards held" || none.ByFiscalYear == nil {
		t.Errorf("no awards: %+v", none)
	}
}
