package main

import (
	"os"
	"testing"
)

// The memory sampler reads the cheap status file of one process at every
// sample and smaps_rollup (a walk of every mapping) only every pssEvery
// samples; several processes are read from smaps_rollup alone, as seldom.
func TestMemorySamplerReadsRollupSeldom(t *testing.T) {
	self := os.Getpid()
	one := &pssSampler{}
	const n = 3*pssEvery + 1
	for i := range n {
		one.sample([]int{self}, i)
	}
	if one.reads.status != n || one.reads.rollup != 4 {
		t.Errorf("one process, %d samples: %d status reads, %d smaps_rollup reads; want %d and 4", n, one.reads.status, one.reads.rollup, n)
	}
	if one.anon <= 0 || one.peak < one.anon {
		t.Errorf("one process: peak %d kB, anonymous %d kB", one.peak, one.anon)
	}
	several := &pssSampler{}
	for i := range n {
		several.sample([]int{self, os.Getppid()}, i)
	}
	if several.reads.status != 0 || several.reads.rollup != 2*4 {
		t.Errorf("two processes, %d samples: %d status reads, %d smaps_rollup reads; want 0 and 8", n, several.reads.status, several.reads.rollup)
	}
	if several.peak < one.anon {
		t.Errorf("two processes: peak %d kB below one's anonymous memory %d kB", several.peak, one.anon)
	}
}
