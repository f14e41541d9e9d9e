package api

import (
	"context"
	"sync"
	"time"

	"github.com/recordwatch/recordwatch/internal/disk"
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
// and each of Deps.Parts — "up" or "down", the reason logged. It
// reports whether all are up.
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
	return ok
}
