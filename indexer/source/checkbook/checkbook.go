// Package checkbook reads Checkbook NYC, the NYC Comptroller's payments
// transparency dataset, through its XML API, and turns its transactions
// into the records the procurement views join to City Record notices:
// contracts (registered and pending, record.Contract) and payments
// (spending and payroll, procure.Payment).
//
// The API takes a POSTed XML request (type_of_data, records_from,
// max_records, search_criteria, response_columns) and answers with the
// request echoed, a record_count and the transactions. ParseResponse reads
// such an answer; it tolerates what the official documentation samples show
// (a bare "&" in "STATEN ISLAND 1&3 GARAGE", an end tag written
// "</original_amount&gt", a repeated <version> element) and reports each
// repair, naming its transaction. Each transaction is read on its own: one
// that is still not readable XML (a mismatched or unclosed tag, a stray
// "<") is rejected alone with its position, line and ids
// (Response.Rejected), never the answer. In transactions "-" and empty
// elements mean "no value".
// record_count is the number of matches, not the number of transactions
// returned. Fetcher pages through live answers (records_from, at most 1,000
// records per call) with pacing and retries.
//
// Registered-contract rows of the cityscroll read model are another
// source: package contracts.
package checkbook

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// Source and its coverage label.
const (
	Source      = "checkbook"
	SourceLabel = "Checkbook NYC (NYC Comptroller) XML API"
)

// Types of data the API serves (type_of_data).
const (
	TypeContracts = "Contracts"
	TypeSpending  = "Spending"
	TypePayroll   = "Payroll"
	TypeRevenue   = "Revenue"
	TypeBudget    = "Budget"
)

// Criterion is one search criterion of a request: a value, or a range.
type Criterion struct {
	Name  string `xml:"name"`
	Type  string `xml:"type"`
	Value string `xml:"value,omitempty"`
	Start string `xml:"start,omitempty"`
	End   string `xml:"end,omitempty"`
}

// Request is an API request.
type Request struct {
	XMLName     xml.Name    `xml:"request"`
	TypeOfData  string      `xml:"type_of_data"`
	RecordsFrom int         `xml:"records_from"`
	MaxRecords  int         `xml:"max_records"`
	Criteria    []Criterion `xml:"search_criteria>criteria"`
	Columns     []string    `xml:"response_columns>column,omitempty"`
}

// Marshal writes the request as the API reads it.
func (r Request) Marshal() ([]byte, error) {
	b, err := xml.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Criterion returns the value (or start) of the named criterion.
func (r Request) Criterion(name string) string {
	for _, c := range r.Criteria {
		if c.Name == name {
			if c.Value != "" {
				return c.Value
			}
			return c.Start
		}
	}
	return ""
}

// Transaction is one transaction element: its child elements' text, exactly
// as given (trimmed of the indentation around it), in document order. An
// element that appears more than once keeps its first value in Fields and
// every value in Repeated.
type Transaction struct {
	Fields   map[string]string
	Order    []string
	Repeated map[string][]string
	Line     int
}

// Value returns the first non-empty value of the named fields, treating
// "-" as no value.
func (t Transaction) Value(names ...string) string {
	for _, n := range names {
		if v := strings.TrimSpace(t.Fields[n]); v != "" && v != "-" {
			return v
		}
	}
	return ""
}

// Response is a parsed API answer.
type Response struct {
	Status   string   // "success" or the API's failure word
	Messages []string // messages of a failed request
	Request  Request  // the request as the API echoed it
	// RecordCount is the number of matching records at the source, which
	// is not the number of transactions in this answer.
	RecordCount  int
	Transactions []Transaction
	// Repairs lists what had to be fixed before the XML could be read.
	Repairs []string
	// Rejected are the transactions that could not be read, each with its
	// reason; the others are in Transactions.
	Rejected []Rejected
}

var (
	bareAmpRE   = regexp.MustCompile(`&([^&;\s<>]{0,12};?)`)
	entityRE    = regexp.MustCompile(`^(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);`)
	brokenEndRE = regexp.MustCompile(`</([A-Za-z_][A-Za-z0-9_.-]*)&gt;?`)
)

// repair fixes the documentation samples' decoded entities so the XML
// parses: "</name&gt" becomes "</name>" and a bare "&" becomes "&amp;".
func repair(data []byte) ([]byte, []string) {
	var repairs []string
	if n := len(brokenEndRE.FindAll(data, -1)); n > 0 {
		data = brokenEndRE.ReplaceAll(data, []byte("</$1>"))
		repairs = append(repairs, fmt.Sprintf("%d end tag(s) written with a decoded &gt read as \">\"", n))
	}
	bare := 0
	data = bareAmpRE.ReplaceAllFunc(data, func(m []byte) []byte {
		if entityRE.Match(m[1:]) {
			return m
		}
		bare++
		return append([]byte("&amp;"), m[1:]...)
	})
	if bare > 0 {
		repairs = append(repairs, fmt.Sprintf("%d bare \"&\" read as a literal ampersand", bare))
	}
	return data, repairs
}

// Rejected is a transaction that could not be read (a mismatched or
// unclosed tag, a stray "<"): it is left out of the answer's transactions
// and reported with its position and what names it, never failing the
// answer.
type Rejected struct {
	Index  int    // 1-based position among the answer's transactions
	Line   int    // line of its <transaction> tag in the answer
	Names  string // the ids seen in its text ("contract_id CT1…"), or ""
	Reason string
}

// Error says which transaction was rejected and why.
func (r Rejected) Error() string {
	what := fmt.Sprintf("transaction %d (line %d", r.Index, r.Line)
	if r.Names != "" {
		what += ", " + r.Names
	}
	return what + ") rejected: " + r.Reason
}

var (
	containerRE = regexp.MustCompile(`<([A-Za-z_]+_transactions)\s*>`)
	txStartRE   = regexp.MustCompile(`<transaction\s*>`)
	namesRE     = regexp.MustCompile(`<(prime_contract_id|contract_id|document_id|payee_name|prime_vendor|vendor)>([^<&]{1,80})<`)
)

// ParseResponse reads an API answer (or a documentation sample of one).
// The envelope (status, echoed request, record_count) must be readable or
// the answer is refused; each transaction is read on its own, so one that
// is not readable XML is rejected (Response.Rejected) and the others are
// kept. Decoded entities of the documentation pages are repaired first
// (repair) and each repair is reported naming its transaction.
func ParseResponse(data []byte) (*Response, error) {
	loc := containerRE.FindSubmatchIndex(data)
	if loc == nil {
		return parseWhole(data)
	}
	name := string(data[loc[2]:loc[3]])
	innerStart := loc[1]
	rel := bytes.LastIndex(data[innerStart:], []byte("</"+name+">"))
	if rel < 0 {
		return parseWhole(data)
	}
	innerEnd := innerStart + rel
	envelope := append(append(append([]byte(nil), data[:innerStart]...), bytes.Repeat([]byte("\n"), bytes.Count(data[innerStart:innerEnd], []byte("\n")))...), data[innerEnd:]...)
	res, err := parseWhole(envelope)
	if err != nil {
		return nil, err
	}
	inner := data[innerStart:innerEnd]
	starts := txStartRE.FindAllIndex(inner, -1)
	if len(starts) == 0 {
		if s := bytes.TrimSpace(inner); len(s) > 0 {
			res.Rejected = append(res.Rejected, Rejected{Index: 1, Line: lineAt(data, innerStart),
				Reason: "the transactions element holds text that is not a <transaction>"})
		}
		return res, nil
	}
	if lead := bytes.TrimSpace(inner[:starts[0][0]]); len(lead) > 0 {
		res.Rejected = append(res.Rejected, Rejected{Index: 0, Line: lineAt(data, innerStart),
			Reason: fmt.Sprintf("%d bytes before the first <transaction> are not a transaction", len(lead))})
	}
	for i, st := range starts {
		end := len(inner)
		if i+1 < len(starts) {
			end = starts[i+1][0]
		}
		chunk := bytes.TrimSpace(inner[st[0]:end])
		line := lineAt(data, innerStart+st[0])
		var names []string
		for _, m := range namesRE.FindAllSubmatch(chunk, 3) {
			names = append(names, string(m[1])+" "+strings.TrimSpace(string(m[2])))
		}
		rej := Rejected{Index: i + 1, Line: line, Names: strings.Join(names, ", ")}
		fixed, repairs := repair(chunk)
		tx, err := parseTransaction(fixed, line)
		if err != nil {
			rej.Reason = "not readable XML: " + err.Error()
			res.Rejected = append(res.Rejected, rej)
			continue
		}
		for _, r := range repairs {
			res.Repairs = append(res.Repairs, fmt.Sprintf("transaction %d (line %d%s): %s", i+1, line, prefixComma(rej.Names), r))
		}
		res.Transactions = append(res.Transactions, tx)
	}
	return res, nil
}

func prefixComma(s string) string {
	if s == "" {
		return ""
	}
	return ", " + s
}

// lineAt is the 1-based line of byte offset off.
func lineAt(data []byte, off int) int { return 1 + bytes.Count(data[:off], []byte("\n")) }

// parseTransaction reads one <transaction> element: its child elements'
// text in document order. Anything after its end tag, a missing end tag or
// a mismatched tag is an error (with the line within the answer).
func parseTransaction(chunk []byte, line int) (Transaction, error) {
	tx := Transaction{Fields: map[string]string{}, Repeated: map[string][]string{}, Line: line}
	dec := xml.NewDecoder(bytes.NewReader(chunk))
	depth := 0
	closed := false
	var text strings.Builder
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				return tx, fmt.Errorf("line %d: %s", line+se.Line-1, se.Msg)
			}
			return tx, err
		}
		if closed {
			if cd, ok := tok.(xml.CharData); ok && len(bytes.TrimSpace(cd)) == 0 {
				continue
			}
			return tx, fmt.Errorf("content after </transaction>")
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			text.Reset()
			if depth == 1 && t.Name.Local != "transaction" {
				return tx, fmt.Errorf("<%s> where <transaction> was expected", t.Name.Local)
			}
		case xml.CharData:
			text.Write(t)
		case xml.EndElement:
			if depth == 2 {
				name, value := t.Name.Local, strings.TrimSpace(text.String())
				if first, seen := tx.Fields[name]; seen {
					if tx.Repeated[name] == nil {
						tx.Repeated[name] = []string{first}
					}
					tx.Repeated[name] = append(tx.Repeated[name], value)
				} else {
					tx.Fields[name] = value
					tx.Order = append(tx.Order, name)
				}
			}
			depth--
			text.Reset()
			if depth == 0 {
				closed = true
			}
		}
	}
	if !closed {
		return tx, fmt.Errorf("<transaction> is not closed")
	}
	return tx, nil
}

// parseWhole reads an answer in one pass (the envelope, or an answer
// without a transactions element).
func parseWhole(data []byte) (*Response, error) {
	fixed, repairs := repair(data)
	dec := xml.NewDecoder(bytes.NewReader(fixed))
	res := &Response{Repairs: repairs}
	var stack []string
	var text strings.Builder
	var tx *Transaction
	var crit *Criterion
	inTransactions := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("checkbook: response is not readable XML: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			name := t.Name.Local
			text.Reset()
			switch {
			case name == "transaction" && inTransactions:
				line, _ := dec.InputPos()
				tx = &Transaction{Fields: map[string]string{}, Repeated: map[string][]string{}, Line: line}
			case strings.HasSuffix(name, "_transactions"):
				inTransactions = true
			case name == "criteria" && tx == nil:
				crit = &Criterion{}
			}
			stack = append(stack, name)
		case xml.CharData:
			text.Write(t)
		case xml.EndElement:
			name := t.Name.Local
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			parent := ""
			if len(stack) > 0 {
				parent = stack[len(stack)-1]
			}
			value := strings.TrimSpace(text.String())
			switch {
			case tx != nil && name == "transaction":
				res.Transactions = append(res.Transactions, *tx)
				tx = nil
			case tx != nil && parent == "transaction":
				if first, seen := tx.Fields[name]; seen {
					if tx.Repeated[name] == nil {
						tx.Repeated[name] = []string{first}
					}
					tx.Repeated[name] = append(tx.Repeated[name], value)
				} else {
					tx.Fields[name] = value
					tx.Order = append(tx.Order, name)
				}
			case strings.HasSuffix(name, "_transactions"):
				inTransactions = false
			case name == "result" && parent == "status":
				res.Status = value
			case (name == "message" || name == "description") && value != "":
				res.Messages = append(res.Messages, value)
			case name == "record_count":
				fmt.Sscan(value, &res.RecordCount)
			case name == "type_of_data" && parent == "request":
				res.Request.TypeOfData = value
			case name == "records_from" && parent == "request":
				fmt.Sscan(value, &res.Request.RecordsFrom)
			case name == "max_records" && parent == "request":
				fmt.Sscan(value, &res.Request.MaxRecords)
			case name == "column" && parent == "response_columns":
				res.Request.Columns = append(res.Request.Columns, value)
			case crit != nil && parent == "criteria":
				switch name {
				case "name":
					crit.Name = value
				case "type":
					crit.Type = value
				case "value":
					crit.Value = value
				case "start":
					crit.Start = value
				case "end":
					crit.End = value
				}
			case crit != nil && name == "criteria":
				res.Request.Criteria = append(res.Request.Criteria, *crit)
				crit = nil
			}
			text.Reset()
		}
	}
	if res.Status == "" && res.Request.TypeOfData == "" && len(res.Transactions) == 0 {
		return nil, fmt.Errorf("checkbook: not a Checkbook NYC API response (no status, request or transactions)")
	}
	return res, nil
}

// ParseRequest reads a request document (the samples' *.request.xml).
func ParseRequest(data []byte) (Request, error) {
	var r Request
	fixed, _ := repair(data)
	if err := xml.Unmarshal(fixed, &r); err != nil {
		return r, fmt.Errorf("checkbook: request is not readable XML: %w", err)
	}
	r.TypeOfData = strings.TrimSpace(r.TypeOfData)
	return r, nil
}
