package fetch

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// Post sends the same body on every attempt and retries like Get.
func TestPostRetriesWithTheSameBody(t *testing.T) {
	var mu sync.Mutex
	var bodies []string
	var types []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, r.Method+" "+string(b))
		types = append(types, r.Header.Get("Content-Type"))
		n := len(bodies)
		mu.Unlock()
		if n == 1 {
			w.Header().Set("Retry-After", "2")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		io.WriteString(w, "<response/>")
	}))
	defer srv.Close()
	var waited []time.Duration
	c := &Client{Sleep: func(ctx context.Context, d time.Duration) error { waited = append(waited, d); return nil }}
	res, err := c.Post(context.Background(), srv.URL, []byte("<request/>"), http.Header{"Content-Type": {"application/xml"}})
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Body) != "<response/>" || res.Attempts != 2 {
		t.Errorf("response %q after %d attempts", res.Body, res.Attempts)
	}
	if len(bodies) != 2 || bodies[0] != "POST <request/>" || bodies[1] != bodies[0] || types[1] != "application/xml" {
		t.Errorf("requests %q %q", bodies, types)
	}
	if len(waited) != 1 || waited[0] != 2*time.Second {
		t.Errorf("waited %v, want the 2 s the server asked for", waited)
	}
}
