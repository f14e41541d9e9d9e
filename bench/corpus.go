package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/recordwatch/recordwatch/indexer/source/crol"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/synth"
)

// corpusMeta describes a generated corpus file. It is written next to the
// file once the file is complete, so a reused corpus is a finished one.
type corpusMeta struct {
	N        int     `json:"n"`
	Seed     int64   `json:"seed"`
	Path     string  `json:"path"`
	Bytes    int64   `json:"bytes"`
	Seconds  float64 `json:"generate_seconds"`
	Agency   string  `json:"agency"`    // canonical id used by the filtered query
	Vendor   string  `json:"vendor"`    // a vendor name (as printed) used by the vendor-stem query
	Stem     string  `json:"stem"`      // its stem
	Valid    int     `json:"valid"`     // notices with a valid amount
	WithText int     `json:"with_text"` // notices with full text
	Created  string  `json:"created"`
}

// learnModel learns the synthetic corpus model from the bundled sample.
func learnModel(sampleDir string) (*synth.Model, error) {
	c, errs := crol.Scan(os.DirFS(sampleDir), "crol", entity.DefaultCrosswalk())
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return synth.Learn(c.Notices)
}

// ensureCorpus writes n notices for seed as JSON lines to
// work/corpus-n<N>-s<seed>.jsonl, or reuses a complete one when keep is set.
func ensureCorpus(work, sampleDir string, n int, seed int64, keep bool, logf func(string, ...any)) (corpusMeta, error) {
	path := filepath.Join(work, fmt.Sprintf("corpus-n%d-s%d.jsonl", n, seed))
	metaPath := path + ".meta.json"
	if keep {
		var m corpusMeta
		if b, err := os.ReadFile(metaPath); err == nil && json.Unmarshal(b, &m) == nil && m.N == n {
			logf("reusing corpus %s (%d notices)", path, n)
			return m, nil
		}
	}
	os.Remove(metaPath)
	model, err := learnModel(sampleDir)
	if err != nil {
		return corpusMeta{}, err
	}
	logf("generating %d notices (seed %d) into %s", n, seed, path)
	start := time.Now()
	f, err := os.Create(path)
	if err != nil {
		return corpusMeta{}, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	meta := corpusMeta{N: n, Seed: seed, Path: path}
	agencies := map[string]int{}
	stems := map[string]int{}
	names := map[string]map[string]int{}
	err = generateOrdered(model, n, seed, func(nt record.Notice, line []byte) error {
		if nt.AmountValid {
			meta.Valid++
			if nt.Amount >= 1_000_000 && nt.AgencyID != "" {
				agencies[nt.AgencyID]++
			}
		}
		if nt.Text != "" {
			meta.WithText++
		}
		if nt.VendorStem != "" {
			stems[nt.VendorStem]++
			if names[nt.VendorStem] == nil {
				names[nt.VendorStem] = map[string]int{}
			}
			// the API splits list parameters at commas: keep names without one
			if len(names[nt.VendorStem]) < 50 && !strings.Contains(nt.VendorName, ",") {
				names[nt.VendorStem][nt.VendorName]++
			}
		}
		_, err := w.Write(line)
		return err
	})
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return corpusMeta{}, err
	}
	meta.Seconds = time.Since(start).Seconds()
	meta.Agency = top(agencies)
	meta.Stem = top(stems)
	meta.Vendor = top(names[meta.Stem])
	if entity.VendorStem(meta.Vendor) != meta.Stem {
		meta.Vendor = meta.Stem
	}
	if fi, err := os.Stat(path); err == nil {
		meta.Bytes = fi.Size()
	}
	meta.Created = time.Now().UTC().Format(time.RFC3339)
	b, _ := json.MarshalIndent(meta, "", "  ")
	return meta, os.WriteFile(metaPath, b, 0o644)
}

// top is the most frequent key (ties: the smallest key).
func top(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	if len(keys) == 0 {
		return ""
	}
	return keys[0]
}

// generateOrdered makes notices 0…n-1 on every core (Model.Notice is a pure
// function of the seed and the index) and hands them to fn in order, each
// with its JSON line. At most a few chunks are held at once.
func generateOrdered(m *synth.Model, n int, seed int64, fn func(record.Notice, []byte) error) error {
	const chunk = 1000
	type part struct {
		notices []record.Notice
		lines   [][]byte
	}
	workers := runtime.NumCPU()
	chunks := (n + chunk - 1) / chunk
	results := make([]chan part, chunks)
	for i := range results {
		results[i] = make(chan part, 1)
	}
	next := make(chan int)
	tokens := make(chan struct{}, 2*workers) // chunks in flight
	done := make(chan struct{})
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range next {
				lo, hi := c*chunk, min((c+1)*chunk, n)
				p := part{}
				for i := lo; i < hi; i++ {
					nt := m.Notice(seed, i)
					var buf bytes.Buffer
					_ = json.NewEncoder(&buf).Encode(nt)
					p.notices = append(p.notices, nt)
					p.lines = append(p.lines, buf.Bytes())
				}
				results[c] <- p
			}
		}()
	}
	go func() {
		defer close(next)
		for c := range chunks {
			select {
			case tokens <- struct{}{}:
			case <-done:
				return
			}
			select {
			case next <- c:
			case <-done:
				return
			}
		}
	}()
	var err error
	for c := range chunks {
		p := <-results[c]
		results[c] = nil
		<-tokens
		for i := range p.notices {
			if err = fn(p.notices[i], p.lines[i]); err != nil {
				break
			}
		}
		if err != nil {
			break
		}
	}
	close(done)
	wg.Wait()
	return err
}

// readCorpus streams the notices of a corpus file in batches of size.
func readCorpus(path string, size int, fn func([]record.Notice) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	dec := json.NewDecoder(bufio.NewReaderSize(f, 1<<20))
	batch := make([]record.Notice, 0, size)
	for {
		var nt record.Notice
		err := dec.Decode(&nt)
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("corpus %s: %w", path, err)
		}
		batch = append(batch, nt)
		if len(batch) == size {
			if err := fn(batch); err != nil {
				return err
			}
			batch = make([]record.Notice, 0, size)
		}
	}
	if len(batch) > 0 {
		return fn(batch)
	}
	return nil
}
