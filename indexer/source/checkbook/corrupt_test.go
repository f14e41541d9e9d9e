package checkbook

import (
	"strings"
	"testing"
	"testing/fstest"
)

// nthIndex is the offset of the n-th (1-based) occurrence of sub in s.
func nthIndex(t *testing.T, s, sub string, n int) int {
	t.Helper()
	off := 0
	for i := 1; ; i++ {
		j := strings.Index(s[off:], sub)
		if j < 0 {
			t.Fatalf("%q occurs fewer than %d times", sub, n)
		}
		if i == n {
			return off + j
		}
		off += j + len(sub)
	}
}

// Corrupted copies of the real answers: a mismatched end tag, an unclosed
// transaction or a stray "<" rejects that one transaction, with a message
// naming it (position, line, contract id), and never the answer; the other
// transactions are read as from the intact answer.
func TestCorruptedTransactionRejectedAlone(t *testing.T) {
	raw := string(readRaw(t, "contracts_pending_expense_citywide.response.xml"))
	intact, err := ParseResponse([]byte(raw))
	if err != nil || len(intact.Transactions) != 5 {
		t.Fatalf("intact: %v", err)
	}
	// the documentation page's bare "&" (STATEN ISLAND 1&3 GARAGE) reads as
	// a literal ampersand: the transaction is kept and the repair names it
	if len(intact.Repairs) != 2 || !strings.HasPrefix(intact.Repairs[1], "transaction 4 (line 147, contract_id CTR85020211414552") ||
		!strings.Contains(intact.Repairs[1], `bare "&"`) {
		t.Errorf("repairs %q", intact.Repairs)
	}
	cases := []struct {
		name    string
		corrupt func(string) string
		index   int // 1-based transaction rejected
		reason  string
	}{
		{"mismatched end tag", func(s string) string {
			i := nthIndex(t, s, "</purpose>", 2)
			return s[:i] + "</purpse>" + s[i+len("</purpose>"):]
		}, 2, "element <purpose> closed by </purpse>"},
		{"unclosed transaction", func(s string) string {
			i := nthIndex(t, s, "</transaction>", 5)
			return s[:i] + s[i+len("</transaction>"):]
		}, 5, "not readable XML"},
		{"stray <", func(s string) string {
			i := nthIndex(t, s, "<prime_vendor>", 1)
			return s[:i] + "<prime_vendor>A < B " + s[i+len("<prime_vendor>"):]
		}, 1, "not readable XML"},
	}
	for _, c := range cases {
		res, err := ParseResponse([]byte(c.corrupt(raw)))
		if err != nil {
			t.Fatalf("%s: the whole answer was refused: %v", c.name, err)
		}
		if len(res.Transactions) != 4 || len(res.Rejected) != 1 || res.RecordCount != 56 || res.Request.TypeOfData != TypeContracts {
			t.Fatalf("%s: %d transactions, rejected %v", c.name, len(res.Transactions), res.Rejected)
		}
		rej := res.Rejected[0]
		want := intact.Transactions[c.index-1]
		msg := rej.Error()
		if rej.Index != c.index || rej.Line != want.Line || !strings.Contains(msg, "contract_id "+want.Fields["contract_id"]) ||
			!strings.Contains(msg, c.reason) || !strings.Contains(msg, "rejected") {
			t.Errorf("%s: rejected %q (index %d line %d); want transaction %d at line %d", c.name, msg, rej.Index, rej.Line, c.index, want.Line)
		}
		// the others are read exactly as from the intact answer
		k := 0
		for i, tx := range intact.Transactions {
			if i == c.index-1 {
				continue
			}
			got := res.Transactions[k]
			k++
			if got.Line != tx.Line || got.Fields["contract_id"] != tx.Fields["contract_id"] || got.Fields["purpose"] != tx.Fields["purpose"] {
				t.Errorf("%s: transaction %d read as %v, want %v", c.name, i+1, got.Fields, tx.Fields)
			}
		}
	}

	// through the file read: the bad transaction is one error naming the
	// file, line and contract; the report counts it
	i := nthIndex(t, raw, "</purpose>", 2)
	bad := raw[:i] + "</purpse>" + raw[i+len("</purpose>"):]
	spending := strings.Replace(string(readRaw(t, "spending_citywide.response.xml")), "</payee_name>", "</payee>", 1)
	fsys := fstest.MapFS{
		"cb/pending.response.xml":  {Data: []byte(bad)},
		"cb/spending.response.xml": {Data: []byte(spending)},
	}
	c, errs := ReadDir(fsys, "cb")
	if len(errs) != 2 || c.Len() != 4 || len(c.Files) != 2 {
		t.Fatalf("rows %d, errors %v", c.Len(), errs)
	}
	if c.Files[0].Transactions != 4 || c.Files[0].Rejected != 1 || c.Files[1].Transactions != 0 || c.Files[1].Rejected != 1 {
		t.Errorf("reports %+v", c.Files)
	}
	if !strings.HasPrefix(errs[0].Error(), "cb/pending.response.xml:") || !strings.Contains(errs[0].Error(), "transaction 2") ||
		!strings.Contains(errs[0].Error(), "CTR85020131408259") ||
		!strings.Contains(errs[1].Error(), "document_id 20180011164-1-DSB-AD") || !strings.Contains(errs[1].Error(), "closed by </payee>") {
		t.Errorf("errors %v", errs)
	}
}

// A real answer whose envelope is broken (not a transaction) is refused as
// a whole: nothing in it can be trusted.
func TestBrokenEnvelopeRefused(t *testing.T) {
	raw := strings.Replace(string(readRaw(t, "spending_citywide.response.xml")), "</record_count>", "</record_cnt>", 1)
	if _, err := ParseResponse([]byte(raw)); err == nil || !strings.Contains(err.Error(), "not readable XML") {
		t.Errorf("broken envelope: %v", err)
	}
}
