package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

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
	status, ok := statusOf[code]
	if !ok {
		status = http.StatusInternalServerError
	}
	c.Header("Cache-Control", "no-store")
	c.AbortWithStatusJSON(status, errorBody{Error: e})
}

func (s *Server) notFoundRoute(c *gin.Context) {
	writeError(c, record.Errorf(record.ENOTFOUND, "no such endpoint: %s", c.Request.URL.Path))
}

func (s *Server) methodNotAllowed(c *gin.Context) {
	c.Header("Cache-Control", "no-store")
	c.AbortWithStatusJSON(http.StatusMethodNotAllowed, errorBody{Error: record.Error{
		Code: record.EINVALID, Message: "method " + c.Request.Method + " is not allowed here"}})
}
