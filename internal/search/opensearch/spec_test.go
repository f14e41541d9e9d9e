package opensearch

import (
	"testing"
)

// The spec check is advisory (the spec has false results, see relaxSpec),
// but it must catch a wrong path, a wrong method, a body of the wrong shape
// and a mislabeled bulk body. These requests are each wrong in one way.
func TestSpecCatchesWrongRequests(t *testing.T) {
	search := []byte(`{"query":{"match_all":{}},"size":20}`)
	bulk := []byte("{\"index\":{\"_index\":\"recordwatch-notices\",\"_id\":\"A\"}}\n{\"request_id\":\"A\"}\n")
	good := []exchange{
		{Method: "POST", Path: "/recordwatch-notices/_search", ContentType: "application/json", raw: search},
		{Method: "POST", Path: "/_bulk", Query: "refresh=false&require_alias=true", ContentType: "application/x-ndjson", raw: bulk},
		{Method: "GET", Path: "/recordwatch-notices/_doc/A%2F1", Query: "_source_excludes=content"},
	}
	for _, ex := range good {
		if err := validateRequest(ex); err != nil {
			t.Errorf("%s %s: %v", ex.Method, ex.Path, err)
		}
	}
	bad := map[string]exchange{
		"misspelled path":      {Method: "POST", Path: "/recordwatch-notices/_serch", ContentType: "application/json", raw: search},
		"wrong method":         {Method: "PATCH", Path: "/recordwatch-notices/_search", ContentType: "application/json", raw: search},
		"delete on _aliases":   {Method: "DELETE", Path: "/_aliases"},
		"size as a string":     {Method: "POST", Path: "/recordwatch-notices/_search", ContentType: "application/json", raw: []byte(`{"size":"twenty"}`)},
		"unknown query param":  {Method: "POST", Path: "/recordwatch-notices/_search", Query: "track_total_hitz=true", ContentType: "application/json", raw: search},
		"bad refresh value":    {Method: "POST", Path: "/_bulk", Query: "refresh=sometimes", ContentType: "application/x-ndjson", raw: bulk},
		"bulk sent as json":    {Method: "POST", Path: "/_bulk", ContentType: "application/json", raw: bulk},
		"unknown bulk action":  {Method: "POST", Path: "/_bulk", ContentType: "application/x-ndjson", raw: []byte("{\"upsert\":{\"_index\":\"x\",\"_id\":\"A\"}}\n")},
		"bulk action id array": {Method: "POST", Path: "/_bulk", ContentType: "application/x-ndjson", raw: []byte("{\"delete\":{\"_index\":\"x\",\"_id\":[\"A\"]}}\n")},
		"aliases without body": {Method: "POST", Path: "/_aliases"},
	}
	for name, ex := range bad {
		if err := validateRequest(ex); err == nil {
			t.Errorf("%s: %s %s?%s passed the spec check", name, ex.Method, ex.Path, ex.Query)
		} else {
			t.Logf("%s: caught: %.160s", name, err)
		}
	}
}

// The fake's answers are checked against the spec's response schemas; a
// wrong shape must fail.
func TestSpecCatchesWrongResponses(t *testing.T) {
	ok := exchange{Method: "POST", Path: "/recordwatch-notices/_search", status: 200, response: []byte(emptyHits)}
	if err := validateResponse(ok); err != nil {
		t.Errorf("empty search answer: %v", err)
	}
	for name, ex := range map[string]exchange{
		"total as a string": {Method: "POST", Path: "/x/_search", status: 200,
			response: []byte(`{"took":1,"timed_out":false,"_shards":{"total":1,"successful":1,"failed":0},"hits":{"total":"many","hits":[]}}`)},
		"bulk items not a list": {Method: "POST", Path: "/_bulk", status: 200, response: []byte(`{"took":1,"errors":false,"items":{}}`)},
		"mget docs not a list":  {Method: "POST", Path: "/x/_mget", status: 200, response: []byte(`{"docs":"none"}`)},
	} {
		if err := validateResponse(ex); err == nil {
			t.Errorf("%s: passed the spec check", name)
		}
	}
}
