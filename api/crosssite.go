package api

import (
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/record"
)

// Cross-site writes. A page on another site can make a browser send a
// "simple" request (a form post, or fetch with text/plain) to this
// service without any CORS preflight: it could create a watch for someone
// else's address, spend a visitor's daily /batch allowance or store a
// share. sameOriginWrites refuses every state-changing request that
//
//   - names a foreign Origin, or comes with Sec-Fetch-Site: cross-site: 403;
//   - is not application/json (POST, PUT, PATCH): 400 with the error shape,
//     param Content-Type. A browser cannot send application/json to another
//     origin without a preflight, which this service never answers.
//
// No Origin and no Sec-Fetch-Site (curl, scripts, servers) is allowed: the
// check is against browsers acting for a foreign page, not against clients.
//
// Two kinds of route differ:
//
//   - the email link posts (POST /confirm/<token>, POST /u/<token>, POST
//     /remove/<token>) are form
//     posts by design: the pages behind the links post forms, and RFC 8058
//     one-click unsubscribe is a form post (List-Unsubscribe=One-Click) that
//     the mail provider makes from its own servers. They keep accepting
//     forms and are refused only when a browser says the post is
//     cross-site AND names a foreign Origin. The provider's server-side
//     one-click post carries neither header, and the link pages post
//     same-origin, so neither breaks; a webmail that made the one-click post
//     from the reader's browser would be refused, which RFC 8058 does not
//     expect (the post is made without the user's context). The token in
//     the path is the capability either way.
//   - POST /follow, the object pages' Follow form, is a form post taken
//     only with this site's own Origin (none, foreign or cross-site: 403).
//   - /mcp answers with a JSON-RPC error body, and checks Origin on every
//     method (the MCP Streamable HTTP transport's rule: a present, invalid
//     Origin gets 403); mcp_transport.go does the rest of its wrapping.
//
// It runs in the route table before any route's handlers, so a refused
// request never reaches a daily ceiling and costs no allowance.
func (s *Server) sameOriginWrites() gin.HandlerFunc {
	return func(c *gin.Context) {
		path := c.FullPath()
		if path == "/mcp" {
			if o := c.GetHeader("Origin"); o != "" && !s.ownOrigin(c.Request, o) {
				writeJSONRPCError(c, http.StatusForbidden, jsonrpcInvalidRequest, "Origin "+quoteHeader(o)+" is not allowed to call this endpoint")
				return
			}
			c.Next()
			return
		}
		if !stateChanging(c.Request.Method) {
			c.Next()
			return
		}
		origin := c.GetHeader("Origin")
		foreign := origin != "" && !s.ownOrigin(c.Request, origin)
		crossSite := strings.EqualFold(strings.TrimSpace(c.GetHeader("Sec-Fetch-Site")), "cross-site")
		if path == "/confirm/:token" || path == "/u/:token" || path == "/manage/:token" || path == "/remove/:token" {
			if crossSite && foreign {
				forbidCrossSite(c, origin)
				return
			}
			c.Next()
			return
		}
		if foreign || crossSite {
			forbidCrossSite(c, origin)
			return
		}
		if path == "/follow" {
			// the object pages' Follow form: a form post, taken only from
			// this site's own pages (a browser names the Origin of a post)
			if origin == "" {
				forbidCrossSite(c, origin)
				return
			}
			c.Next()
			return
		}
		if m := c.Request.Method; m == http.MethodPost || m == http.MethodPut || m == http.MethodPatch {
			if !isJSONContentType(c.GetHeader("Content-Type")) {
				writeError(c, record.Invalid("Content-Type", "send the request body as application/json, not %s", quoteHeader(c.GetHeader("Content-Type"))))
				return
			}
		}
		c.Next()
	}
}

func stateChanging(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace:
		return false
	}
	return true
}

func isJSONContentType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && mt == "application/json"
}

func forbidCrossSite(c *gin.Context, origin string) {
	msg := "cross-site requests may not change anything here"
	if origin != "" {
		msg = "requests from " + quoteHeader(origin) + " may not change anything here"
	}
	writeErrorAs(c, http.StatusForbidden, record.Error{Code: record.EINVALID, Message: msg, Param: "Origin"})
}

// quoteHeader quotes a header value for a message, bounded.
func quoteHeader(v string) string {
	if len(v) > 200 {
		v = v[:200]
	}
	return `"` + strings.ToValidUTF8(strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == '"' {
			return -1
		}
		return r
	}, v), "") + `"`
}

// ownOrigin reports whether origin (an Origin header) is this service's:
// the origin of Config.BaseURL. When the base URL is on a loopback host
// (the default, http://localhost:<port>), any loopback name for the same
// scheme and port is the same service. Without a base URL (tests; main.go
// always derives one) the request's own Host stands in for it.
func (s *Server) ownOrigin(r *http.Request, origin string) bool {
	base := s.cfg.BaseURL
	if base == "" {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		base = scheme + "://" + r.Host
	}
	own, err := url.Parse(base)
	if err != nil {
		return false
	}
	got, err := url.Parse(origin)
	if err != nil || got.Scheme == "" || got.Host == "" || got.Path != "" || got.User != nil || got.RawQuery != "" {
		return false // includes "null"
	}
	if !strings.EqualFold(got.Scheme, own.Scheme) || originPort(got) != originPort(own) {
		return false
	}
	if strings.EqualFold(got.Hostname(), own.Hostname()) {
		return true
	}
	return isLoopbackHost(own.Hostname()) && isLoopbackHost(got.Hostname())
}

func originPort(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if strings.EqualFold(u.Scheme, "https") {
		return "443"
	}
	return "80"
}

func isLoopbackHost(h string) bool {
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}
