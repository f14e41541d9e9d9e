package api

import (
	"compress/gzip"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"
	"github.com/gin-gonic/gin"
)

// compress answers brotli (br) to a client that accepts it, else gzip to
// one that accepts that, for the text the
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
	w := &gzipWriter{ResponseWriter: c.Writer}
	if r.Method != http.MethodHead && r.Header.Get("Range") == "" {
		w.encoding = chooseEncoding(r)
	}
	c.Writer = w
	defer w.close()
	c.Next()
}

// compressMin is the smallest body compressed (when its length is known
// beforehand): below it gzip's header and the client's work cost more
// than they save.
const compressMin = 512

var (
	gzipPool = sync.Pool{New: func() any { w, _ := gzip.NewWriterLevel(nil, gzip.DefaultCompression); return w }}
	// brotli at level 5: near gzip's speed on a page, a smaller body
	brotliPool = sync.Pool{New: func() any { return brotli.NewWriterLevel(nil, 5) }}
)

// chooseEncoding is the encoding an answer to r may use: "br" when the
// request accepts brotli, else "gzip" when it accepts gzip, else "" (an
// encoding refused with q=0 is not accepted; "*" accepts both).
func chooseEncoding(r *http.Request) string {
	accepted := map[string]bool{}
	refused := map[string]bool{}
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "" {
			continue
		}
		if q, ok := strings.CutPrefix(strings.ReplaceAll(params, " ", ""), "q="); ok {
			if v, err := strconv.ParseFloat(q, 64); err == nil && v == 0 {
				refused[name] = true
				continue
			}
		}
		accepted[name] = true
	}
	for _, enc := range []string{"br", "gzip"} {
		if !refused[enc] && (accepted[enc] || accepted["*"]) {
			return enc
		}
	}
	return ""
}

// encoder is a compressing stream (gzip or brotli).
type encoder interface {
	io.Writer
	Flush() error
	Close() error
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
	encoding string // "br", "gzip" or "" (the client accepts neither)
	decided  bool
	gz       encoder
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
	if w.encoding == "" || status == http.StatusNoContent || status == http.StatusNotModified || status < 200 {
		return
	}
	if n, err := strconv.Atoi(h.Get("Content-Length")); err == nil && n < compressMin {
		return
	}
	h.Del("Content-Length")
	h.Set("Content-Encoding", w.encoding)
	if w.encoding == "br" {
		bw := brotliPool.Get().(*brotli.Writer)
		bw.Reset(w.ResponseWriter)
		w.gz = bw
		return
	}
	gw := gzipPool.Get().(*gzip.Writer)
	gw.Reset(w.ResponseWriter)
	w.gz = gw
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

// close ends the compressed stream (its footer) and returns the writer
// to its pool.
func (w *gzipWriter) close() {
	switch z := w.gz.(type) {
	case *gzip.Writer:
		_ = z.Close()
		z.Reset(nil)
		gzipPool.Put(z)
	case *brotli.Writer:
		_ = z.Close()
		z.Reset(nil)
		brotliPool.Put(z)
	}
	w.gz = nil
}
