// Package api is Recordwatch's HTTP interface: the Gin router (routes.go is
// the one route table), JSON twins of every view, rate limits, daily
// ceilings and cache headers. Handlers parse into a typed struct, validate,
// make one backend call and render.
package api

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/api/web"
	"github.com/recordwatch/recordwatch/internal/disk"
	"github.com/recordwatch/recordwatch/internal/dossier"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/federated"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/notices"
	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/semantic"
	"github.com/recordwatch/recordwatch/internal/store"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// Config is what the API needs to know about its deployment.
type Config struct {
	Form    int    // 1 extended, 2 basic
	BaseURL string // absolute base for links, without trailing slash
	Engine  string // engine name, reported by /healthz
	// RatePerSecond and Burst bound each client's request rate.
	RatePerSecond float64
	Burst         int
	// TrustedProxies are the proxies whose X-Forwarded-For is believed.
	TrustedProxies []string
	// ExpensiveSlots is how many expensive requests run at once (zero: one
	// per core; admission.go).
	ExpensiveSlots int
	// RequestTimeout bounds one request's work (zero: DefaultRequestTimeout);
	// past it the engine stops and the client gets 503.
	RequestTimeout time.Duration
	// DataDir is the directory the embedded index and state store write
	// into: /readyz reports it short of space below MinFreeBytes (zero:
	// disk.DefaultMinFree). Empty: no disk part (OpenSearch holds the
	// state, and its own disk watermarks block writes the store probe
	// sees).
	DataDir      string
	MinFreeBytes uint64
}

// DefaultRequestTimeout is how long one request may work unless
// Config.RequestTimeout says otherwise.
const DefaultRequestTimeout = 20 * time.Second

// Deps are the engine, the store and the services the API reads and
// writes through. main.go builds every service once and hands the same
// values to every surface; the API builds none.
type Deps struct {
	Search    search.Engine
	Store     store.Store
	Crosswalk *entity.Crosswalk
	Logger    *slog.Logger
	Now       func() time.Time
	// MCP serves POST /mcp; MCPCatalog renders GET /mcp/catalog.json.
	MCP        http.Handler
	MCPCatalog func(ctx context.Context) any
	// Watches runs the watch flows (create, confirm, manage, unsubscribe)
	// and sends their mail; nil answers those routes with 503 (preview
	// works).
	Watches *watch.Service
	// Parts are the other parts of this process /readyz reports (the
	// mail receiver of the all role): each returns why it is down, or nil.
	Parts map[string]func() error
	// Integrity reports segments of the search index refused as damaged
	// and not yet rebuilt (the embedded engine's; nil: none kept):
	// /readyz and /healthz name them, /api/sources lists them.
	Integrity search.Integrity
	// Jobs reports every scheduled live fetch with its receipts
	// (/api/sources, /sources, /stats, /readyz); nil: none scheduled.
	Jobs func(ctx context.Context) ([]record.JobStatus, error)
	// NeverLoaded lists, with their freshness, the sources the service
	// loads that held (the engine's coverage) does not list (/api/sources
	// adds them); nil: none added.
	NeverLoaded func(ctx context.Context, held []record.SourceCoverage) ([]record.SourceCoverage, error)
	// The topic services.
	Semantic *semantic.Service // notice searches in every mode
	// Notices answers a notice search with its lens blocks (the roster of
	// the people lens, the meetings lens's meeting records): /api/search
	// and MCP's search_notices render the same answer.
	Notices   *notices.Service
	Procure   *procure.Service
	Dossiers  *dossier.Service
	Land      *land.Service
	Meetings  *meeting.Service
	People    *people.Service
	Federated *federated.Service
}

// Server holds the router and its dependencies.
type Server struct {
	cfg     Config
	deps    Deps
	limiter *ipLimiter
	gate    *gate // the slots of expensive requests (admission.go)
	// crosswalk is the agency crosswalk GET /agencies serves (gencache.go)
	crosswalk byGeneration[*dossier.Crosswalk]
	// weekCache keeps the home page's week lists (weekAnswer)
	weekCache byGeneration[notices.Week]
	ready     readyJobs  // /readyz's jobs, read at most once per ReadyJobsTTL (sources.go)
	probe     storeProbe // the state store's last good write probe (health.go)
	router    *gin.Engine
}

// New builds the HTTP handler.
func New(cfg Config, deps Deps) *Server {
	if cfg.Form == 0 {
		cfg.Form = 1
	}
	if cfg.RatePerSecond == 0 {
		cfg.RatePerSecond = 20
	}
	if cfg.Burst == 0 {
		cfg.Burst = 60
	}
	if cfg.RequestTimeout == 0 {
		cfg.RequestTimeout = DefaultRequestTimeout
	}
	if cfg.ExpensiveSlots == 0 {
		cfg.ExpensiveSlots = defaultSlots()
	}
	if cfg.MinFreeBytes == 0 {
		cfg.MinFreeBytes = disk.DefaultMinFree
	}
	if deps.Now == nil {
		deps.Now = time.Now
	}
	if deps.Logger == nil {
		deps.Logger = slog.Default()
	}
	gin.SetMode(gin.ReleaseMode)
	s := &Server{cfg: cfg, deps: deps, limiter: newIPLimiter(cfg.RatePerSecond, cfg.Burst, deps.Now),
		gate: newGate(cfg.ExpensiveSlots, AdmissionWait), crosswalk: byGeneration[*dossier.Crosswalk]{maxAge: CacheStats},
		weekCache: byGeneration[notices.Week]{maxAge: CacheWeek}}
	r := gin.New()
	r.HandleMethodNotAllowed = true
	_ = r.SetTrustedProxies(cfg.TrustedProxies)
	r.Use(s.requestID(), s.recoverer(), s.logRequests(), s.compress) // compress.go: gzip with Vary: Accept-Encoding
	s.routes(r)
	s.router = r
	return s
}

// ServeHTTP makes Server an http.Handler. A request whose path and query
// pass record.MaxURILen is refused with 414 before routing; every other
// request works under its client's context with Config.RequestTimeout as
// its deadline, which reaches the engine (the MCP stream, which a client
// holds open, has only its client's).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// every response kind (pages, JSON, feeds, redirects, errors, the MCP
	// endpoint) carries the same security headers; a handler may tighten one
	web.SecurityHeaders(w.Header())
	if r.Header.Get("X-Forwarded-Prefix") != "" && !s.fromTrustedProxy(r) {
		// Gin's trailing-slash redirect builds Location from it: only a
		// trusted proxy may say where this service is mounted
		r.Header.Del("X-Forwarded-Prefix")
	}
	if len(r.URL.RawPath)+len(r.URL.Path)+len(r.URL.RawQuery) > record.MaxURILen {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		noStore.set(w.Header())
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.WriteHeader(http.StatusRequestURITooLong)
		_ = json.NewEncoder(w).Encode(errorBody{Error: errorDetail{Error: record.Error{Code: record.EINVALID,
			Message: fmt.Sprintf("the request's path and query are longer than %d bytes", record.MaxURILen)}}})
		return
	}
	if r.URL.Path != "/mcp" {
		ctx, cancel := context.WithTimeout(r.Context(), s.cfg.RequestTimeout)
		defer cancel()
		r = r.WithContext(ctx)
	}
	s.router.ServeHTTP(w, r)
}

// fromTrustedProxy reports whether r comes from one of
// Config.TrustedProxies (addresses or CIDR prefixes).
func (s *Server) fromTrustedProxy(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return false
	}
	for _, p := range s.cfg.TrustedProxies {
		if pfx, err := netip.ParsePrefix(p); err == nil && pfx.Contains(ip.Unmap()) {
			return true
		}
		if a, err := netip.ParseAddr(p); err == nil && a == ip.Unmap() {
			return true
		}
	}
	return false
}

// Router exposes the Gin engine so other packages (web, mcp) can mount routes.
func (s *Server) Router() *gin.Engine { return s.router }

func (s *Server) logRequests() gin.HandlerFunc {
	return func(c *gin.Context) {
		start := time.Now()
		c.Next()
		s.deps.Logger.Debug("http", "method", c.Request.Method, "path", c.Request.URL.Path,
			"status", c.Writer.Status(), "dur", time.Since(start))
	}
}

// recoverer turns a panic into a 500 with the standard body, and logs it.
func (s *Server) recoverer() gin.HandlerFunc {
	return func(c *gin.Context) {
		defer func() {
			if v := recover(); v != nil {
				s.deps.Logger.Error("panic", "path", c.Request.URL.Path, "panic", v)
				if !c.Writer.Written() {
					writeError(c, nil)
				}
				c.Abort()
			}
		}()
		c.Next()
	}
}
