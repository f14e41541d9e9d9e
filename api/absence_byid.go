package api

import (
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Typed absence of a single record (issue 32, item 3): a by-id read that
// finds nothing says which of the absence types applies (record's
// RecordAbsence, the one rule), in the JSON error ("error.absence") and on
// the page (web.Page.Absence), instead of a bare 404.

// byIDRoute is a by-id read: the record kinds whose sources would hold
// what it names, and the route parameter naming it.
type byIDRoute struct {
	kinds []string
	param string
}

// Kinds behind the by-id reads: notices; the procurement records joined on
// a vendor, agency or matter (procure.JoinedKinds); one kind each for the
// rest.
var noticeKinds = []string{procure.NoticeKind}

// byIDRoutes are every by-id read route, API and site, by gin's full
// path. Routes not listed (searches, lists, feeds) type their empty
// answers in their scope.
var byIDRoutes = map[string]byIDRoute{
	"/api/notices/:id":                     {noticeKinds, "id"},
	"/api/matters/*pin":                    {procure.JoinedKinds, "pin"},
	"/api/vendors/*stem":                   {procure.JoinedKinds, "stem"},
	"/vendors/*stem":                       {procure.JoinedKinds, "stem"},
	"/api/agencies/*id":                    {procure.JoinedKinds, "id"},
	"/agencies/:id/":                       {procure.JoinedKinds, "id"},
	"/api/contracts/:id":                   {[]string{procure.ContractKind.Name}, "id"},
	"/contracts/:id":                       {[]string{procure.ContractKind.Name}, "id"},
	"/api/land-projects/:id":               {[]string{land.ProjectKind.Name}, "id"},
	"/api/land-projects/:id/decision-path": {[]string{land.ProjectKind.Name}, "id"},
	"/land-projects/:id":                   {[]string{land.ProjectKind.Name}, "id"},
	"/land-projects/:id/hearings.ics":      {[]string{land.ProjectKind.Name}, "id"},
	"/api/meetings/:id":                    {[]string{meeting.Kind.Name}, "id"},
	"/meetings/:id":                        {[]string{meeting.Kind.Name}, "id"},
	"/api/payroll/:id":                     {[]string{procure.PayrollKind.Name}, "id"},
	"/api/people/*id":                      {[]string{people.KindPerson, people.KindOrganization}, "id"},
	"/people/*id":                          {[]string{people.KindPerson}, "id"},
	"/organizations/*id":                   {[]string{people.KindOrganization}, "id"},
}

// absenceKey holds, in a by-id read's context, how its 404 finds its
// absence type (computed only when a 404 is written).
const absenceKey = "rw.by-id-absence"

// byIDAbsence lets a by-id read's 404 say why nothing is held: its
// absence is read from the coverage only when a 404 is written.
func (s *Server) byIDAbsence(c *gin.Context) {
	if rt, ok := byIDRoutes[c.FullPath()]; ok {
		c.Set(absenceKey, func() *record.EmptyAnswer {
			return search.RecordAbsence(c.Request.Context(), s.deps.Search, s.deps.Search, rt.kinds, strings.Trim(c.Param(rt.param), "/"))
		})
	}
	c.Next()
}

// absenceOf is the absence of the record a by-id read did not find (nil
// on other routes, or when the coverage could not be read).
func absenceOf(c *gin.Context) *record.EmptyAnswer {
	if f, ok := c.Get(absenceKey); ok {
		return f.(func() *record.EmptyAnswer)()
	}
	return nil
}
