package api

import (
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/watch"
)

// A plain-English request and its structured equivalent (the filters the
// parser produces, set field by field) make the same filter and preview the
// same records, through GET and POST alike; a value no rule accepts is a
// 400 naming the field and the accepted values.
func TestWatchStructuredEqualsPlainEnglish(t *testing.T) {
	e := newWatchEnv(t, 1, nil)
	preview := func(method string, q url.Values, body any) (PreviewResponse, string) {
		t.Helper()
		var res *http.Response
		var out string
		if method == "GET" {
			res, out = httpDo(t, "GET", e.ts.URL+"/api/watches/preview?"+q.Encode(), "", "")
		} else {
			b, _ := json.Marshal(body)
			res, out = httpDo(t, "POST", e.ts.URL+"/api/watches/preview", "application/json", string(b))
		}
		if res.StatusCode != 200 {
			t.Fatalf("%s preview %v %v: %d %s", method, q, body, res.StatusCode, out)
		}
		return decode[PreviewResponse](t, []byte(out)), out
	}
	for _, tc := range []struct {
		text  string
		query url.Values     // GET
		body  map[string]any // POST, the same
		hits  bool           // the sample holds matches
	}{
		{"construction bids over $100k due in the next 3 months",
			url.Values{"lens": {"money"}, "bids": {"true"}, "min": {"100k"}, "category": {"construction"}, "within": {"3 months"}},
			map[string]any{"lens": "money", "bids": true, "min": 100000, "category": []string{"construction"}, "within": "3 months"}, false},
		{"construction bids",
			url.Values{"lens": {"money"}, "category": {"Construction"}},
			map[string]any{"lens": "money", "category": []string{"construction"}}, true},
		{"M/WBE professional services solicitations from Parks due this year",
			url.Values{"lens": {"money"}, "agency": {"Parks"}, "category": {"professional services"}, "requirement": {"M/WBE"}, "until": {"2026-12-31"}},
			map[string]any{"lens": "money", "agency": []string{"Parks"}, "category": []string{"professional_services"}, "requirement": []string{"mwbe"},
				"from": "2026-01-01", "until": "2026-12-31"}, false},
		{"Parks construction awards over $1 million in 2026",
			url.Values{"lens": {"money"}, "agency": {"Parks"}, "awards": {"true"}, "min": {"1m"}, "category": {"construction"}, "from": {"2026-01-01"}, "until": {"2026-12-31"}},
			map[string]any{"lens": "money", "agency": []string{"Parks"}, "awards": true, "min": 1000000, "category": []string{"construction"},
				"from": "2026-01-01", "until": "2026-12-31"}, false},
		{"small business goods and services solicitations due by the end of the year",
			url.Values{"lens": {"money"}, "category": {"goods,services"}, "requirement": {"small_business"}, "until": {"2026-12-31"}},
			map[string]any{"lens": "money", "category": []string{"goods", "services"}, "requirement": []string{"small business"}, "until": "2026-12-31"}, false},
		{"construction awards in 2014",
			url.Values{"lens": {"money"}, "awards": {"1"}, "category": {"construction"}, "from": {"2014-01-01"}, "until": {"2014-12-31"}},
			map[string]any{"lens": "money", "awards": true, "category": []string{"construction"}, "from": "2014-01-01", "until": "2014-12-31"}, true},
		{"goods awards over $100k in 2014",
			url.Values{"lens": {"money"}, "awards": {"true"}, "min": {"100000"}, "category": {"goods"}, "from": {"2014-01-01"}, "until": {"2014-12-31"}},
			map[string]any{"lens": "money", "awards": true, "min": "100k", "category": []string{"Goods"}, "from": "2014-01-01", "until": "2014-12-31"}, true},
		{"small business awards",
			url.Values{"lens": {"money"}, "awards": {"true"}, "requirement": {"small business"}},
			map[string]any{"lens": "money", "awards": true, "requirement": []string{"small_business"}}, true},
		{"human services awards",
			url.Values{"lens": {"money"}, "awards": {"true"}, "category": {"human_services"}},
			map[string]any{"lens": "money", "awards": true, "category": []string{"Human Services"}}, true},
		{"services awards in 2026",
			url.Values{"lens": {"money"}, "awards": {"true"}, "category": {"services"}, "from": {"2026-01-01"}, "until": {"2026-12-31"}},
			map[string]any{"lens": "money", "awards": true, "category": []string{"services"}, "from": "2026-01-01", "until": "2026-12-31"}, true},
		{"construction bids due this year",
			url.Values{"lens": {"money"}, "category": {"construction"}, "from": {"2026-01-01"}, "until": {"2026-12-31"}},
			map[string]any{"lens": "money", "category": []string{"construction"}, "until": "2026-12-31"}, true},
		{"hearings in the next 2 weeks in Brooklyn",
			url.Values{"lens": {"meetings"}, "borough": {"Brooklyn"}, "within": {"2 weeks"}},
			map[string]any{"lens": "meetings", "borough": []string{"Brooklyn"}, "within": "2 weeks"}, true},
		{"rezonings this year",
			url.Values{"lens": {"land"}, "from": {"2026-01-01"}, "until": {"2026-12-31"}},
			map[string]any{"lens": "land", "from": "2026-01-01", "until": "2026-12-31"}, true},
	} {
		plain, _ := preview("GET", url.Values{"text": {tc.text}}, nil)
		// the preview's own structured request makes the same watch (the
		// site's form fills its fields from it)
		if plain.Request == nil {
			t.Errorf("%q: the preview gives no structured request", tc.text)
		} else if again, raw := preview("POST", nil, plain.Request); !reflect.DeepEqual(plain.Understood.Filter, again.Understood.Filter) || plain.Total != again.Total {
			t.Errorf("%q: its request makes another watch\nplain   %+v\nrequest %+v\n%s", tc.text, plain.Understood.Filter, again.Understood.Filter, raw)
		}
		for _, method := range []string{"GET", "POST"} {
			got, raw := preview(method, tc.query, tc.body)
			if !reflect.DeepEqual(plain.Understood.Filter, got.Understood.Filter) || plain.Understood.Scope != got.Understood.Scope {
				t.Errorf("%q %s: filter\nplain      %+v %q\nstructured %+v %q", tc.text, method, plain.Understood.Filter, plain.Understood.Scope, got.Understood.Filter, got.Understood.Scope)
			}
			if plain.Total != got.Total || !reflect.DeepEqual(plain.Hits, got.Hits) || !reflect.DeepEqual(plain.Meetings, got.Meetings) {
				t.Errorf("%q %s: %d hits, structured %d\n%s", tc.text, method, plain.Total, got.Total, raw)
			}
			if tc.hits && got.Total == 0 {
				t.Errorf("%q %s: no matches in the sample", tc.text, method)
			}
		}
	}
	for _, tc := range []struct {
		query       string
		param, says string
	}{
		{"lens=money&category=plumbing", "category", "construction, goods, services, professional services, human services"},
		{"lens=money&requirement=veteran", "requirement", "mwbe, small_business"},
		{"lens=land&category=goods", "category", "lens money"},
		{"lens=money&within=3+fortnights", "within", "days, weeks, months or years"},
		{"lens=money&awards=true&within=3+months", "within", "from and until"},
		{"lens=money&bids=true&awards=true", "bids", "exclude each other"},
		{"lens=money&bids=maybe", "bids", "true or false"},
		{"lens=money&from=08%2F01%2F2026", "from", "YYYY-MM-DD"},
		{"text=construction+bids&category=goods", "text", "not both"},
	} {
		res, out := httpDo(t, "GET", e.ts.URL+"/api/watches/preview?"+tc.query, "", "")
		eb := decode[errorBody](t, []byte(out))
		if res.StatusCode != 400 || eb.Error.Param != tc.param || !strings.Contains(eb.Error.Message, tc.says) {
			t.Errorf("%s: %d %s", tc.query, res.StatusCode, out)
		}
	}
	// create: the structured watch is stored as the English one reads
	body := `{"email":"bids@example.org","lens":"money","bids":true,"min":"100k","category":["construction"],"within":"3 months"}`
	res, out := httpDo(t, "POST", e.ts.URL+"/api/watches", "application/json", body)
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d %s", res.StatusCode, out)
	}
	plain, _ := preview("GET", url.Values{"text": {"construction bids over $100k due in the next 3 months"}}, nil)
	if v := decode[watch.Created](t, []byte(out)); !reflect.DeepEqual(v.Understood.Filter, plain.Understood.Filter) || v.Understood.Scope != plain.Understood.Scope {
		t.Errorf("created %+v %q, plain %+v", v.Understood.Filter, v.Understood.Scope, plain.Understood.Filter)
	}
}

// A watch request's amounts are one type (watch.Amount, in the one
// structured request watch.FieldRequest the API input embeds): a number or
// a string of dollars ("100k", "$100,000", "0.1m") through POST and GET
// alike, null for none; anything else is a 400 naming min or max.
func TestWatchAmountInputs(t *testing.T) {
	e := newWatchEnv(t, 1, nil)
	for _, c := range []struct {
		body string
		get  string
		min  any // the understood filter's min_amount (nil: none)
	}{
		{`{"lens":"money","min":100000}`, "", 100000.0},
		{`{"lens":"money","min":"100k"}`, "lens=money&min=100k", 100000.0},
		{`{"lens":"money","min":"$100,000"}`, "lens=money&min=%24100%2C000", 100000.0},
		{`{"lens":"money","min":"0.1m","max":"2B"}`, "lens=money&min=0.1m&max=2B", 100000.0},
		{`{"lens":"money","min":null}`, "lens=money&min=", nil},
	} {
		for _, r := range []struct{ method, url, body string }{
			{"POST", "/api/watches/preview", c.body}, {"GET", "/api/watches/preview?" + c.get, ""},
		} {
			if r.method == "GET" && c.get == "" {
				continue
			}
			res, out := httpDo(t, r.method, e.ts.URL+r.url, "application/json", r.body)
			var p struct {
				Understood struct {
					Filter map[string]any `json:"filter"`
				} `json:"understood"`
				Request map[string]any `json:"request"`
			}
			if res.StatusCode != 200 || json.Unmarshal([]byte(out), &p) != nil {
				t.Errorf("%s %s %s: %d %.300s", r.method, r.url, r.body, res.StatusCode, out)
				continue
			}
			if got := p.Understood.Filter["min_amount"]; got != c.min || p.Request["min"] != c.min {
				t.Errorf("%s %s: min %v, request min %v, want %v", r.method, r.body+r.url, got, p.Request["min"], c.min)
			}
		}
	}
	for _, c := range []struct{ method, path, body, param string }{
		{"POST", "/api/watches/preview", `{"lens":"money","min":true}`, "min"},
		{"POST", "/api/watches/preview", `{"lens":"money","min":"lots"}`, "min"},
		{"POST", "/api/watches/preview", `{"lens":"money","min":[1]}`, "min"},
		{"POST", "/api/watches/preview", `{"lens":"money","min":"100k","max":{}}`, "max"},
		{"POST", "/api/watches/preview", `{"lens":"money","min":"-5"}`, "min"},
		{"GET", "/api/watches/preview?lens=money&max=lots", "", "max"},
	} {
		res, out := httpDo(t, c.method, e.ts.URL+c.path, "application/json", c.body)
		eb := decode[errorBody](t, []byte(out))
		if want := c.param + ` must be an amount in dollars, such as 500000 or "1.5m"`; res.StatusCode != 400 || eb.Error.Param != c.param || eb.Error.Message != want {
			t.Errorf("%s %s %s: %d %s", c.method, c.path, c.body, res.StatusCode, out)
		}
	}
}
