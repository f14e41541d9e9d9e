// Package osclient is the one OpenSearch connection both users of a cluster
// share: the search engine (internal/search/opensearch) and the state store
// (internal/store/osstore). It builds the client from a Config (a URL or a
// comma-separated list of node URLs, credentials, an optional transport),
// retries what a cluster losing or regaining a node answers (429, 502-504,
// a lost connection, a timeout) on the next node with backoff, and sends a
// request with Do, which reads the answer and maps failures:
//
//   - a cluster that cannot be reached, answers 5xx or 429, has lost the
//     index (index_not_found_exception) or blocks it
//     (cluster_block_exception) is record.EUNAVAILABLE ("<What> could not
//     answer …");
//   - any other non-2xx answer is an *APIError ("<Name>: <op>: status N: …");
//   - a 2xx answer that does not decode is a plain error.
package osclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/opensearch-project/opensearch-go/v4"
	"github.com/opensearch-project/opensearch-go/v4/opensearchapi"

	"github.com/recordwatch/recordwatch/internal/record"
)

// MaxRetries is how many times a request is sent again after a retryable
// failure (see Config.DisableRetry): the waits add up to 3.1 s, enough to
// ride out a cluster-manager election or a node leaving a cluster.
const MaxRetries = 5

// Config says how to reach the cluster and how errors read.
type Config struct {
	// URL of the cluster, e.g. http://localhost:9200, or of several of its
	// nodes separated by commas (see Addresses).
	URL      string
	Username string
	Password string
	// Transport replaces the HTTP transport (tests, TLS settings).
	Transport http.RoundTripper
	// DisableRetry turns off the client's retries: on 429, 502, 503 and
	// 504 answers, a lost or refused connection and a network timeout, a
	// request is sent up to MaxRetries more times (on the next node when
	// there are several), after the waits of Backoff.
	DisableRetry bool

	// Name starts the texts of plain errors ("opensearch" gives
	// "opensearch: <op>: status 400: …").
	Name string
	// What is the subject of EUNAVAILABLE messages ("the search index"
	// gives "the search index could not answer (<op>): …").
	What string
}

// Client sends requests to one cluster. It is safe for concurrent use.
type Client struct {
	api  *opensearchapi.Client
	name string
	what string
}

// New checks cfg.URL (see Addresses) and builds the client. It sends
// nothing: a cluster that cannot be reached shows on the first Do.
func New(cfg Config) (*Client, error) {
	addrs, err := Addresses(cfg.URL)
	if err != nil {
		return nil, err
	}
	noDiscovery := false
	api, err := opensearchapi.NewClient(opensearchapi.Config{Client: opensearch.Config{
		Addresses:            addrs,
		Username:             cfg.Username,
		Password:             cfg.Password,
		Transport:            cfg.Transport,
		DisableRetry:         cfg.DisableRetry,
		RetryOnStatus:        []int{http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout},
		EnableRetryOnTimeout: true, // every request the users send is safe to repeat
		MaxRetries:           MaxRetries,
		RetryBackoff:         Backoff,
		DiscoverNodesOnStart: &noDiscovery,
	}})
	if err != nil {
		return nil, fmt.Errorf("%s: client: %w", cfg.Name, err)
	}
	return &Client{api: api, name: cfg.Name, what: cfg.What}, nil
}

// Close releases the client.
func (c *Client) Close() error { return c.api.Close() }

// Addresses splits a URL setting into the client's node list: one URL or
// several separated by commas, blanks around each ignored, empty entries
// skipped. Each must be an absolute http or https URL with a host (a path,
// e.g. behind a proxy, is kept). Errors are EINVALID and never show a
// password.
func Addresses(raw string) ([]string, error) {
	var out []string
	for _, a := range strings.Split(raw, ",") {
		a = strings.TrimSpace(a)
		if a == "" {
			continue
		}
		u, err := url.Parse(a)
		if err != nil {
			// the message leaves the entry out: it may hold a password
			return nil, record.Invalid("opensearch_url", "OpenSearch URL %d of %d does not parse as a URL", len(out)+1, strings.Count(raw, ",")+1)
		}
		if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, record.Invalid("opensearch_url", "%q is not an http:// or https:// URL of an OpenSearch node (several are separated by commas)", u.Redacted())
		}
		out = append(out, a)
	}
	if len(out) == 0 {
		return nil, record.Invalid("opensearch_url", "the OpenSearch URL is required")
	}
	return out, nil
}

// DefaultIndexPrefix names the indexes when no prefix is set.
const DefaultIndexPrefix = "recordwatch"

var prefixRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_.-]{0,200}$`)

// IndexPrefix checks the prefix of index and alias names: lower-case
// letters, digits, '-', '_' and '.', starting with a letter or digit;
// empty means DefaultIndexPrefix. Errors are EINVALID.
func IndexPrefix(prefix string) (string, error) {
	if prefix == "" {
		prefix = DefaultIndexPrefix
	}
	if !prefixRE.MatchString(prefix) {
		return "", record.Invalid("index_prefix", "index prefix %q must be lower-case letters, digits, '-', '_' or '.', starting with a letter or digit", prefix)
	}
	return prefix, nil
}

// Backoff waits 100 ms, 200 ms, 400 ms … (at most 2 s) before retry
// attempt n (from 1), so a busy cluster (429) or one restarting
// (502/503/504) is not hammered.
func Backoff(attempt int) time.Duration {
	return min(100*time.Millisecond<<min(max(attempt-1, 0), 5), 2*time.Second)
}

// Do sends one request and decodes a 2xx JSON answer into out (when out is
// not nil; numbers into an any as json.Number). Statuses listed in accept
// are returned without an error; their body is decoded into out if it
// fits. Failures are mapped as the package comment says; a cancelled ctx
// is "<Name>: <op>: " and ctx.Err().
func (c *Client) Do(ctx context.Context, op, method string, req opensearch.Request, out any, accept ...int) (int, error) {
	resp, err := c.api.Client.Do(ctx, method, req, nil)
	if err != nil && ctx.Err() != nil {
		return 0, fmt.Errorf("%s: %s: %w", c.name, op, ctx.Err())
	}
	if resp == nil {
		if err == nil {
			err = errors.New("no response")
		}
		return 0, c.unavailable(op, err)
	}
	var body []byte
	if resp.Body != nil {
		body, _ = io.ReadAll(resp.Body)
		_ = resp.Body.Close()
	}
	if err != nil {
		// a response came back with an error: retries ran out, or the body
		// could not be read
		if resp.StatusCode >= 300 {
			return resp.StatusCode, c.Error(op, resp.StatusCode, body)
		}
		return resp.StatusCode, c.unavailable(op, err)
	}
	status := resp.StatusCode
	success := status >= 200 && status < 300
	if !success && !slices.Contains(accept, status) {
		return status, c.Error(op, status, body)
	}
	if out != nil && len(bytes.TrimSpace(body)) > 0 {
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		if err := dec.Decode(out); err != nil && success {
			return status, fmt.Errorf("%s: %s: unreadable answer (status %d): %w", c.name, op, status, err)
		}
		// an accepted error status may carry another shape: out is best effort
	}
	return status, nil
}

// Error is the error a non-2xx answer (status, body) to op maps to:
// EUNAVAILABLE for 5xx, 429, a missing index or a cluster block, else the
// *APIError.
func (c *Client) Error(op string, status int, body []byte) error {
	ae := ParseError(c.name, op, status, body)
	switch {
	case ae.Status >= 500, ae.Status == http.StatusTooManyRequests,
		ae.Type == "index_not_found_exception", ae.Type == "cluster_block_exception":
		return record.CouldNotAnswer(c.what, ae)
	}
	return ae
}

// unavailable wraps a transport failure as an EUNAVAILABLE record error.
func (c *Client) unavailable(op string, err error) error {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return fmt.Errorf("%s: %w", op, err) // the request's deadline or client, said as such (record.ErrorMessage)
	}
	return record.CouldNotAnswer(c.what, fmt.Errorf("%s: %w", op, err))
}

// APIError is a non-2xx answer from the cluster.
type APIError struct {
	Name   string // Config.Name, which starts the text
	Op     string
	Status int
	Type   string
	Reason string
}

func (e *APIError) Error() string {
	s := fmt.Sprintf("%s: %s: status %d", e.Name, e.Op, e.Status)
	if e.Type != "" {
		s += ": " + e.Type
	}
	if e.Reason != "" {
		s += ": " + e.Reason
	}
	return s
}

// ParseError reads the error body shapes OpenSearch uses:
// {"error":{"type":..,"reason":..},"status":N} and {"error":"..","status":N};
// another body becomes the Reason, cut at 300 bytes.
func ParseError(name, op string, status int, body []byte) *APIError {
	e := &APIError{Name: name, Op: op, Status: status}
	var v struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &v) == nil && len(v.Error) > 0 {
		var s string
		var o struct {
			Type      string `json:"type"`
			Reason    string `json:"reason"`
			RootCause []struct {
				Type   string `json:"type"`
				Reason string `json:"reason"`
			} `json:"root_cause"`
		}
		switch {
		case json.Unmarshal(v.Error, &s) == nil:
			e.Reason = s
		case json.Unmarshal(v.Error, &o) == nil:
			e.Type, e.Reason = o.Type, o.Reason
			if len(o.RootCause) > 0 && o.RootCause[0].Reason != "" && o.RootCause[0].Reason != o.Reason {
				e.Reason += " (" + o.RootCause[0].Type + ": " + o.RootCause[0].Reason + ")"
			}
		}
	}
	if e.Reason == "" && e.Type == "" && len(body) > 0 {
		e.Reason = Truncate(strings.TrimSpace(string(body)), 300)
	}
	return e
}

// Truncate cuts s after n bytes, marking the cut with "…".
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
