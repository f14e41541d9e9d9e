package api

import (
	"compress/gzip"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/gin-gonic/gin"
)

// compress answers gzip to a client that accepts it, for the text the
// service writes — pages, JSON, CSS, scripts, feeds, calendars, SVG —
// and says so with Vary: Accept-Encoding on every such answer, compressed
// or not (a cache keeps one of each). Not compressed: event streams (the
// MCP stream, which must reach its client as it is written), anything
// already encoded or not text (images, archives), a range request, an
// answer without a body (HEAD, 204, 304) and one too small to gain
// (compressMin, when its length is known). The ETag stays the body's own
// (the encoding is a transfer detail every cache keys by Vary), so a
// validator revalidates whichever encoding the client holds, and HEAD,
// GET and 304 name the same one.
func (s *Server) compress(c *gin.Context) {
	r := c.Request
	w := &gzipWriter{ResponseWriter: c.Writer, accepts: acceptsGzip(r) && r.Method != http.MethodHead && r.Header.Get("Range") == ""}
	c.Writer = w
	defer w.close()
	c.Next()
}

// compressMin is the smallest body compressed (when its length is known
// beforehand): below it gzip's header and the client's work cost more
// than they save.
const compressMin = 512

var gzipPool = sync.Pool{New: func() any { w, _ := gzip.NewWriterLevel(nil, gzip.DefaultCompression); return w }}

// acceptsGzip reports whether the request accepts gzip (not refused with
// q=0).
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), "gzip") && strings.TrimSpace(name) != "*" {
			continue
		}
		if q, ok := strings.CutPrefix(strings.ReplaceAll(params, " ", ""), "q="); ok {
			if v, err := strconv.ParseFloat(q, 64); err == nil && v == 0 {
				return false
			}
		}
		return true
	}
	return false
}

// compressible reports whether a content type is text worth compressing
// (never an event stream).
func compressible(contentType string) bool {
	t, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false
	}
	switch {
	case t == "text/event-stream":
		return false
	case strings.HasPrefix(t, "text/"), t == "application/json", t == "application/javascript", t == "image/svg+xml", t == "application/xml",
		strings.HasSuffix(t, "+json"), strings.HasSuffix(t, "+xml"):
		return true
	}
	return false
}

// addVary adds a name to the answer's Vary, as one header line.
func addVary(h http.Header, name string) {
	var names []string
	for _, v := range h.Values("Vary") {
		for _, n := range strings.Split(v, ",") {
			if n = strings.TrimSpace(n); n != "" && !strings.EqualFold(n, name) {
				names = append(names, n)
			}
		}
	}
	h.Set("Vary", strings.Join(append(names, name), ", "))
}

// gzipWriter decides at the first byte (or header) written whether the
// answer is compressed: by then its content type and status are known.
type gzipWriter struct {
	gin.ResponseWriter
	accepts bool
	decided bool
	gz      *gzip.Writer
}

func (w *gzipWriter) decide() {
	if w.decided {
		return
	}
	w.decided = true
	h := w.ResponseWriter.Header()
	if !compressible(h.Get("Content-Type")) || h.Get("Content-Encoding") != "" {
		return
	}
	addVary(h, "Accept-Encoding")
	status := w.ResponseWriter.Status()
	if !w.accepts || status == http.StatusNoContent || status == http.StatusNotModified || status < 200 {
		return
	}
	if n, err := strconv.Atoi(h.Get("Content-Length")); err == nil && n < compressMin {
		return
	}
	h.Del("Content-Length")
	h.Set("Content-Encoding", "gzip")
	w.gz = gzipPool.Get().(*gzip.Writer)
	w.gz.Reset(w.ResponseWriter)
}

func (w *gzipWriter) WriteHeaderNow() {
	w.decide()
	w.ResponseWriter.WriteHeaderNow()
}

func (w *gzipWriter) Write(b []byte) (int, error) {
	w.decide()
	if w.gz == nil {
		return w.ResponseWriter.Write(b)
	}
	w.ResponseWriter.WriteHeaderNow()
	return w.gz.Write(b)
}

func (w *gzipWriter) WriteString(s string) (int, error) { return w.Write([]byte(s)) }

func (w *gzipWriter) Flush() {
	w.decide()
	if w.gz != nil {
		_ = w.gz.Flush()
	}
	w.ResponseWriter.Flush()
}

// close ends the gzip stream (its footer) and returns the writer to the
// pool.
func (w *gzipWriter) close() {
	if w.gz != nil {
		_ = w.gz.Close()
		w.gz.Reset(nil)
		gzipPool.Put(w.gz)
		w.gz = nil
	}
}
