package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// machine describes where the benchmark ran.
type machine struct {
	CPU, Cores, Memory, Go, OS, Kernel, Date, Bleve string
}

func describeMachine() machine {
	m := machine{Cores: strconv.Itoa(runtime.NumCPU()), Go: runtime.Version(), Date: time.Now().UTC().Format("2006-01-02 15:04 UTC")}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range strings.SplitSeq(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPU = strings.TrimSpace(v)
				break
			}
		}
	}
	if kb := meminfo("MemTotal"); kb > 0 {
		m.Memory = fmt.Sprintf("%.1f GiB", float64(kb)/(1<<20))
	}
	if b, err := os.ReadFile("/etc/os-release"); err == nil {
		for line := range strings.SplitSeq(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "PRETTY_NAME="); ok {
				m.OS = strings.Trim(v, `"`)
			}
		}
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = "Linux " + strings.TrimSpace(string(b))
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == "github.com/blevesearch/bleve/v2" {
				m.Bleve = d.Version
			}
		}
	}
	return m
}

func meminfo(key string) int64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, key+":"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	return 0
}

// childPIDs are the direct children of pid.
func childPIDs(pid int) []int {
	var out []int
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, s := range stats {
		b, err := os.ReadFile(s)
		if err != nil {
			continue
		}
		// pid (comm) state ppid …: comm may hold spaces, so cut at the last ')'
		i := strings.LastIndexByte(string(b), ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 2 {
			continue
		}
		if ppid, _ := strconv.Atoi(f[1]); ppid == pid {
			c, _ := strconv.Atoi(filepath.Base(filepath.Dir(s)))
			out = append(out, c)
		}
	}
	return out
}

// pssKB is a process's proportional set size (shared pages divided among
// the processes that map them), so a sum over processes counts shared
// memory once, and the part of it that is anonymous memory (heap and
// stacks: not the pages of mapped files, which the kernel can reclaim).
// Reading smaps_rollup walks every mapping's page tables: at 1.1M notices
// one read took 81 ms of kernel time, so the sampler reads it seldom
// (memSampler).
func pssKB(pid int) (pss, anon int64) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
	if err != nil {
		return 0, 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "Pss:"); ok {
			pss = kbValue(v)
		} else if v, ok := strings.CutPrefix(line, "Pss_Anon:"); ok {
			anon = kbValue(v)
		}
	}
	return pss, anon
}

// rssKB is a process's resident set size and its anonymous part, from
// /proc/<pid>/status: counters the kernel keeps, read in constant time
// however large the process's mappings.
func rssKB(pid int) (rss, anon int64) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			rss = kbValue(v)
		} else if v, ok := strings.CutPrefix(line, "RssAnon:"); ok {
			anon = kbValue(v)
		}
	}
	return rss, anon
}

func kbValue(v string) int64 {
	n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
	return n
}

// pssEvery is how many samples apart the sampler reads smaps_rollup
// (every 5 s at 250 ms).
const pssEvery = 20

// pssSampler samples the memory of a set of processes until stopped and
// keeps the peaks of the whole (summed PSS) and of its anonymous part.
// PSS, not RSS: a page mapped several times (by several processes, or by
// one process's several mappings of a file, as SQLite's connections
// each map the database) counts once. It is read from smaps_rollup, only
// every pssEvery samples: at 1.1M notices one read of our engine's took
// 81 ms of kernel time. The anonymous memory of one process is read at
// every sample from /proc/<pid>/status (RssAnon, a counter the kernel
// keeps: anonymous pages are never shared between mappings of one
// process); that of several (PostgreSQL's processes, which share pages
// forked from their parent) from smaps_rollup's Pss_Anon with the whole.
type pssSampler struct {
	stop       chan struct{}
	done       chan struct{}
	peak, anon int64
	reads      struct{ status, rollup int } // files read (tests)
}

func samplePSS(pids func() []int, every time.Duration) *pssSampler {
	s := &pssSampler{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		t := time.NewTicker(every)
		defer t.Stop()
		for n := 0; ; n++ {
			s.sample(pids(), n)
			select {
			case <-s.stop:
				s.sample(pids(), 0) // the last: the whole too
				return
			case <-t.C:
			}
		}
	}()
	return s
}

// sample is the n-th sample of ps.
func (s *pssSampler) sample(ps []int, n int) {
	if len(ps) == 1 {
		_, anon := rssKB(ps[0])
		s.reads.status++
		s.anon = max(s.anon, anon)
	}
	if n%pssEvery != 0 {
		return
	}
	var sum, anon int64
	for _, p := range ps {
		a, b := pssKB(p)
		s.reads.rollup++
		sum, anon = sum+a, anon+b
	}
	s.peak = max(s.peak, sum)
	if len(ps) > 1 {
		s.anon = max(s.anon, anon)
	}
}

// PeakMB stops the sampler and returns the peak in MiB.
func (s *pssSampler) PeakMB() float64 {
	s.halt()
	return float64(s.peak) / 1024
}

// AnonPeakMB stops the sampler and returns the peak of anonymous memory in MiB.
func (s *pssSampler) AnonPeakMB() float64 {
	s.halt()
	return float64(s.anon) / 1024
}

func (s *pssSampler) halt() {
	select {
	case <-s.done:
	default:
		close(s.stop)
		<-s.done
	}
}

// child is a running copy of this program in one of its child roles.
type child struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string
	wg     sync.WaitGroup
	maxRSS float64 // MB, set by wait
	cpu    float64 // user + system seconds, set by wait
}

// startChild runs this executable with -child=role and args. Its standard
// error goes to ours; its standard output is read line by line.
func startChild(role string, args ...string) (*child, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe, append([]string{"-child=" + role}, args...)...)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c := &child{cmd: cmd, stdin: stdin, lines: make(chan string, 64)}
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		defer close(c.lines)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
	}()
	return c, nil
}

// expect waits for a line starting with prefix and returns the rest.
func (c *child) expect(prefix string, timeout time.Duration) (string, error) {
	deadline := time.After(timeout)
	for {
		select {
		case line, ok := <-c.lines:
			if !ok {
				return "", fmt.Errorf("child %s ended before saying %q", c.cmd.Args[1], prefix)
			}
			if rest, found := strings.CutPrefix(line, prefix); found {
				return strings.TrimSpace(rest), nil
			}
		case <-deadline:
			return "", fmt.Errorf("child %s: no %q within %s", c.cmd.Args[1], prefix, timeout)
		}
	}
}

// warmWait is the longest a serving child's start-up warm-up is waited
// for (ours-serve's WARM line).
const warmWait = 30 * time.Minute

// expectWarm waits for an ours-serve child's start-up warm-up to end and
// logs how long it took.
func (c *child) expectWarm() error {
	secs, err := c.expect("WARM", warmWait)
	if err == nil {
		logf("server warm-up done in %s s", secs)
	}
	return err
}

// stop closes the child's standard input (servers stop on it), waits for
// it, and records its peak RSS (getrusage ru_maxrss).
func (c *child) stop() error {
	c.stdin.Close()
	err := c.cmd.Wait()
	c.wg.Wait()
	if ru, ok := c.cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		c.maxRSS = float64(ru.Maxrss) / 1024
		c.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
	}
	return err
}

// pid is the child's process id.
func (c *child) pid() int { return c.cmd.Process.Pid }

// vmHWM is a running process's peak resident set (VmHWM) in MiB.
func vmHWM(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			n, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return n / 1024
		}
	}
	return 0
}

// runChildJSON runs a loading child to completion and decodes the JSON
// line it prints; it records the child's peak RSS.
func runChildJSON(role string, v *indexStats, args ...string) error {
	c, err := startChild(role, args...)
	if err != nil {
		return err
	}
	sampler := samplePSS(func() []int { return []int{c.pid()} }, 250*time.Millisecond)
	defer func() { v.AnonPeakMB = sampler.AnonPeakMB() }()
	var last string
	for line := range c.lines {
		last = line
	}
	if err := c.stop(); err != nil {
		return fmt.Errorf("child %s: %w", role, err)
	}
	if err := jsonUnmarshalString(last, v); err != nil {
		return fmt.Errorf("child %s printed %q: %w", role, last, err)
	}
	v.PeakRSSMB = c.maxRSS
	if v.CPUSeconds == 0 { // the child's own, before reading its disk, when it says
		v.CPUSeconds = c.cpu
	}
	return nil
}

// loadAvg is the 1-minute load average.
func loadAvg() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0
	}
	v, _ := strconv.ParseFloat(f[0], 64)
	return v
}

// loadSampler samples the 1-minute load average until stopped.
type loadSampler struct {
	stop    chan struct{}
	done    chan struct{}
	samples []float64
}

func sampleLoad(every time.Duration) *loadSampler {
	s := &loadSampler{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			s.samples = append(s.samples, loadAvg())
			select {
			case <-s.stop:
				return
			case <-t.C:
			}
		}
	}()
	return s
}

// Stop returns the mean and the highest sample.
func (s *loadSampler) Stop() (mean, peak float64) {
	close(s.stop)
	<-s.done
	for _, v := range s.samples {
		mean += v
		peak = max(peak, v)
	}
	if len(s.samples) > 0 {
		mean /= float64(len(s.samples))
	}
	return mean, peak
}
