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

// bucketState is what one request saw of its client's bucket.
type bucketState struct {
	ok        bool
	wait      time.Duration // until one token is back (when !ok)
	remaining int           // whole tokens left after this request
	full      time.Duration // until the bucket is full again
}

// allow reports whether client may make a request now, and if not, how long
// to wait; either way it says what is left in the bucket.
func (l *ipLimiter) allow(client string) bucketState {
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
	var st bucketState
	r := b.lim.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		st.wait = d
	} else {
		st.ok = true
	}
	tokens := b.lim.TokensAt(now)
	if tokens > 0 {
		st.remaining = int(tokens)
	}
	if missing := float64(l.burst) - tokens; missing > 0 && l.rate > 0 {
		st.full = time.Duration(missing / float64(l.rate) * float64(time.Second))
	}
	return st
}

// window is the policy window of the bucket: the time an empty bucket
// takes to fill (burst requests per window, in whole seconds).
func (l *ipLimiter) window() int {
	if l.rate <= 0 {
		return 0
	}
	return ceilSeconds(time.Duration(float64(l.burst) / float64(l.rate) * float64(time.Second)))
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

// ceilSeconds is d in whole seconds, rounded up.
func ceilSeconds(d time.Duration) int {
	if d <= 0 {
		return 0
	}
	return int((d + time.Second - 1) / time.Second)
}

// The rate-limit header fields of draft-ietf-httpapi-ratelimit-headers
// (the RateLimit-Policy / RateLimit syntax of drafts -08 to -11): each
// limit a response is under is one list member, named by its policy:
//
//	RateLimit-Policy: "burst";q=60;w=3, "batch";q=30;w=86400
//	RateLimit: "burst";r=59;t=1, "batch";r=29;t=43200
//
// q is the quota, w its window in seconds, r what is left and t the
// seconds until the quota is whole again. They replace the ad-hoc
// X-RateLimit-* fields.
const (
	hdrRateLimitPolicy = "RateLimit-Policy"
	hdrRateLimit       = "RateLimit"
	// burstPolicy names the per-client token bucket.
	burstPolicy = "burst"
)

// addRateLimitHeaders adds one policy's members to both fields.
func addRateLimitHeaders(h http.Header, policy string, quota, window, remaining, reset int) {
	h.Add(hdrRateLimitPolicy, strconv.Quote(policy)+";q="+strconv.Itoa(quota)+";w="+strconv.Itoa(window))
	h.Add(hdrRateLimit, strconv.Quote(policy)+";r="+strconv.Itoa(max(remaining, 0))+";t="+strconv.Itoa(max(reset, 0)))
}

// limitedKey marks a request that has already taken its token, so a route
// that names rateLimit() again under the global one is not charged twice.
const limitedKey = "recordwatch.rate-limited"

// rateLimit applies the per-client token bucket, once per request. Every
// route, NoRoute and NoMethod included, gets it from the route table; the
// RateLimit-Policy and RateLimit fields say where the client stands.
func (s *Server) rateLimit() gin.HandlerFunc {
	return func(c *gin.Context) {
		if c.GetBool(limitedKey) {
			c.Next()
			return
		}
		c.Set(limitedKey, true)
		st := s.limiter.allow(clientKey(c))
		if !st.ok {
			secs := max(ceilSeconds(st.wait), 1)
			addRateLimitHeaders(c.Writer.Header(), burstPolicy, s.limiter.burst, s.limiter.window(), 0, secs)
			c.Header("Retry-After", strconv.Itoa(secs))
			writeError(c, record.Errorf(record.ELIMIT, "too many requests from this address; retry in %d s", secs))
			return
		}
		addRateLimitHeaders(c.Writer.Header(), burstPolicy, s.limiter.burst, s.limiter.window(), st.remaining, ceilSeconds(st.full))
		c.Next()
	}
}

// ceiling applies a daily per-client ceiling shared through the state store,
// so it holds across API replicas. Over the ceiling: 429 with Retry-After.
// The ceiling is one more RateLimit policy, named after it, with a window
// of a day.
func (s *Server) ceiling(name string, limit int) gin.HandlerFunc {
	return func(c *gin.Context) {
		now := s.deps.Now()
		a, err := s.deps.Store.Take(c.Request.Context(), name, clientKey(c), limit, now)
		if err != nil { // a full disk is 507, any other failure 503: never 500
			writeError(c, storeWriteFailed(err, "the state store could not answer"))
			return
		}
		reset := max(ceilSeconds(a.ResetAt.Sub(now)), 1)
		addRateLimitHeaders(c.Writer.Header(), name, limit, 86400, a.Remaining, reset)
		if !a.Allowed {
			c.Header("Retry-After", strconv.Itoa(reset))
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
