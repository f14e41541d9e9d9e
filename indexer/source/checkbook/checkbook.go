// Package checkbook reads Checkbook NYC, the NYC Comptroller's payments
// transparency dataset, through its XML API, and turns its transactions
// into search.Entry values the entity views join to City Record notices:
// contracts (registered and pending), payments (spending) and payroll.
//
// The API takes a POSTed XML request (type_of_data, records_from,
// max_records, search_criteria, response_columns) and answers with the
// request echoed, a record_count and the transactions. ParseResponse reads
// such an answer; it tolerates what the official documentation samples show
// (a bare "&" in "STATEN ISLAND 1&3 GARAGE", an end tag written
// "</original_amount&gt", a repeated <version> element) and reports each
// repair. In transactions "-" and empty elements mean "no value".
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

// ParseResponse reads an API answer (or a documentation sample of one).
func ParseResponse(data []byte) (*Response, error) {
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
