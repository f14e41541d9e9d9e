// Package fetch is the one polite HTTP client every source uses to read
// upstream data (Socrata, Checkbook, ZAP …). It identifies itself with a
// Recordwatch User-Agent, retries 429 and transient 5xx answers with
// exponential backoff while honoring Retry-After, stops when the context is
// cancelled, and refuses bodies larger than a size cap. Errors say what was
// asked, what came back and how many attempts were made.
package fetch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// UserAgent is sent on every request unless Client.UserAgent overrides it.
const UserAgent = "Recordwatch/0.1 (+https://github.com/recordwatch/recordwatch)"

// Defaults used when the corresponding Client field is zero.
const (
	DefaultMaxBytes   = 64 << 20 // 64 MiB per response body
	DefaultMaxRetries = 5
	DefaultBaseDelay  = time.Second
	DefaultMaxDelay   = 2 * time.Minute
	DefaultTimeout    = 2 * time.Minute
)

// ErrTooLarge is wrapped by the error returned when a response body exceeds
// the client's size cap.
var ErrTooLarge = errors.New("response body too large")

// StatusError is returned for a response whose status is not 2xx after all
// retries (or at once, for statuses that are not retried).
type StatusError struct {
	Method     string
	URL        string
	StatusCode int
	Status     string
	Body       string // the first bytes of the response body, for diagnosis
	Attempts   int
}

func (e *StatusError) Error() string {
	msg := fmt.Sprintf("fetch: %s %s: %s after %d attempt(s)", e.Method, e.URL, e.Status, e.Attempts)
	if e.Body != "" {
		msg += ": " + e.Body
	}
	return msg
}

// Temporary reports whether the status is one that is worth retrying later
// (429 or a transient 5xx).
func (e *StatusError) Temporary() bool { return retryable(e.StatusCode) }

// Client is a polite HTTP client. The zero value is usable; New returns one
// with the defaults filled in explicitly. A Client is safe for concurrent use
// as long as its fields are not changed while requests run.
type Client struct {
	// HTTP does the requests; nil means a client with DefaultTimeout.
	HTTP *http.Client
	// UserAgent overrides the UserAgent constant when set.
	UserAgent string
	// MaxBytes caps the size of a response body (DefaultMaxBytes when 0).
	MaxBytes int64
	// MaxRetries is how many times a failed attempt is retried
	// (DefaultMaxRetries when 0; negative means no retries).
	MaxRetries int
	// BaseDelay is the first backoff delay; it doubles on each retry
	// (DefaultBaseDelay when 0).
	BaseDelay time.Duration
	// MaxDelay caps a backoff delay. A Retry-After longer than MaxDelay is
	// not waited out: the request fails with the server's answer
	// (DefaultMaxDelay when 0).
	MaxDelay time.Duration
	// Header is added to every request (for example an app token).
	Header http.Header
	// Sleep waits between attempts; nil means a timer that stops early
	// when ctx is done. Tests inject a recorder.
	Sleep func(ctx context.Context, d time.Duration) error
	// Now is the clock used to read HTTP-date Retry-After values
	// (time.Now when nil).
	Now func() time.Time
}

// New returns a Client with the default settings.
func New() *Client {
	return &Client{
		HTTP:       &http.Client{Timeout: DefaultTimeout},
		UserAgent:  UserAgent,
		MaxBytes:   DefaultMaxBytes,
		MaxRetries: DefaultMaxRetries,
		BaseDelay:  DefaultBaseDelay,
		MaxDelay:   DefaultMaxDelay,
	}
}

// Response is a completely read response.
type Response struct {
	URL        string
	StatusCode int
	Header     http.Header
	Body       []byte
	Attempts   int
}

// Get fetches url with the client's headers plus header (which may be nil)
// and returns the whole body. Non-2xx answers are errors (*StatusError).
func (c *Client) Get(ctx context.Context, url string, header http.Header) (*Response, error) {
	return c.Do(ctx, http.MethodGet, url, header)
}

// Do performs a body-less request (GET or HEAD), retrying 429, 500, 502,
// 503, 504 and transport errors with exponential backoff. A Retry-After
// header (seconds or HTTP date) sets the least wait before the next attempt.
// It stops at once when ctx is done.
func (c *Client) Do(ctx context.Context, method, url string, header http.Header) (*Response, error) {
	return c.send(ctx, method, url, header, nil)
}

// Post sends body (the same bytes on every attempt) and returns the whole
// answer, retrying like Do. Use it only for requests that are safe to
// repeat, such as the query APIs that take their query as a POST body
// (Checkbook NYC); header should carry the Content-Type.
func (c *Client) Post(ctx context.Context, url string, body []byte, header http.Header) (*Response, error) {
	if body == nil {
		body = []byte{}
	}
	return c.send(ctx, http.MethodPost, url, header, body)
}

func (c *Client) send(ctx context.Context, method, url string, header http.Header, body []byte) (*Response, error) {
	maxRetries := c.MaxRetries
	if maxRetries == 0 {
		maxRetries = DefaultMaxRetries
	}
	if maxRetries < 0 {
		maxRetries = 0
	}
	var lastErr error
	for attempt := 1; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("fetch: %s %s: %w", method, url, err)
		}
		resp, wait, err := c.once(ctx, method, url, header, body, attempt)
		if err == nil {
			return resp, nil
		}
		lastErr = err
		if !isRetryable(ctx, err) || attempt > maxRetries {
			return nil, err
		}
		delay := c.backoff(attempt)
		if wait > 0 {
			if wait > c.maxDelay() {
				return nil, fmt.Errorf("%w (server asked to wait %s, more than the %s this client waits)", err, wait, c.maxDelay())
			}
			delay = max(delay, wait)
		}
		if err := c.sleep(ctx, delay); err != nil {
			return nil, fmt.Errorf("fetch: %s %s: %w (while waiting to retry after: %v)", method, url, err, lastErr)
		}
	}
}

// once does a single attempt. On a retryable status it also returns the
// wait the server asked for (Retry-After), if any.
func (c *Client) once(ctx context.Context, method, url string, header http.Header, body []byte, attempt int) (*Response, time.Duration, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return nil, 0, fmt.Errorf("fetch: %s %s: %w", method, url, err)
	}
	for k, vs := range c.Header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	for k, vs := range header {
		req.Header.Del(k)
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	ua := c.UserAgent
	if ua == "" {
		ua = UserAgent
	}
	req.Header.Set("User-Agent", ua)
	hc := c.HTTP
	if hc == nil {
		hc = &http.Client{Timeout: DefaultTimeout}
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, 0, &transportError{method: method, url: url, attempt: attempt, err: err}
	}
	defer resp.Body.Close()

	limit := c.maxBytes()
	if resp.ContentLength > limit {
		return nil, 0, fmt.Errorf("fetch: %s %s: %w: Content-Length %d exceeds the %d-byte cap", method, url, ErrTooLarge, resp.ContentLength, limit)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		snippet, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20)) // let the connection be reused
		se := &StatusError{
			Method:     method,
			URL:        url,
			StatusCode: resp.StatusCode,
			Status:     resp.Status,
			Body:       strings.TrimSpace(string(snippet)),
			Attempts:   attempt,
		}
		var wait time.Duration
		if retryable(resp.StatusCode) {
			wait = retryAfter(resp.Header.Get("Retry-After"), c.now())
		}
		return nil, wait, se
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, 0, &transportError{method: method, url: url, attempt: attempt, err: fmt.Errorf("reading body: %w", err)}
	}
	if int64(len(data)) > limit {
		return nil, 0, fmt.Errorf("fetch: %s %s: %w: body exceeds the %d-byte cap", method, url, ErrTooLarge, limit)
	}
	return &Response{URL: url, StatusCode: resp.StatusCode, Header: resp.Header, Body: data, Attempts: attempt}, 0, nil
}

// transportError is a failure to get any answer (connection refused or
// reset, timeout, truncated body). It is retried unless ctx is done.
type transportError struct {
	method, url string
	attempt     int
	err         error
}

func (e *transportError) Error() string {
	return fmt.Sprintf("fetch: %s %s (attempt %d): %v", e.method, e.url, e.attempt, e.err)
}

func (e *transportError) Unwrap() error { return e.err }

func isRetryable(ctx context.Context, err error) bool {
	if ctx.Err() != nil {
		return false
	}
	var se *StatusError
	if errors.As(err, &se) {
		return se.Temporary()
	}
	var te *transportError
	if errors.As(err, &te) {
		return !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)
	}
	return false
}

func retryable(code int) bool {
	switch code {
	case http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusBadGateway,
		http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// retryAfter reads a Retry-After value: delay-seconds or an HTTP date.
// It returns 0 when the header is absent or unreadable.
func retryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if secs, err := strconv.Atoi(v); err == nil {
		if secs < 0 {
			return 0
		}
		return time.Duration(secs) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// backoff is BaseDelay·2^(attempt-1), capped at MaxDelay.
func (c *Client) backoff(attempt int) time.Duration {
	base := c.BaseDelay
	if base <= 0 {
		base = DefaultBaseDelay
	}
	d := base
	for i := 1; i < attempt && d < c.maxDelay(); i++ {
		d *= 2
	}
	return min(d, c.maxDelay())
}

func (c *Client) maxDelay() time.Duration {
	if c.MaxDelay > 0 {
		return c.MaxDelay
	}
	return DefaultMaxDelay
}

func (c *Client) maxBytes() int64 {
	if c.MaxBytes > 0 {
		return c.MaxBytes
	}
	return DefaultMaxBytes
}

func (c *Client) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

func (c *Client) sleep(ctx context.Context, d time.Duration) error {
	if c.Sleep != nil {
		return c.Sleep(ctx, d)
	}
	return SleepContext(ctx, d)
}

// SleepContext waits for d or until ctx is done, whichever comes first.
func SleepContext(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
