package api

import (
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
	"golang.org/x/time/rate"

	"github.com/recordwatch/recordwatch/internal/record"
)

// ipLimiter is a per-client token bucket. Idle clients are evicted so the
// table stays small.
type ipLimiter struct {
	mu      sync.Mutex
	rate    rate.Limit
	burst   int
	clients map[string]*clientBucket
	now     func() time.Time
	swept   time.Time
}

type clientBucket struct {
	lim  *rate.Limiter
	seen time.Time
}

func newIPLimiter(perSecond float64, burst int, now func() time.Time) *ipLimiter {
	return &ipLimiter{rate: rate.Limit(perSecond), burst: burst, clients: map[string]*clientBucket{}, now: now}
}

// allow reports whether client may make a request now, and if not, how long
// to wait.
func (l *ipLimiter) allow(client string) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if now.Sub(l.swept) > time.Minute {
		for k, b := range l.clients {
			if now.Sub(b.seen) > 10*time.Minute {
				delete(l.clients, k)
			}
		}
		l.swept = now
	}
	b := l.clients[client]
	if b == nil {
		b = &clientBucket{lim: rate.NewLimiter(l.rate, l.burst)}
		l.clients[client] = b
	}
	b.seen = now
	r := b.lim.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return false, d
	}
	return true, 0
}

// ClientKey is the one rule for who a client is, for every per-client
// limit and daily ceiling: an IPv4 address as it is, an IPv6 address by its
// /64 network (one subscriber line is usually given a whole /64, so counting
// full addresses would let one client take 2^64 allowances). An IPv4-mapped
// IPv6 address counts as its IPv4 address.
func ClientKey(ip string) string {
	parsed := net.ParseIP(ip)
	if parsed == nil {
		return ip
	}
	if v4 := parsed.To4(); v4 != nil {
		return v4.String()
	}
	return (&net.IPNet{IP: parsed.Mask(net.CIDRMask(64, 128)), Mask: net.CIDRMask(64, 128)}).String()
}

// clientKey is ClientKey of the address Gin resolved (trusted proxies
// applied).
func clientKey(c *gin.Context) string { return ClientKey(c.ClientIP()) }

// rateLimit applies the per-client token bucket.
func (s *Server) rateLimit() gin.HandlerFunc {
	return func(c *gin.Context) {
		ok, wait := s.limiter.allow(clientKey(c))
		if !ok {
			secs := int(wait.Seconds()) + 1
			c.Header("Retry-After", strconv.Itoa(secs))
			writeError(c, record.Errorf(record.ELIMIT, "too many requests from this address; retry in %d s", secs))
			return
		}
		c.Next()
	}
}

// ceiling applies a daily per-client ceiling shared through the state store,
// so it holds across API replicas. Over the ceiling: 429 with Retry-After.
func (s *Server) ceiling(name string, limit int) gin.HandlerFunc {
	return func(c *gin.Context) {
		now := s.deps.Now()
		a, err := s.deps.Store.Take(c.Request.Context(), name, clientKey(c), limit, now)
		if err != nil {
			writeError(c, &record.Error{Code: record.EUNAVAILABLE, Message: "the state store could not answer"})
			return
		}
		c.Header("X-RateLimit-Limit", strconv.Itoa(limit))
		c.Header("X-RateLimit-Remaining", strconv.Itoa(a.Remaining))
		if !a.Allowed {
			secs := int(a.ResetAt.Sub(now).Seconds()) + 1
			c.Header("Retry-After", strconv.Itoa(secs))
			writeError(c, record.Errorf(record.ELIMIT, "daily limit of %d requests reached for %s; it resets at %s",
				limit, c.Request.URL.Path, a.ResetAt.Format(time.RFC3339)))
			return
		}
		c.Next()
	}
}

// maxBody caps a request body; larger bodies get 413.
func maxBody(n int64) gin.HandlerFunc {
	return func(c *gin.Context) {
		if c.Request.ContentLength > n {
			writeError(c, record.Errorf(record.ETOOLARGE, "request body is larger than %d bytes", n))
			return
		}
		c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, n)
		c.Next()
	}
}
