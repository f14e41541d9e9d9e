package api

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/api/web"
	"github.com/recordwatch/recordwatch/internal/record"
)

// statusOf is the one table from error code to HTTP status.
var statusOf = map[string]int{
	record.ENOTFOUND:    http.StatusNotFound,
	record.EUNAVAILABLE: http.StatusServiceUnavailable,
	record.EINVALID:     http.StatusBadRequest,
	record.ELIMIT:       http.StatusTooManyRequests,
	record.ETOOLARGE:    http.StatusRequestEntityTooLarge,
	record.ENOSPACE:     http.StatusInsufficientStorage, // a write refused: the data directory's disk is full
	record.EINTERNAL:    http.StatusInternalServerError,
}

// storeWriteFailed is the error a route answers when a state-store write
// it needed failed: the store's own ENOSPACE (507: the disk is full) as
// it is, anything else EUNAVAILABLE (503) with the route's message; the
// store's error is the cause, for the log.
func storeWriteFailed(err error, message string) error {
	if record.ErrorCode(err) == record.ENOSPACE {
		return err
	}
	return &record.Error{Code: record.EUNAVAILABLE, Message: message, Cause: err}
}

// errorBody is the one error shape:
// {"error": {"code", "message", "param", "trace_id"}}.
type errorBody struct {
	Error errorDetail `json:"error"`
}

// errorDetail is an error as the client sees it.
type errorDetail struct {
	record.Error
	// TraceID is the response's X-Request-Id, on internal errors (5xx)
	// only: the service's log line of the error names it. (Not a City
	// Record request id, which this API calls request_id.)
	TraceID string `json:"trace_id,omitempty"`
	// Absence says, on a by-id read's 404, why no such record is held
	// (absence_byid.go: the typed absence of one record).
	Absence *record.EmptyAnswer `json:"absence,omitempty"`
}

// Internal errors (5xx) tell the client their code, this service's own
// message (an internal one: this fixed message) and a trace id; an
// engine's or a store's own text (record.Error's Cause) goes to the log
// only.
const internalMessage = "internal error (the trace id names this failure in the service's log)"

// requestKey is the gin context key of a request's requestInfo.
const requestKey = "recordwatch.request"

// requestInfo is what writeError needs to log an internal error.
type requestInfo struct {
	id  string
	log *slog.Logger
}

// requestID gives every request an id, sent as X-Request-Id; an internal
// error is logged with it, and its body carries it as trace_id.
func (s *Server) requestID() gin.HandlerFunc {
	return func(c *gin.Context) {
		ri := &requestInfo{id: newRequestID(), log: s.deps.Logger}
		c.Set(requestKey, ri)
		c.Header("X-Request-Id", ri.id)
		c.Next()
	}
}

// newRequestID is 16 random hex digits.
func newRequestID() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// requestOf is the request's requestInfo (one made on the spot, logging to
// slog's default, for a context the middleware did not see).
func requestOf(c *gin.Context) *requestInfo {
	if v, ok := c.Get(requestKey); ok {
		if ri, ok := v.(*requestInfo); ok {
			return ri
		}
	}
	ri := &requestInfo{id: newRequestID(), log: slog.Default()}
	c.Set(requestKey, ri)
	c.Header("X-Request-Id", ri.id)
	return ri
}

// errorOf is the status and body of err, the one rule every error
// response follows: a 4xx says what was wrong (code, message, parameter);
// a 5xx is logged with the route and the request id, and its body says
// only its code, a fixed message and the trace id.
func errorOf(c *gin.Context, err error) (int, errorBody) {
	status := httpStatus(err)
	d := errorDetail{Error: record.Error{Code: record.ErrorCode(err), Message: record.ErrorMessage(err)}}
	if re := (*record.Error)(nil); errors.As(err, &re) {
		d.Param, d.MessageKey = re.Param, re.MessageKey
	}
	if status < http.StatusInternalServerError {
		if d.Code == record.ENOTFOUND {
			d.Absence = absenceOf(c)
		}
		return status, errorBody{Error: d}
	}
	ri := requestOf(c)
	route := c.FullPath()
	if route == "" {
		route = "(no route)"
	}
	level := slog.LevelError
	if d.Code == record.EUNAVAILABLE {
		level = slog.LevelWarn
	}
	ri.log.Log(c.Request.Context(), level, "internal error", "route", route, "method", c.Request.Method,
		"path", c.Request.URL.Path, "status", status, "code", d.Code, "request_id", ri.id, "err", errText(err))
	d.Param, d.TraceID = "", ri.id
	// a record.Error's message is this service's own words (an engine's
	// or a store's are its Cause, logged above); anything else is internal
	if d.Code == record.EINTERNAL {
		d.Message, d.MessageKey = internalMessage, record.Note{}
	}
	return status, errorBody{Error: d}
}

func errText(err error) string {
	if err == nil {
		return "no error value (a panic)"
	}
	return err.Error()
}

// writeError answers the request with err (errorOf) as JSON, never cached,
// and stops its handlers.
func writeError(c *gin.Context, err error) {
	status, body := errorOf(c, err)
	if err == errBusy { // admission.go: the expensive requests' pool is full
		c.Header("Retry-After", strconv.Itoa(admissionRetry))
	}
	if pageAsked(c.Request) {
		writeErrorPage(c, status, body.Error)
		return
	}
	renderJSON(c, status, body, noStore, time.Time{})
	c.Abort()
}

// pageAsked reports whether a refused request wants its answer as a page:
// a browser asked for HTML (wantsHTML) at an address outside the JSON API
// and the MCP endpoint, whose answers are JSON whoever asks.
func pageAsked(r *http.Request) bool {
	p := r.URL.Path
	if p == "/api" || strings.HasPrefix(p, "/api/") || p == "/mcp" || strings.HasPrefix(p, "/mcp/") {
		return false
	}
	return wantsHTML(r)
}

// writeErrorPage answers a refused request a browser asked for as a page
// in the site's words (web.Error), never cached; a not-found says it in
// words, not with the path refused.
func writeErrorPage(c *gin.Context, status int, d errorDetail) {
	msg, key := d.Message, d.MessageKey
	if status == http.StatusNotFound || status >= http.StatusInternalServerError {
		msg, key = "", record.Note{}
	}
	if status >= http.StatusInternalServerError && d.TraceID != "" {
		c.Header("X-Request-Id", d.TraceID)
	}
	lang := c.GetString(langKey)
	title := web.Word(lang, "error.refused")
	switch {
	case status == http.StatusNotFound:
		title = web.Word(lang, "error.notfound")
	case status == http.StatusBadRequest:
		title = web.Word(lang, "error.invalid")
	case status == http.StatusTooManyRequests:
		title = web.Word(lang, "error.busy")
	case status >= http.StatusInternalServerError:
		title = web.Word(lang, "error.failed")
	}
	writeHTML(c, status, web.Page{Kind: web.Error, Title: title, Robots: "noindex", Data: web.ErrorData{Status: status, Message: msg, MessageKey: key}}, time.Time{})
	c.Abort()
}

// writeErrorAs answers with a client error e under a status its code does
// not map to in statusOf (403 for a cross-site write, 405 for a method).
func writeErrorAs(c *gin.Context, status int, e record.Error) {
	if pageAsked(c.Request) {
		writeErrorPage(c, status, errorDetail{Error: e})
		return
	}
	renderJSON(c, status, errorBody{Error: errorDetail{Error: e}}, noStore, time.Time{})
	c.Abort()
}

// httpStatus is the HTTP status of an error (statusOf; 500 for a code it
// does not list).
func httpStatus(err error) int {
	if status, ok := statusOf[record.ErrorCode(err)]; ok {
		return status
	}
	return http.StatusInternalServerError
}

// writeHTML renders a server-side page with the site's security headers:
// a page is cached as cacheShort with its ETag and Last-Modified, an error
// page is never cached.
func writeHTML(c *gin.Context, status int, p web.Page, lastModified time.Time) {
	web.SecurityHeaders(c.Writer.Header())
	cache := cacheShort
	if status != http.StatusOK {
		cache = noStore
	}
	renderPage(c, status, p, cache, lastModified)
}

// renderPage renders p (web.Render: the one layout around the page kind's
// content) into a buffer first — a template error is a JSON error, never
// half a page — and writes it with its cache profile's headers.
func renderPage(c *gin.Context, status int, p web.Page, cache cacheProfile, lastModified time.Time) {
	if b, ok := c.Get(bannerKey); ok && p.Banner == nil {
		p.Banner = b.(func() *web.Banner)()
	}
	if status == http.StatusNotFound && p.Absence == nil {
		p.Absence = absenceOf(c) // a by-id page's 404 says why (absence_byid.go)
	}
	var buf bytes.Buffer
	pageContext(c, status, &p) // web_routes.go: the language and the page's own address
	if err := web.Render(&buf, p); err != nil {
		status, body := errorOf(c, err) // JSON: an error page that cannot render must not try again
		renderJSON(c, status, body, noStore, time.Time{})
		c.Abort()
		return
	}
	render(c, status, "text/html; charset=utf-8", web.KeepLang(buf.Bytes(), p.Lang, c.GetString(baseKey)), cache, lastModified)
}

func (s *Server) notFoundRoute(c *gin.Context) {
	writeError(c, record.Errorf(record.ENOTFOUND, "no such endpoint: %s", c.Request.URL.Path))
}

func (s *Server) methodNotAllowed(c *gin.Context) {
	writeErrorAs(c, http.StatusMethodNotAllowed, record.Error{Code: record.EINVALID, Message: "method " + c.Request.Method + " is not allowed here"})
}
