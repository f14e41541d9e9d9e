package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recordwatch/recordwatch/internal/record"
)

// Bounded tool results (issue 46): every tool result is at most
// ResultLimit bytes as sent (its structuredContent and the text content
// that repeats it, together). A longer answer is cut at a record boundary:
// whole records are left out of the tool's record lists (never a part of a
// record or of a string), and the answer says so in truncated and
// continuation, whose cursor is the tool's own cursor argument. Calling
// the tool again with the same arguments and that cursor answers the same
// question again and returns the records after those already given.
//
// It is done once, for every tool, where the tools are served: recordLists
// says where each tool's records are in its answer (JSON paths, in answer
// order); newTool declares the fields in each tool's schemas, and the
// server's middleware (boundResults) cuts the answers.

// ResultLimit is the bound of one tool result as sent: 64 KiB.
const ResultLimit = 64 << 10

// The fields a cut answer adds, and the argument its cursor goes in.
const (
	fieldTruncated    = "truncated"
	fieldContinuation = "continuation"
	fieldContinued    = "continued"
	cursorArg         = "cursor"
	// continuationPrefix marks a continuation cursor
	// ("more.<records given>.<arguments hash>.<the tool's own cursor>");
	// the tools' own cursors are base64url and never hold a dot.
	continuationPrefix = "more."
)

// recordLists are, per tool, the lists of records in its answer (dotted
// JSON paths, in the order the answer gives them). A cut keeps a prefix of
// their concatenation. A tool not listed has no records to cut: an answer
// of it over the bound is a tool error (none is on the sample).
var recordLists = map[string][]string{
	"search_notices":             {"results", "meetings.meetings", "roster"},
	"get_notice":                 {"prior_cycle.matches", "payments.totals.entries", "payments.related_by_prefix.entries", "payments.linked", "payments.payments", "matter.timeline"},
	"search_federated":           {"results"},
	"get_entity_dossier":         {"vendor.awards.notices", "vendor.awards.top_vendors", "vendor.awards.agencies", "vendor.payments.entries", "agency.notices.recent", "agency.awards.notices", "agency.awards.top_vendors", "agency.awards.agencies", "agency.payments.entries", "agency.disagreements", "vendor.relations", "agency.relations"},
	"get_entity_relationships":   {"relations"},
	"retrieve_cited_passages":    {"passages"},
	"get_contract":               {"rows", "payments.payments", "matter.timeline"},
	"browse_contracts":           {"contracts"},
	"analyze_contracts":          {"groups", "agency_labels.labels"},
	"get_land_project":           {"hearings", "events", "meetings", "project.milestones", "project.lots"},
	"browse_land_projects":       {"projects"},
	"get_land_decision_path":     {"decision_path.hearings", "decision_path.observed", "decision_path.normative"},
	"get_meeting":                {"meeting.land_projects", "meeting.land_use_applications"},
	"browse_meetings":            {"meetings", "excluded_unknown_start.meetings"},
	"get_person_or_organization": {"releases", "positions.years"},
	"browse_organizations":       {"rows"},
	"browse_civil_service":       {"records"},
	"preview_watch":              {"results", "meetings.meetings", "land_projects.items", "roster"},
}

// Records are the record lists of the tool's answer, where a cut leaves
// records out (nil: the tool's answers have none).
func (t Tool) Records() []string { return slices.Clone(t.records) }

// continuationReason is what continuation.reason says.
const continuationReason = "the answer was cut at 64 KiB (the bound of one tool result); call the same tool with the same " +
	"arguments and cursor set to continuation.cursor for the rest of this answer (a next_cursor in the answer continues " +
	"after the whole answer, not after this part)"

// Continuation is what a cut answer says about the records left out.
type Continuation struct {
	// Cursor continues this answer (absent when only oversized records
	// were left out).
	Cursor string `json:"cursor,omitempty"`
	// Argument names the argument the cursor goes in.
	Argument string `json:"argument"`
	Reason   string `json:"reason"`
	// Returned counts the records in this answer, Remaining those after
	// them, across Lists.
	Returned  int      `json:"returned"`
	Remaining int      `json:"remaining"`
	Lists     []string `json:"lists"`
	// Omitted are records too large to fit in any part beside the
	// answer's other fields: left out, the continuation goes on after
	// them.
	Omitted []OmittedRecord `json:"omitted,omitempty"`
}

// OmittedRecord is a record too large for any part of its answer: its
// list and its index there (in the whole answer), and its size.
type OmittedRecord struct {
	List  string `json:"list"`
	Index int    `json:"index"`
	Bytes int    `json:"bytes"`
}

// Continued says that an answer continues a cut one.
type Continued struct {
	Skipped int    `json:"skipped"`
	Note    string `json:"note"`
}

// declareBound adds to a tool's schemas what a cut answer carries: the
// optional cursor argument (kept as the tool's own where it has one) and
// the truncated, continuation and continued fields (additive: no
// published field changes).
func declareBound(in, out *jsonschema.Schema) {
	if p, ok := in.Properties[cursorArg]; ok {
		p.Description = strings.TrimSuffix(p.Description, ".") + ", or continuation.cursor of an answer that was cut at 64 KiB."
	} else {
		if in.Properties == nil {
			in.Properties = map[string]*jsonschema.Schema{}
		}
		in.Properties[cursorArg] = &jsonschema.Schema{Type: "string", MaxLength: ptr(record.MaxCursorLen),
			Description: "continuation.cursor of an answer that was cut at 64 KiB (the bound of one tool result), with the same other arguments: returns the rest of that answer."}
	}
	if out.Properties == nil {
		out.Properties = map[string]*jsonschema.Schema{}
	}
	str := func(d string) *jsonschema.Schema { return &jsonschema.Schema{Type: "string", Description: d} }
	integer := func(d string) *jsonschema.Schema { return &jsonschema.Schema{Type: "integer", Description: d} }
	out.Properties[fieldTruncated] = &jsonschema.Schema{Type: "boolean",
		Description: "true when this answer was cut at 64 KiB (the bound of one tool result): whole records were left out; continuation says how to read them."}
	out.Properties[fieldContinuation] = &jsonschema.Schema{Type: "object",
		Description: "Present when the answer was cut: the cursor that continues it (an argument of this tool), why, and how many records this part holds and how many follow.",
		Properties: map[string]*jsonschema.Schema{
			"cursor":    str("Pass as the cursor argument, with the same other arguments, for the rest of this answer."),
			"argument":  str("The argument the cursor goes in."),
			"reason":    str("Why the answer was cut."),
			"returned":  integer("Records in this part, across lists."),
			"remaining": integer("Records after this part, across lists."),
			"lists":     {Type: "array", Items: str("A list of records (dotted path in this answer)."), Description: "The lists of records that were cut, in answer order."},
			"omitted": {Type: "array", Description: "Records too large to fit in any part beside the answer's other fields, left out (read each by its own tool or route).",
				Items: &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{
					"list": str("The record's list."), "index": integer("The record's index in that list of the whole answer."),
					"bytes": integer("Its size serialized."),
				}, Required: []string{"list", "index", "bytes"}}},
		},
		Required: []string{"argument", "reason", "returned", "remaining", "lists"}}
	out.Properties[fieldContinued] = &jsonschema.Schema{Type: "object",
		Description: "Present when this answer continues a cut one: how many records earlier parts gave (left out here).",
		Properties:  map[string]*jsonschema.Schema{"skipped": integer("Records given by earlier parts."), "note": str("What this part holds.")},
		Required:    []string{"skipped", "note"}}
}

// bounder cuts the answers of one server's tools.
type bounder struct {
	limit int
	tools map[string]boundTool
	// meta is what the SDK adds to a result after the middleware: the
	// server's identity in _meta (SEP-2575), counted in every size.
	meta int
}

// boundTool is what the middleware knows of one tool.
type boundTool struct {
	lists  []string
	native bool // the tool has a cursor of its own
}

// boundResults is the middleware of a server with these tools: it reads
// a continuation cursor before a call and bounds the result after it.
func boundResults(d *Deps, impl *sdk.Implementation, tools []Tool) sdk.Middleware {
	b := &bounder{limit: ResultLimit, tools: map[string]boundTool{}}
	if m, err := json.Marshal(map[string]any{"_meta": map[string]any{sdk.MetaKeyServerInfo: impl}}); err == nil {
		b.meta = len(m) - 1 // `"_meta":{…},` in an object that has other fields
	}
	if d.ResultLimit > 0 {
		b.limit = d.ResultLimit
	}
	for _, t := range tools {
		if t.records != nil {
			b.tools[t.Def.Name] = boundTool{lists: t.records, native: t.ownCursor}
		}
	}
	return func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			call, ok := req.(*sdk.CallToolRequest)
			if method != "tools/call" || !ok || call.Params == nil {
				return next(ctx, method, req)
			}
			bt := b.tools[call.Params.Name]
			var cont continuation
			if bt.lists != nil {
				var errRes *sdk.CallToolResult
				if cont, errRes = readContinuation(call.Params, bt.native); errRes != nil {
					return errRes, nil
				}
			}
			res, err := next(ctx, method, req)
			r, ok := res.(*sdk.CallToolResult)
			if err != nil || !ok || r == nil {
				return res, err
			}
			return b.bound(r, bt.lists, cont), nil
		}
	}
}

// continuation is a call's place in a cut answer: the records already
// given, the hash of the other arguments and the tool's own cursor.
type continuation struct {
	skip   int
	key    string // hash of the call's other arguments and native cursor
	native string
}

// readContinuation takes a continuation cursor out of a call's arguments:
// the tool's own cursor (if it has one: native) goes back in its place. A
// cursor of a call with other arguments, or any other cursor given to a
// tool that has none of its own, is refused naming the argument.
func readContinuation(p *sdk.CallToolParamsRaw, native bool) (continuation, *sdk.CallToolResult) {
	var args map[string]any
	if len(p.Arguments) > 0 && json.Unmarshal(p.Arguments, &args) != nil {
		return continuation{}, nil // the SDK refuses it
	}
	c, _ := args[cursorArg].(string)
	delete(args, cursorArg)
	cont := continuation{native: c}
	if rest, ok := strings.CutPrefix(c, continuationPrefix); ok {
		parts := strings.SplitN(rest, ".", 3)
		skip, err := strconv.Atoi(parts[0])
		if len(parts) != 3 || err != nil || skip < 1 {
			return cont, refuse("cursor is not a valid continuation cursor; call again without it")
		}
		cont = continuation{skip: skip, native: parts[2]}
		if parts[1] != argsKey(args, cont.native) || (!native && cont.native != "") {
			return cont, refuse("this continuation cursor belongs to a call with other arguments; repeat that call's arguments with it, or call again without it")
		}
	} else if !native && c != "" {
		return cont, refuse("this tool's cursor is only the continuation.cursor of an answer of it that was cut at 64 KiB")
	}
	cont.key = argsKey(args, cont.native)
	if cont.native != "" {
		args[cursorArg] = cont.native
	}
	if cont.skip > 0 {
		p.Arguments, _ = json.Marshal(args)
	}
	return cont, nil
}

// argsKey is the hash of a call's arguments other than the cursor, with
// its own cursor: a continuation cursor is good only for the same call.
func argsKey(args map[string]any, native string) string {
	b, _ := json.Marshal(args) // keys sorted, numbers as float64: 50 and 50.0 are one call
	h := fnv.New32a()
	h.Write(b)
	h.Write([]byte{0})
	h.Write([]byte(native))
	return fmt.Sprintf("%08x", h.Sum32())
}

func refuse(msg string) *sdk.CallToolResult {
	var r sdk.CallToolResult
	r.SetError(fmt.Errorf("%s: invalid argument %q: %s", record.EINVALID, cursorArg, msg))
	return &r
}

// size is the size of a result as sent, with the _meta the SDK adds.
func (b *bounder) size(r *sdk.CallToolResult) int {
	out, err := json.Marshal(r)
	if err != nil {
		return 0
	}
	if r.Meta == nil {
		return len(out) + b.meta
	}
	return len(out)
}

// slot is one record list found in an answer.
type slot struct {
	path   string
	parent map[string]any
	key    string
	items  []any
}

// bound returns r within the limit: as it is when it fits and continues
// nothing, else with records left out of its lists.
func (b *bounder) bound(r *sdk.CallToolResult, lists []string, cont continuation) *sdk.CallToolResult {
	if (cont.skip == 0 || r.IsError) && b.size(r) <= b.limit {
		return r
	}
	raw, ok := r.StructuredContent.(json.RawMessage)
	if r.IsError || !ok || lists == nil {
		return b.tooLarge(r)
	}
	var tree map[string]any
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber() // numbers exactly as the SDK wrote them
	if dec.Decode(&tree) != nil {
		return b.tooLarge(r)
	}
	// the records, in answer order, after those earlier parts gave
	type entry struct {
		slot, index int
		value       any
		cost        int
	}
	var slots []*slot
	var entries []entry
	for _, path := range lists {
		s := find(tree, path)
		if s == nil {
			continue
		}
		for i, v := range s.items {
			entries = append(entries, entry{slot: len(slots), index: i, value: v})
		}
		slots = append(slots, s)
	}
	skip := min(cont.skip, len(entries))
	entries = entries[skip:]
	for _, s := range slots {
		s.parent[s.key] = []any{}
	}
	// the answer without records, with the largest fields a cut adds
	cut := func(given []entry, omitted []OmittedRecord, remaining int) {
		for _, s := range slots {
			s.parent[s.key] = []any{}
		}
		for _, e := range given {
			s := slots[e.slot]
			s.parent[s.key] = append(s.parent[s.key].([]any), e.value)
		}
		delete(tree, fieldTruncated)
		delete(tree, fieldContinuation)
		delete(tree, fieldContinued)
		if cont.skip > 0 {
			tree[fieldTruncated] = false
			tree[fieldContinued] = Continued{Skipped: skip, Note: fmt.Sprintf("this part continues an answer that was cut: "+
				"its first %d records (across its lists) were given before and are left out here", skip)}
		}
		if remaining > 0 || len(omitted) > 0 {
			c := Continuation{Argument: cursorArg, Reason: continuationReason, Returned: len(given), Remaining: remaining, Omitted: omitted}
			for _, s := range slots {
				c.Lists = append(c.Lists, s.path)
			}
			if remaining > 0 {
				c.Cursor = fmt.Sprintf("%s%d.%s.%s", continuationPrefix, skip+len(given)+len(omitted), cont.key, cont.native)
			} else {
				c.Reason = "records too large to fit in any part of this answer beside its other fields were left out (continuation.omitted); read each by its own tool or route"
			}
			tree[fieldTruncated] = true
			tree[fieldContinuation] = c
		}
	}
	render := func() int {
		out, err := json.Marshal(tree)
		if err != nil {
			return b.limit + 1
		}
		r.StructuredContent = json.RawMessage(out)
		r.Content = []sdk.Content{&sdk.TextContent{Text: string(out)}}
		return b.size(r)
	}
	cut(nil, nil, len(entries))
	base := render()
	if base > b.limit {
		return b.tooLarge(r)
	}
	// take records while they fit (each costs its JSON twice: structured
	// and escaped in the text); one that fits in no part is left out
	avail := b.limit - base
	var given []entry
	var omitted []OmittedRecord
	used, n := 0, 0
	for ; n < len(entries); n++ {
		e := entries[n]
		v, _ := json.Marshal(e.value)
		q, _ := json.Marshal(string(v))
		cost := len(v) + len(q) + 2
		if cost > avail {
			if len(given) > 0 {
				break // it starts the next part
			}
			omitted = append(omitted, OmittedRecord{List: slots[e.slot].path, Index: e.index, Bytes: len(v)})
			continue
		}
		if used+cost > avail {
			break
		}
		used += cost
		given = append(given, e)
	}
	for {
		cut(given, omitted, len(entries)-n)
		if render() <= b.limit || len(given) == 0 {
			break
		}
		given, n = given[:len(given)-1], n-1 // the estimate was short: one record fewer
	}
	if b.size(r) > b.limit {
		return b.tooLarge(r)
	}
	return r
}

// find is the record list at a dotted path of an answer (nil when the
// answer has none there).
func find(tree map[string]any, path string) *slot {
	m := tree
	keys := strings.Split(path, ".")
	for _, k := range keys[:len(keys)-1] {
		next, ok := m[k].(map[string]any)
		if !ok {
			return nil
		}
		m = next
	}
	k := keys[len(keys)-1]
	items, ok := m[k].([]any)
	if !ok {
		return nil
	}
	return &slot{path: path, parent: m, key: k, items: items}
}

// tooLarge is the tool error of an answer that cannot be cut within the
// bound.
func (b *bounder) tooLarge(r *sdk.CallToolResult) *sdk.CallToolResult {
	if !r.IsError {
		var e sdk.CallToolResult
		e.SetError(fmt.Errorf("%s: the answer is larger than the %d KiB bound of one tool result and cannot be cut at a record boundary; narrow the call (filters, a smaller limit)",
			record.ELIMIT, b.limit>>10))
		return &e
	}
	var e sdk.CallToolResult
	e.SetError(fmt.Errorf("%s: the error message is larger than the %d KiB bound of one tool result", record.EINTERNAL, b.limit>>10))
	return &e
}
