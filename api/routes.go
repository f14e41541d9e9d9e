package api

import "github.com/gin-gonic/gin"

// routes is the one route table.
//
// Two middlewares run before every route's own handlers, NoRoute and
// NoMethod included: the per-client token bucket (limit.go; it charges a
// request once, so routes that name it again are not charged twice), then
// sameOriginWrites (crosssite.go): state-changing requests from other
// origins, and writes that are not JSON, are refused before any daily
// ceiling is taken. A third, boundedPath, refuses a path parameter past
// its bound (record.InputBound) before any handler reads it. Last,
// admission (admission.go) runs the routes of its admittedRoutes list in
// one of the slots expensive requests share.
func (s *Server) routes(r *gin.Engine) {
	r.Use(s.rateLimit(), s.sameOriginWrites(), boundedPath, s.siteLang, s.freshnessBanner, s.byIDAbsence, s.admission) // sources.go: the banner of every page; absence_byid.go: a by-id 404's absence type
	r.NoRoute(s.notFoundRoute)
	r.NoMethod(s.methodNotAllowed)

	r.GET("/healthz", s.healthz)
	r.GET("/readyz", s.readyz)

	api := r.Group("/api", s.rateLimit())
	api.GET("/search", s.search)
	api.GET("/notices/:id", s.notice)
	api.GET("/week", s.week) // week.go: the home page's "this week" as JSON

	if s.deps.MCP != nil {
		mcpH := s.mcpTransport(s.deps.MCP) // mcp_transport.go: JSON-RPC errors, 1 MiB bodies
		r.POST("/mcp", s.rateLimit(), mcpH)
		r.GET("/mcp", s.rateLimit(), mcpH)
		r.DELETE("/mcp", s.rateLimit(), mcpH)
		r.GET("/mcp/catalog.json", s.rateLimit(), s.mcpCatalog)
	}

	s.webRoutes(r) // web_routes.go: the human site

	// each later issue owns its file and its routes
	s.entityRoutes(r, api) // entities.go: agencies, vendors, matters, batch, property locations
	s.feedRoutes(r)        // feeds.go: /feed.xml, /feed.json, /feed.ics, /r/<kind>/<id>
	s.watchRoutes(r, api)  // watches.go: preview, create, confirm, manage, unsubscribe
	s.shareRoutes(r)       // shares.go: /inv, /stats
	s.sourceRoutes(r, api) // sources.go: /api/sources, /sources

	// The form decides the surface here and nowhere else: what SPEC marks
	// Form 1 (contracts, leaders and people, meetings, land projects,
	// passages, the server-rendered vendor and agency permalinks — Form 2's
	// are /#vendor/<name> and /#agency/<name>) and the Form 1 extensions
	// built on them (payroll rows, federated search) are mounted in Form 1
	// only; Form 2 answers them 404 like any unknown path.
	if s.cfg.Form == 1 {
		api.GET("/passages", s.passages)
		s.federatedRoutes(api)   // federated.go: /api/search/federated
		s.entityPageRoutes(r)    // entities.go: /vendors/<stem>/, /agencies/<id>/
		s.payrollRoutes(api)     // payroll.go: /api/payroll, /api/payroll/:id
		s.landRoutes(r, api)     // land.go: /api/land-projects[/:id[/decision-path]], /land-projects/:id
		s.peopleRoutes(r, api)   // people.go: /api/organizations, /api/people/<id>, /api/civil-service; pages /organizations/<id>/, /people/<id>
		s.meetingRoutes(r, api)  // meetings.go: /api/meetings, /meetings, /meetings/:id, /meetings.ics
		s.contractRoutes(r, api) // contracts.go: /api/contracts, /api/contracts/analysis, /api/contracts/:id, pages /contracts/…
		s.rowRoutes(r, api)      // rows.go: /api/rows (every row behind a vendor, agency, PIN or contract ID; ?format=csv), page /rows
	}
}
