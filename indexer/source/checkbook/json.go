package checkbook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// ParseSpendingJSON reads a Checkbook NYC spending answer that was saved as
// JSON by a converter of the XML (the npm xml2json package, object mode):
// a bare array of transaction objects, or an object holding that array
// under "transaction" (or response.result_records.spending_transactions
// .transaction, the full answer). The converter's quirks are read as the
// XML means them:
//
//   - an empty XML element became an empty object {} (or an empty
//     array): no value, read as "";
//   - element names are case-folded: the 2018 API wrote contract_ID where
//     today's answers write contract_id;
//   - every value is a string; a number or boolean is kept as its JSON
//     text, and any other nested value rejects its transaction alone.
//
// Transactions keep their keys in sorted order (the converter does not
// promise the XML's order); Line is the 1-based position of the
// transaction in the array (such files are one physical line, so errors
// name a transaction by its position). The
// answer carries no request: TypeOfData is Spending, and RecordCount the
// transactions held (the count at the source was not saved).
func ParseSpendingJSON(data []byte) (*Response, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var items []json.RawMessage
	if err := json.Unmarshal(data, &items); err != nil {
		var wrap struct {
			Transaction []json.RawMessage `json:"transaction"`
			Response    struct {
				ResultRecords struct {
					Spending struct {
						Transaction []json.RawMessage `json:"transaction"`
					} `json:"spending_transactions"`
				} `json:"result_records"`
			} `json:"response"`
		}
		if err2 := json.Unmarshal(data, &wrap); err2 != nil {
			return nil, fmt.Errorf("checkbook: not a JSON spending answer: %w", err)
		}
		items = wrap.Transaction
		if items == nil {
			items = wrap.Response.ResultRecords.Spending.Transaction
		}
		if items == nil {
			return nil, fmt.Errorf("checkbook: JSON answer holds no transaction array")
		}
	}
	res := &Response{Status: "success", Request: Request{TypeOfData: TypeSpending}, RecordCount: len(items)}
	for i, raw := range items {
		tx, err := jsonTransaction(raw, i+1)
		if err != nil {
			res.Rejected = append(res.Rejected, Rejected{Index: i + 1, Line: i + 1, Reason: err.Error()})
			continue
		}
		res.Transactions = append(res.Transactions, tx)
	}
	if len(res.Transactions) > 0 && !isSpending(res.Transactions[0]) {
		return nil, fmt.Errorf("checkbook: JSON answer is not spending transactions (no check_amount or issue_date)")
	}
	return res, nil
}

// isSpending reports whether a transaction has the spending columns.
func isSpending(tx Transaction) bool {
	_, amt := tx.Fields["check_amount"]
	_, day := tx.Fields["issue_date"]
	return amt || day
}

// jsonTransaction reads one transaction object (ParseSpendingJSON).
func jsonTransaction(raw json.RawMessage, n int) (Transaction, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return Transaction{}, fmt.Errorf("transaction %d is not an object: %w", n, err)
	}
	tx := Transaction{Fields: map[string]string{}, Line: n}
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		v, err := jsonScalar(obj[k])
		if err != nil {
			return Transaction{}, fmt.Errorf("transaction %d: %s: %w", n, k, err)
		}
		name := strings.ToLower(k)
		if _, dup := tx.Fields[name]; dup {
			return Transaction{}, fmt.Errorf("transaction %d: %s appears twice in different letter case", n, name)
		}
		tx.Fields[name] = v
		tx.Order = append(tx.Order, name)
	}
	return tx, nil
}

// jsonScalar is the text of one converted element: a string as is, {} or
// [] (an empty element) as "", a number or boolean as its JSON text.
func jsonScalar(v json.RawMessage) (string, error) {
	t := bytes.TrimSpace(v)
	switch {
	case len(t) == 0, bytes.Equal(t, []byte("null")):
		return "", nil
	case t[0] == '"':
		var s string
		err := json.Unmarshal(t, &s)
		return s, err
	case t[0] == '{' || t[0] == '[':
		var arr []any
		var obj map[string]any
		if json.Unmarshal(t, &obj) == nil && len(obj) == 0 || json.Unmarshal(t, &arr) == nil && len(arr) == 0 {
			return "", nil
		}
		return "", fmt.Errorf("a nested value where an element's text was expected")
	default:
		return string(t), nil
	}
}
