package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/record"
)

// JSON-RPC 2.0 error codes.
const (
	jsonrpcParseError     = -32700
	jsonrpcInvalidRequest = -32600
	jsonrpcMethodNotFound = -32601
	jsonrpcInternalError  = -32603
)

// mcpMaxBody caps a POST /mcp body.
const mcpMaxBody = 1 << 20

type jsonrpcErrorBody struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   jsonrpcError    `json:"error"`
}

type jsonrpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// writeJSONRPCError answers with a JSON-RPC error object (id null).
func writeJSONRPCError(c *gin.Context, status, code int, msg string) {
	writeJSONRPCErrorID(c, status, nil, code, msg)
}

func writeJSONRPCErrorID(c *gin.Context, status int, id json.RawMessage, code int, msg string) {
	if !validRPCID(id) {
		id = json.RawMessage("null")
	}
	renderJSON(c, status, jsonrpcErrorBody{JSONRPC: "2.0", ID: id, Error: jsonrpcError{Code: code, Message: msg}}, noStore, time.Time{})
	c.Abort()
}

// validRPCID: a JSON-RPC id is a string, a number or null.
func validRPCID(id json.RawMessage) bool {
	if len(id) == 0 {
		return false
	}
	switch id[0] {
	case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'n':
		return json.Valid(id)
	}
	return false
}

// mcpTransport wraps the SDK's Streamable HTTP handler so that every answer
// a client gets from /mcp is JSON-RPC: the SDK answers transport-level
// failures (malformed JSON, an unknown method, a wrong Content-Type, a
// method other than POST) with plain text. Here:
//
//   - a body that is not JSON: 400, -32700 (parse error);
//   - valid JSON the SDK refuses as a message: its status, -32600;
//   - an unknown method: its status (400), -32601, with the request's id;
//   - a body over 1 MiB: 413, -32600.
//
// The Origin check (403) is sameOriginWrites', which runs before this.
func (s *Server) mcpTransport(inner http.Handler) gin.HandlerFunc {
	return func(c *gin.Context) {
		r := c.Request
		var id json.RawMessage
		var method string
		expensive := false
		if r.Method == http.MethodPost {
			if r.ContentLength > mcpMaxBody {
				writeJSONRPCError(c, http.StatusRequestEntityTooLarge, jsonrpcInvalidRequest, "request body is larger than "+strconv.Itoa(mcpMaxBody)+" bytes")
				return
			}
			body, err := io.ReadAll(http.MaxBytesReader(c.Writer, r.Body, mcpMaxBody))
			if err != nil {
				var tooLarge *http.MaxBytesError
				if errors.As(err, &tooLarge) {
					writeJSONRPCError(c, http.StatusRequestEntityTooLarge, jsonrpcInvalidRequest, "request body is larger than "+strconv.Itoa(mcpMaxBody)+" bytes")
					return
				}
				writeJSONRPCError(c, http.StatusBadRequest, jsonrpcParseError, "the request body could not be read")
				return
			}
			if !json.Valid(body) {
				writeJSONRPCError(c, http.StatusBadRequest, jsonrpcParseError, "parse error: the request body is not JSON")
				return
			}
			var probe struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
				Params struct {
					Name      string `json:"name"`
					Arguments struct {
						Mode       string `json:"mode"`
						ExactCount bool   `json:"exact_count"`
					} `json:"arguments"`
				} `json:"params"`
			}
			if json.Unmarshal(body, &probe) == nil {
				id, method = probe.ID, probe.Method
				a := probe.Params.Arguments
				expensive = method == "tools/call" && toolExpensive(probe.Params.Name, a.Mode, a.ExactCount)
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
		}
		// an expensive tool call takes a slot like an expensive route
		// (admission.go); past the queue it is a JSON-RPC error with 503
		// and Retry-After
		if expensive {
			release, err := s.gate.enter(r.Context())
			if err != nil {
				c.Header("Retry-After", strconv.Itoa(admissionRetry))
				writeJSONRPCErrorID(c, http.StatusServiceUnavailable, id, jsonrpcInternalError, record.ErrorMessage(err))
				return
			}
			defer release()
		}
		// the tools' per-client ceilings see the address the limiter saw
		r.Header.Set("X-Recordwatch-Client", clientKey(c))
		rec := &bufferedResponse{header: http.Header{}}
		inner.ServeHTTP(rec, r)
		if rec.status == 0 {
			rec.status = http.StatusOK
		}
		if rec.status >= 400 && !isJSONContentType(rec.header.Get("Content-Type")) {
			msg := strings.TrimSpace(rec.body.String())
			if len(msg) > 300 {
				msg = msg[:300]
			}
			msg = strings.ToValidUTF8(msg, "")
			code := jsonrpcInvalidRequest
			switch {
			case rec.status >= 500:
				code = jsonrpcInternalError
			case rec.status == http.StatusBadRequest && method != "" &&
				(strings.Contains(msg, "not handled") || strings.Contains(msg, "unsupported") || strings.Contains(msg, "method not found")):
				code, msg = jsonrpcMethodNotFound, "method not found: "+quoteHeader(method)
			}
			for k, v := range rec.header {
				if k != "Content-Type" && k != "Content-Length" && k != "X-Content-Type-Options" {
					c.Writer.Header()[k] = v
				}
			}
			writeJSONRPCErrorID(c, rec.status, id, code, msg)
			return
		}
		for k, v := range rec.header {
			c.Writer.Header()[k] = v
		}
		c.Status(rec.status)
		c.Writer.WriteHeaderNow()
		_, _ = c.Writer.Write(rec.body.Bytes())
	}
}

// bufferedResponse holds the SDK's answer until it is known to be JSON.
// /mcp runs stateless with JSON responses, so nothing streams.
type bufferedResponse struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (b *bufferedResponse) Header() http.Header { return b.header }

func (b *bufferedResponse) WriteHeader(status int) {
	if b.status == 0 {
		b.status = status
	}
}

func (b *bufferedResponse) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	return b.body.Write(p)
}
