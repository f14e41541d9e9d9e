package api

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/recordwatch/recordwatch/internal/disk"
	"github.com/recordwatch/recordwatch/internal/search"
)

// ProbeReuse is how long /readyz (and /healthz) reuse a good write probe
// of the state store: however often they are asked, the store takes at
// most one probe write every two seconds. A failed probe is never reused:
// the next reading probes again, so a store that recovers is seen at once.
const ProbeReuse = 2 * time.Second

// storeProbe is the state store's last good write probe.
type storeProbe struct {
	mu sync.Mutex
	ok time.Time // wall clock of the last good probe
}

// probeStore writes and deletes a small key in the state store (Probe),
// at most once per ProbeReuse while it succeeds.
func (s *Server) probeStore(ctx context.Context) error {
	s.probe.mu.Lock()
	defer s.probe.mu.Unlock()
	if !s.probe.ok.IsZero() && time.Since(s.probe.ok) < ProbeReuse {
		return nil
	}
	if err := s.deps.Store.Probe(ctx); err != nil {
		s.probe.ok = time.Time{}
		return err
	}
	s.probe.ok = time.Now()
	return nil
}

// partsReady fills parts with the state of every part but the search
// index: "state_store" (a write probe), "disk_space" (the data
// directory's free space against Config.MinFreeBytes, when it is set)
// and each of Deps.Parts — "up" or "down", the reason logged — and
// "index_integrity": "up", or "degraded: …" naming the segments of the
// index refused as damaged (Deps.Integrity). It reports whether all are
// up.
func (s *Server) partsReady(ctx context.Context, parts map[string]string) bool {
	ok := true
	set := func(name string, err error) {
		parts[name] = "up"
		if err != nil {
			s.deps.Logger.Warn("readyz: a part is down", "part", name, "err", err)
			parts[name], ok = "down", false
		}
	}
	if s.deps.Store != nil {
		set("state_store", s.probeStore(ctx))
	}
	if s.cfg.DataDir != "" {
		set("disk_space", disk.Check(s.cfg.DataDir, s.cfg.MinFreeBytes))
	}
	for name, ready := range s.deps.Parts {
		set(name, ready())
	}
	if s.deps.Integrity != nil {
		parts["index_integrity"] = "up"
		if d := s.deps.Integrity.Damaged(); len(d) > 0 {
			s.deps.Logger.Warn("readyz: the search index is degraded", "segments", len(d))
			parts["index_integrity"], ok = degraded(d), false
		}
	}
	return ok
}

// degraded says which segments were refused and what it means.
func degraded(d []search.Damage) string {
	segs := make([]string, 0, len(d))
	records := 0
	for _, x := range d {
		segs = append(segs, fmt.Sprintf("%s/%s (%s)", x.Index, x.Segment, x.Reason))
		if x.Records < 0 || records < 0 {
			records = -1
		} else {
			records += x.Records
		}
	}
	n := "an unknown number of"
	if records >= 0 {
		n = fmt.Sprint(records)
	}
	return fmt.Sprintf("degraded: segment %s refused as damaged; %s records unavailable until they are loaded again from their source (the next start of the indexer)",
		strings.Join(segs, ", "), n)
}
