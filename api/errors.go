package api

import (
	"bytes"
	"html/template"
	"net/http"
	"strconv"
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
	record.EINTERNAL:    http.StatusInternalServerError,
}

// errorBody is the one error shape: {"error": {"code", "message", "param"}}.
type errorBody struct {
	Error record.Error `json:"error"`
}

func writeError(c *gin.Context, err error) {
	code := record.ErrorCode(err)
	e := record.Error{Code: code, Message: record.ErrorMessage(err)}
	if re, ok := err.(*record.Error); ok {
		e.Param = re.Param
	}
	c.Header("Cache-Control", "no-store")
	if err == errBusy { // admission.go: the expensive requests' pool is full
		c.Header("Retry-After", strconv.Itoa(admissionRetry))
	}
	c.AbortWithStatusJSON(httpStatus(err), errorBody{Error: e})
}

// httpStatus is the HTTP status of an error (statusOf; 500 for a code it
// does not list).
func httpStatus(err error) int {
	if status, ok := statusOf[record.ErrorCode(err)]; ok {
		return status
	}
	return http.StatusInternalServerError
}

// writeHTML renders a server-side page: security headers, the template
// executed into a buffer (a template error is a JSON error, never half a
// page), then either an uncached error page or the cached page with its
// ETag and Last-Modified (render).
func writeHTML(c *gin.Context, status int, tmpl *template.Template, data any, lastModified time.Time) {
	web.SecurityHeaders(c.Writer.Header())
	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, data); err != nil {
		writeError(c, err)
		return
	}
	if status != http.StatusOK {
		c.Header("Cache-Control", "no-store")
		c.Data(status, "text/html; charset=utf-8", buf.Bytes())
		return
	}
	render(c, status, "text/html; charset=utf-8", buf.Bytes(), CacheProfiles, lastModified)
}

func (s *Server) notFoundRoute(c *gin.Context) {
	writeError(c, record.Errorf(record.ENOTFOUND, "no such endpoint: %s", c.Request.URL.Path))
}

func (s *Server) methodNotAllowed(c *gin.Context) {
	c.Header("Cache-Control", "no-store")
	c.AbortWithStatusJSON(http.StatusMethodNotAllowed, errorBody{Error: record.Error{
		Code: record.EINVALID, Message: "method " + c.Request.Method + " is not allowed here"}})
}
