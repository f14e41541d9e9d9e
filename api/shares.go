package api

import (
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"regexp"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/store"
)

// shareSchemaJSON is the JSON Schema of a POST /inv body, served at
// /inv/schema.json.
//
//go:embed shares_schema.json
var shareSchemaJSON []byte

// codeExpired is the error code of a snapshot past its 90 days (410 Gone).
const codeExpired = "expired"

// shareRoutes mounts this file's routes: shared investigations (SPEC §4.6)
// and public stats (§4.7, stats.go).
func (s *Server) shareRoutes(r *gin.Engine) {
	inv := r.Group("/inv", s.rateLimit())
	inv.POST("", s.ceiling(shareCeilingName, MaxSharesPerDay), maxBody(MaxShareBytes), s.createShare)
	inv.GET("/schema.json", s.shareSchema)
	inv.GET("/:id", s.getShare)
	inv.GET("/:id/changes", s.shareChanges)
	r.GET("/stats", s.rateLimit(), s.stats())
}

// Snapshot is what GET /inv/<id> serves: the pin list as posted, each item
// with its state when pinned. It is stored as rendered, byte for byte.
type Snapshot struct {
	Kind      string         `json:"kind"`
	ID        string         `json:"id"`
	Title     string         `json:"title"`
	CreatedAt time.Time      `json:"created_at"`
	ExpiresAt time.Time      `json:"expires_at"`
	Items     []SnapshotItem `json:"items"`
	Links     ShareLinks     `json:"links"`
	About     []string       `json:"about"`
}

// SnapshotItem is one pinned record and its state when pinned.
type SnapshotItem struct {
	Kind   string            `json:"kind"`
	ID     string            `json:"id"`
	Note   string            `json:"note,omitempty"`
	Pinned ItemState         `json:"pinned_state"`
	Links  map[string]string `json:"links"`
}

// ShareLinks are a snapshot's addresses.
type ShareLinks struct {
	Self    string `json:"self"`
	Changes string `json:"changes"`
	View    string `json:"view"`
	Schema  string `json:"schema"`
}

// ShareCreated is the answer to POST /inv.
type ShareCreated struct {
	ID        string        `json:"id"`
	Status    string        `json:"status"`
	CreatedAt time.Time     `json:"created_at"`
	ExpiresAt time.Time     `json:"expires_at"`
	Items     []PinnedBrief `json:"items"`
	Links     ShareLinks    `json:"links"`
}

// PinnedBrief says how each pinned record was found when pinned.
type PinnedBrief struct {
	Kind   string              `json:"kind"`
	ID     string              `json:"id"`
	Status record.Availability `json:"status"`
}

// snapshotAbout is what every snapshot says about itself.
var snapshotAbout = []string{
	"A shared investigation: a pin list of structured fields (a title, and records named by kind and exact id, with short plain-text notes) and, for each record, its state as held here when it was pinned.",
	"This snapshot does not change. The records may have changed since: links.changes compares each pinned state with the current one.",
	"Snapshots are readable for 90 days after they are shared, then removed; an expired one answers 410 Gone.",
	"Recordwatch is not the official registry: the City Record stays authoritative. No hits does not mean no record exists, and each state of a record is checked on its own.",
}

var shareIDRE = regexp.MustCompile(`^[A-Za-z0-9_-]{22}$`)

// newShareID is 128 random bits, base64url without padding (22 characters).
func newShareID() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

func (s *Server) shareLinks(id string) ShareLinks {
	base := s.cfg.BaseURL
	return ShareLinks{Self: base + "/inv/" + id, Changes: base + "/inv/" + id + "/changes",
		View: base + "/#investigation/shared/" + id, Schema: base + "/inv/schema.json"}
}

// createShare answers POST /inv: read the capped body, validate the pin
// list, read each record's state, store the rendered snapshot, return its id.
func (s *Server) createShare(c *gin.Context) {
	if ct := c.GetHeader("Content-Type"); ct != "" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			writeError(c, record.Invalid("Content-Type", "send the pin list as application/json, not %q", ct))
			return
		}
	}
	body, err := io.ReadAll(c.Request.Body)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			writeError(c, record.Errorf(record.ETOOLARGE, "request body is larger than %d bytes", MaxShareBytes))
			return
		}
		writeError(c, record.Invalid("body", "the body could not be read"))
		return
	}
	req, err := parseShare(body)
	if err != nil {
		writeError(c, err)
		return
	}
	ctx, cancel := context.WithTimeout(c.Request.Context(), 20*time.Second)
	defer cancel()
	now := s.deps.Now().Truncate(time.Second)
	id, err := newShareID()
	if err != nil {
		writeError(c, err)
		return
	}
	snap := Snapshot{Kind: shareSnapshotKind, ID: id, Title: req.Title, CreatedAt: now, ExpiresAt: now.Add(store.ShareTTL),
		Items: make([]SnapshotItem, 0, len(req.Items)), Links: s.shareLinks(id), About: snapshotAbout}
	out := ShareCreated{ID: id, Status: "stored", CreatedAt: snap.CreatedAt, ExpiresAt: snap.ExpiresAt,
		Items: make([]PinnedBrief, 0, len(req.Items)), Links: snap.Links}
	for _, it := range req.Items {
		st := s.itemState(ctx, it)
		snap.Items = append(snap.Items, SnapshotItem{Kind: it.Kind, ID: it.ID, Note: it.Note, Pinned: st, Links: s.itemLinks(it, st)})
		out.Items = append(out.Items, PinnedBrief{Kind: it.Kind, ID: it.ID, Status: st.Status})
	}
	stored, err := json.MarshalIndent(snap, "", "  ")
	if err != nil {
		writeError(c, err)
		return
	}
	stored = append(stored, '\n')
	if err := s.deps.Store.PutShare(ctx, store.Share{ID: id, CreatedAt: snap.CreatedAt, ExpiresAt: snap.ExpiresAt, Body: stored}); err != nil {
		writeError(c, storeWriteFailed(err, "the snapshot could not be stored; please try again later")) // logged with the route
		return
	}
	s.countEvent(ctx, store.CounterShareCreated, 1)
	c.Header("Location", snap.Links.Self)
	renderJSON(c, http.StatusCreated, out, noStore, time.Time{})
}

// loadShare reads a snapshot for GET /inv/<id> and /changes, answering
// the request itself when it cannot be read: 400 for a malformed id, 404
// for an unknown one, 410 once expired.
func (s *Server) loadShare(c *gin.Context) (store.Share, bool) {
	id := c.Param("id")
	if !shareIDRE.MatchString(id) {
		writeError(c, record.Invalid("id", "%q is not a shared investigation id (22 letters, digits, - or _)", shareClip(id)))
		return store.Share{}, false
	}
	if err := newParams(c.Request.URL.Query()).err; err != nil {
		writeError(c, err)
		return store.Share{}, false
	}
	sh, err := s.deps.Store.GetShare(c.Request.Context(), id)
	if err != nil {
		if record.ErrorCode(err) == record.ENOTFOUND {
			writeError(c, record.Errorf(record.ENOTFOUND, "no shared investigation with this id is held (it may never have existed, or expired more than a year ago)"))
			return store.Share{}, false
		}
		s.deps.Logger.Error("share not read", "err", err)
		writeError(c, &record.Error{Code: record.EUNAVAILABLE, Message: "the state store could not answer"})
		return store.Share{}, false
	}
	if now := s.deps.Now(); sh.Expired(now) || sh.Swept {
		renderJSON(c, http.StatusGone, gin.H{
			"status": codeExpired, "id": id, "created_at": sh.CreatedAt, "expired_at": sh.ExpiresAt,
			"error": record.Error{Code: codeExpired, Message: "this shared investigation expired on " +
				sh.ExpiresAt.In(record.NewYork).Format("January 2, 2006") +
				": snapshots are readable for 90 days after they are shared, then removed. Ask whoever shared it to share it again."},
		}, noStore, time.Time{})
		c.Abort()
		return store.Share{}, false
	}
	return sh, true
}

// getShare answers GET /inv/<id> with the stored snapshot, byte for byte.
func (s *Server) getShare(c *gin.Context) {
	sh, ok := s.loadShare(c)
	if !ok {
		return
	}
	maxAge := min(time.Hour, sh.ExpiresAt.Sub(s.deps.Now()))
	s.countEvent(c.Request.Context(), store.CounterShareRead, 1)
	c.Header("X-Content-Type-Options", "nosniff")
	render(c, http.StatusOK, "application/json; charset=utf-8", sh.Body, cacheProfile(maxAge), sh.CreatedAt)
}

// ShareChanges compares each pinned state with the record's current state.
type ShareChanges struct {
	ID           string       `json:"id"`
	Title        string       `json:"title"`
	PinnedAt     time.Time    `json:"pinned_at"`
	CheckedAt    time.Time    `json:"checked_at"`
	ExpiresAt    time.Time    `json:"expires_at"`
	ChangedItems int          `json:"changed_items"`
	Items        []ItemChange `json:"items"`
	Links        ShareLinks   `json:"links"`
	Note         string       `json:"note"`
}

// ItemChange is one pinned record then and now. Comparison is "unchanged",
// "changed", or "unknown" when either state could not be read.
type ItemChange struct {
	Kind          string            `json:"kind"`
	ID            string            `json:"id"`
	Note          string            `json:"note,omitempty"`
	Comparison    string            `json:"comparison"`
	ChangedFields []string          `json:"changed_fields"`
	Pinned        ItemState         `json:"pinned_state"`
	Current       ItemState         `json:"current_state"`
	Links         map[string]string `json:"links"`
}

// shareChanges answers GET /inv/<id>/changes.
func (s *Server) shareChanges(c *gin.Context) {
	sh, ok := s.loadShare(c)
	if !ok {
		return
	}
	var snap Snapshot
	if err := json.Unmarshal(sh.Body, &snap); err != nil {
		s.deps.Logger.Error("stored share unreadable", "id", sh.ID, "err", err)
		writeError(c, err)
		return
	}
	ctx, cancel := context.WithTimeout(c.Request.Context(), 20*time.Second)
	defer cancel()
	out := ShareChanges{ID: snap.ID, Title: snap.Title, PinnedAt: snap.CreatedAt, CheckedAt: s.deps.Now().Truncate(time.Second),
		ExpiresAt: snap.ExpiresAt, Items: make([]ItemChange, 0, len(snap.Items)), Links: snap.Links,
		Note: "pinned_state is each record as held here when it was pinned; current_state is as held now. " +
			"A comparison is unknown when either read was unavailable: that does not mean the record changed or is missing."}
	for _, it := range snap.Items {
		cur := s.itemState(ctx, ShareItem{Kind: it.Kind, ID: it.ID, Note: it.Note})
		ch := ItemChange{Kind: it.Kind, ID: it.ID, Note: it.Note, Pinned: it.Pinned, Current: cur, Links: it.Links, ChangedFields: []string{}}
		switch {
		case it.Pinned.Status == record.Unavailable || cur.Status == record.Unavailable:
			ch.Comparison = "unknown"
		default:
			ch.ChangedFields = diffStates(it.Pinned, cur)
			ch.Comparison = "unchanged"
			if len(ch.ChangedFields) > 0 {
				ch.Comparison = "changed"
				out.ChangedItems++
			}
		}
		out.Items = append(out.Items, ch)
	}
	s.countEvent(ctx, store.CounterShareChangesRead, 1)
	renderJSON(c, http.StatusOK, out, cacheSearch, time.Time{})
}

// shareSchema serves the JSON Schema of a POST /inv body.
func (s *Server) shareSchema(c *gin.Context) {
	if err := newParams(c.Request.URL.Query()).err; err != nil {
		writeError(c, err)
		return
	}
	render(c, http.StatusOK, "application/schema+json", shareSchemaJSON, cacheDay, time.Time{})
}
