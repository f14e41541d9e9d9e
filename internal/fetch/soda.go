package fetch

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
)

// SODAPage is one answer of a SODA (Socrata Open Data API 2.x) resource.
type SODAPage struct {
	URL    string // the request, $offset included
	Offset int    // rows before this page
	Body   []byte
}

// SODA reads a Socrata resource page by page with $limit and $offset, the
// one paging rule of every Open Data source (City Record, payroll, the
// governance roster, ZAP projects and lots). Query holds the rest of the
// request; its $order must be a total order (a column that is unique, or
// ":id"), or pages would overlap. Header is sent with every request (the
// app token, Accept).
type SODA struct {
	Client *Client // nil: New()
	URL    string
	Query  url.Values
	Size   int // rows per page, 1 to 50,000
	Header http.Header
}

// Each fetches page after page and calls page with each answer; page
// returns how many rows the answer held (what it could read or not). It
// stops after an answer with fewer rows than Size, and at the first error
// from the server (after the client's retries), from page or from ctx.
func (s SODA) Each(ctx context.Context, page func(SODAPage) (int, error)) error {
	client := s.Client
	if client == nil {
		client = New()
	}
	if s.Size < 1 || s.Size > 50000 {
		return fmt.Errorf("fetch: SODA page size %d is out of range (1-50,000)", s.Size)
	}
	q := url.Values{}
	for k, vs := range s.Query {
		q[k] = append([]string(nil), vs...)
	}
	q.Set("$limit", strconv.Itoa(s.Size))
	for offset := 0; ; {
		q.Set("$offset", strconv.Itoa(offset))
		u := s.URL + "?" + q.Encode()
		resp, err := client.Get(ctx, u, s.Header)
		if err != nil {
			return fmt.Errorf("fetching rows %d-%d: %w", offset+1, offset+s.Size, err)
		}
		n, err := page(SODAPage{URL: u, Offset: offset, Body: resp.Body})
		if err != nil {
			return err
		}
		if n < s.Size {
			return nil
		}
		offset += n
	}
}
