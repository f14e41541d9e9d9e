package api

import (
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/gin-gonic/gin"
)

// gzGet asks path of e with Accept-Encoding: gzip set by hand (Go's client
// then leaves the body as sent), plus any header pairs given.
func gzGet(t *testing.T, url string, hdr ...string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Accept-Encoding", "gzip")
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, b
}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(strings.NewReader(string(b)))
	if err != nil {
		t.Fatalf("not gzip: %v", err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("bad gzip: %v", err)
	}
	return out
}

// Pages, JSON, CSS and scripts are sent gzip to a client that accepts it,
// with Vary: Accept-Encoding, and decode to exactly what an uncompressed
// request gets; a client that does not accept gzip gets the plain body
// with the same Vary; a compressed answer's ETag revalidates to 304.
func TestCompressTextWithVary(t *testing.T) {
	e := shared
	for _, c := range []struct{ path, ctype string }{
		{"/about", "text/html"},
		{"/api/search?q=construction", "application/json"},
		{"/static/app.css", "text/css"},
		{"/static/app.js", "text/javascript"},
		{"/feed.xml?lens=money", "xml"},
	} {
		res, body := gzGet(t, e.ts.URL+c.path)
		if res.StatusCode != 200 || res.Header.Get("Content-Encoding") != "gzip" || !strings.Contains(res.Header.Get("Vary"), "Accept-Encoding") ||
			!strings.Contains(res.Header.Get("Content-Type"), c.ctype) {
			t.Errorf("%s: %d encoding %q vary %q type %q", c.path, res.StatusCode, res.Header.Get("Content-Encoding"), res.Header.Get("Vary"), res.Header.Get("Content-Type"))
			continue
		}
		plainRes, plain := gzGet(t, e.ts.URL+c.path, "Accept-Encoding", "identity")
		if plainRes.Header.Get("Content-Encoding") != "" || !strings.Contains(plainRes.Header.Get("Vary"), "Accept-Encoding") {
			t.Errorf("%s without gzip: encoding %q vary %q", c.path, plainRes.Header.Get("Content-Encoding"), plainRes.Header.Get("Vary"))
		}
		if got := gunzip(t, body); string(got) != string(plain) {
			t.Errorf("%s: the gzip body decodes to %d bytes, the plain one is %d", c.path, len(got), len(plain))
		}
		if len(body) >= len(plain) {
			t.Errorf("%s: gzip %d bytes is not smaller than %d", c.path, len(body), len(plain))
		}
		if et := res.Header.Get("ETag"); et != "" {
			if again, _ := gzGet(t, e.ts.URL+c.path, "If-None-Match", et); again.StatusCode != http.StatusNotModified {
				t.Errorf("%s: revalidating %s answers %d, not 304", c.path, et, again.StatusCode)
			}
		}
	}
}

// Event streams, answers that are not text, range requests and HEAD are
// never compressed; an answer refusing gzip (q=0) gets it plain.
func TestCompressLeavesStreamsAndBinaries(t *testing.T) {
	s := &Server{}
	r := gin.New()
	r.Use(s.compress)
	long := strings.Repeat("data: tick\n\n", 200)
	r.GET("/events", func(c *gin.Context) {
		c.Header("Content-Type", "text/event-stream")
		c.Writer.WriteString(long)
		c.Writer.Flush()
	})
	r.GET("/png", func(c *gin.Context) { c.Data(200, "image/png", []byte(long)) })
	r.GET("/text", func(c *gin.Context) { c.Data(200, "text/plain; charset=utf-8", []byte(long)) })
	ts := httptest.NewServer(r)
	defer ts.Close()
	for _, path := range []string{"/events", "/png"} {
		res, body := gzGet(t, ts.URL+path)
		if res.Header.Get("Content-Encoding") != "" || string(body) != long || strings.Contains(res.Header.Get("Vary"), "Accept-Encoding") {
			t.Errorf("%s: encoding %q vary %q, %d bytes", path, res.Header.Get("Content-Encoding"), res.Header.Get("Vary"), len(body))
		}
	}
	if res, body := gzGet(t, ts.URL+"/text"); res.Header.Get("Content-Encoding") != "gzip" || string(gunzip(t, body)) != long {
		t.Errorf("text: encoding %q", res.Header.Get("Content-Encoding"))
	}
	for _, hdr := range [][]string{{"Accept-Encoding", "gzip;q=0"}, {"Range", "bytes=0-10"}} {
		if res, _ := gzGet(t, ts.URL+"/text", hdr...); res.Header.Get("Content-Encoding") != "" {
			t.Errorf("%v: compressed", hdr)
		}
	}
	req, _ := http.NewRequest("HEAD", ts.URL+"/text", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	if res, err := http.DefaultClient.Do(req); err != nil || res.Header.Get("Content-Encoding") != "" {
		t.Errorf("HEAD: %v %v", err, res.Header)
	}
}

// A client that accepts brotli gets br (preferred over gzip when both
// are accepted), decoding to exactly the plain body, smaller than gzip's,
// with one Vary: Accept-Encoding; refusing br (q=0) falls back to gzip.
func TestCompressBrotliPreferred(t *testing.T) {
	e := shared
	for _, path := range []string{"/about", "/api/search?q=construction", "/static/app.js", "/static/app.css"} {
		_, plain := gzGet(t, e.ts.URL+path, "Accept-Encoding", "identity")
		res, body := gzGet(t, e.ts.URL+path, "Accept-Encoding", "gzip, deflate, br")
		if res.StatusCode != 200 || res.Header.Get("Content-Encoding") != "br" {
			t.Errorf("%s: %d encoding %q", path, res.StatusCode, res.Header.Get("Content-Encoding"))
			continue
		}
		if v := res.Header.Values("Vary"); len(v) != 1 || strings.Count(v[0], "Accept-Encoding") != 1 {
			t.Errorf("%s: Vary %q, want one Accept-Encoding", path, v)
		}
		got, err := io.ReadAll(brotli.NewReader(strings.NewReader(string(body))))
		if err != nil || string(got) != string(plain) {
			t.Errorf("%s: brotli body decodes to %d bytes (%v), the plain one is %d", path, len(got), err, len(plain))
		}
		_, gz := gzGet(t, e.ts.URL+path)
		if len(body) >= len(gz) {
			t.Errorf("%s: brotli %d bytes is not smaller than gzip's %d", path, len(body), len(gz))
		}
		if res, _ := gzGet(t, e.ts.URL+path, "Accept-Encoding", "br;q=0, gzip"); res.Header.Get("Content-Encoding") != "gzip" {
			t.Errorf("%s: br refused, encoding %q, want gzip", path, res.Header.Get("Content-Encoding"))
		}
		if res, _ := gzGet(t, e.ts.URL+path, "Accept-Encoding", "*"); res.Header.Get("Content-Encoding") != "br" {
			t.Errorf("%s: any encoding accepted, got %q, want br", path, res.Header.Get("Content-Encoding"))
		}
	}
}
