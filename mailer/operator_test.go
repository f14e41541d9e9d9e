package mailer

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
)

// A digest run leaves a receipt (job "digests") when receipts are kept:
// deliveries planned, sent and failed, and a failed run's error; an
// operator alert goes out through the same transport as every mail.
func TestDigestReceiptsAndOperatorMail(t *testing.T) {
	tm := newTestMailer(t, nil, nil)
	tm.deps.Receipts = tm.st
	ctx := context.Background()
	tm.digestReceipt(ctx, start, DigestReport{Window: "2026-08-14", Planned: 2, CheckIns: 1, Sent: 2, Failed: 1}, nil)
	tm.digestReceipt(ctx, start.Add(time.Minute), DigestReport{}, errors.New("store unavailable"))
	tm.digestReceipt(ctx, start.Add(2*time.Minute), DigestReport{}, context.Canceled) // a stop is no run
	got, err := tm.st.Receipts(ctx, DigestJob, 10)
	if err != nil || len(got) != 2 {
		t.Fatalf("receipts %+v %v", got, err)
	}
	if got[0].Outcome != record.ReceiptFailed || got[0].Error != "store unavailable" {
		t.Errorf("failed run: %+v", got[0])
	}
	if r := got[1]; r.Outcome != record.ReceiptOK || r.RowsRead != 3 || r.Written != 2 || r.Rejected != 1 || !strings.Contains(r.Window, "2026-08-14") {
		t.Errorf("good run: %+v", r)
	}
	if err := tm.SendOperator(ctx, "ops@example.org", "Recordwatch: scheduled job crol is late", "late\n"); err != nil {
		t.Fatal(err)
	}
	files := tm.files("operator.")
	if len(files) != 1 || !strings.Contains(readFile(t, files[0]), "Subject: Recordwatch: scheduled job crol is late") {
		t.Errorf("operator mail: %v", files)
	}
}
