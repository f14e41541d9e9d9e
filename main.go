// Command recordwatch republishes and joins New York City's public records.
// One binary, several roles (-target): "all" (default: API, indexer and
// mailer in one process over the embedded engine, loading the bundled sample
// corpus on first start), or "api", "indexer", "mailer" one at a time for
// deployments on OpenSearch. This is the only place concrete engines are
// chosen.
package main

import (
	"cmp"
	"context"
	"embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/mail"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/recordwatch/recordwatch/api"
	"github.com/recordwatch/recordwatch/api/mcp"
	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/indexer/source/checkbook"
	"github.com/recordwatch/recordwatch/internal/backup"
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
	"github.com/recordwatch/recordwatch/internal/search/embedded"
	"github.com/recordwatch/recordwatch/internal/search/opensearch"
	"github.com/recordwatch/recordwatch/internal/semantic"
	"github.com/recordwatch/recordwatch/internal/store"
	"github.com/recordwatch/recordwatch/internal/store/osstore"
	"github.com/recordwatch/recordwatch/internal/view"
	"github.com/recordwatch/recordwatch/internal/watch"
	"github.com/recordwatch/recordwatch/mailer"
)

// version is reported to MCP clients.
const version = "0.1.0"

// sample is the bundled corpus of real public rows loaded on first start.
//
//go:embed testdata/sample
var sample embed.FS

// Config is read once, from flags and RECORDWATCH_* environment variables
// (flags win).
type Config struct {
	Target        string
	Addr          string
	Data          string
	Form          int
	BaseURL       string
	Engine        string
	OpenSearchURL string
	// OpenSearchPrefix names the indexes (several deployments or test runs
	// can share one cluster).
	OpenSearchPrefix string
	OpenSearchUser,
	OpenSearchPassword string
	LogLevel string

	// indexer role
	Source       string
	SourceDir    string
	Live         bool
	Full         bool
	Every        time.Duration
	SODAToken    string
	SODAEndpoint string

	CheckbookEndpoint string
	PLUTOEndpoint     string
	CheckbookType     string
	CheckbookFrom     string
	CheckbookTo       string
	// LegistarToken is the Legistar Web API token of the meetings' live
	// fetch (RECORDWATCH_LEGISTAR_TOKEN); CalendarURLs the community-board
	// calendar addresses it reads (RECORDWATCH_CB_CALENDAR_URLS,
	// comma-separated; each must answer the calendar's text: boards
	// publish PDFs and no PDF text is extracted here).
	LegistarToken string
	CalendarURLs  []string

	TrustedProxies []string
	// RatePerSecond and Burst bound each client's requests (api.Config;
	// RECORDWATCH_RATE_PER_SECOND, RECORDWATCH_RATE_BURST).
	RatePerSecond float64
	Burst         int
	// OperatorEmail receives one mail per incident of a late scheduled
	// job (RECORDWATCH_OPERATOR_EMAIL; empty: logged only).
	OperatorEmail string
	// MinFreeMB is the data directory's free space, in MiB, below which
	// /readyz reports disk_space down (RECORDWATCH_MIN_FREE_MB, -min-free-mb;
	// default disk.DefaultMinFree).
	MinFreeMB int

	// backup and restore targets (internal/backup): the file written or
	// read, and whether restore may replace the state file of a data
	// directory that is not empty.
	Out   string
	In    string
	Force bool
}

// DefaultAddr is the HTTP listen address when neither -addr nor
// RECORDWATCH_ADDR names one: loopback, so a newcomer's go run . opens no
// port to the network (the container image sets RECORDWATCH_ADDR to
// 0.0.0.0:8080; mailer.DefaultSMTPAddr is loopback alike).
const DefaultAddr = "127.0.0.1:8080"

func env(name, def string) string {
	if v, ok := os.LookupEnv(name); ok && v != "" {
		return v
	}
	return def
}

func parseConfig(args []string, stderr io.Writer) (Config, error) {
	var c Config
	fl := flag.NewFlagSet("recordwatch", flag.ContinueOnError)
	fl.SetOutput(stderr)
	form, _ := strconv.Atoi(env("RECORDWATCH_FORM", "1"))
	fl.StringVar(&c.Target, "target", env("RECORDWATCH_TARGET", "all"), "role: all, api, indexer or mailer; or backup (-out) or restore (-in) of the embedded state store")
	fl.StringVar(&c.Addr, "addr", env("RECORDWATCH_ADDR", DefaultAddr), "HTTP listen address (default loopback only; 0.0.0.0:8080 or :8080 for every interface)")
	fl.StringVar(&c.Data, "data", env("RECORDWATCH_DATA", "./data"), "data directory (embedded index and state; with engine opensearch only the mail outbox)")
	fl.IntVar(&c.Form, "form", form, "interface form: 1 extended, 2 basic")
	fl.StringVar(&c.BaseURL, "base-url", env("RECORDWATCH_BASE_URL", ""), "absolute base URL for links (default http://localhost<addr>)")
	fl.StringVar(&c.Engine, "engine", env("RECORDWATCH_ENGINE", "embedded"), "search engine: embedded or opensearch")
	fl.StringVar(&c.OpenSearchURL, "opensearch-url", env("OPENSEARCH_URL", ""), "OpenSearch URL (engine opensearch)")
	fl.StringVar(&c.OpenSearchPrefix, "opensearch-index-prefix", env("RECORDWATCH_OPENSEARCH_INDEX_PREFIX", opensearch.DefaultIndexPrefix), "OpenSearch index and alias name prefix (engine opensearch)")
	fl.StringVar(&c.LogLevel, "log-level", env("RECORDWATCH_LOG_LEVEL", "info"), "debug, info, warn or error")
	fl.StringVar(&c.Source, "source", env("RECORDWATCH_SOURCE", ""), "indexer: source to load ("+strings.Join(indexer.SourceNames(), ", ")+
		"; default crol, and with -live every live source on its schedule)")
	fl.StringVar(&c.SourceDir, "source-dir", env("RECORDWATCH_SOURCE_DIR", ""), "indexer: load files from this directory instead of the bundled sample")
	fl.BoolVar(&c.Live, "live", env("RECORDWATCH_LIVE", "") == "1", "indexer: fetch from the live source API")
	fl.BoolVar(&c.Full, "full", false, "indexer: with -live, fetch everything instead of changes since the last run")
	fl.DurationVar(&c.Every, "every", 0, "indexer: with -live, repeat at this interval (e.g. 6h) instead of once")
	fl.StringVar(&c.SODAEndpoint, "soda-endpoint", env("RECORDWATCH_SODA_ENDPOINT", ""), "indexer: SODA endpoint (default the NYC Open Data dg92-zbpx endpoint)")
	fl.StringVar(&c.PLUTOEndpoint, "mappluto-endpoint", env("RECORDWATCH_MAPPLUTO_ENDPOINT", ""), "indexer: MapPLUTO SODA endpoint (default the NYC Open Data 64uk-42ks endpoint)")
	fl.StringVar(&c.CheckbookEndpoint, "checkbook-endpoint", env("RECORDWATCH_CHECKBOOK_ENDPOINT", checkbook.Endpoint), "indexer: Checkbook NYC API endpoint")
	fl.StringVar(&c.CheckbookType, "checkbook-type", env("RECORDWATCH_CHECKBOOK_TYPE", "Spending"), "indexer: Checkbook type of data (Spending, Contracts, Payroll)")
	fl.StringVar(&c.CheckbookFrom, "checkbook-from", "", "indexer: with -source=checkbook -live, first day (YYYY-MM-DD; default 7 days ago)")
	fl.StringVar(&c.CheckbookTo, "checkbook-to", "", "indexer: with -source=checkbook -live, last day (YYYY-MM-DD; default today)")
	rate, _ := strconv.ParseFloat(env("RECORDWATCH_RATE_PER_SECOND", "20"), 64)
	burst, _ := strconv.Atoi(env("RECORDWATCH_RATE_BURST", "60"))
	fl.Float64Var(&c.RatePerSecond, "rate", rate, "requests per second each client may send (sustained)")
	fl.IntVar(&c.Burst, "burst", burst, "requests each client may send at once")
	minFree, _ := strconv.Atoi(env("RECORDWATCH_MIN_FREE_MB", strconv.Itoa(disk.DefaultMinFree>>20)))
	fl.IntVar(&c.MinFreeMB, "min-free-mb", minFree, "free space (MiB) of the data directory below which /readyz reports disk_space down (embedded engine)")
	fl.StringVar(&c.Out, "out", "", "backup: the file the state store's copy is written to")
	fl.StringVar(&c.In, "in", "", "restore: the backup file loaded into -data")
	fl.BoolVar(&c.Force, "force", false, "restore: replace the state file of a data directory that is not empty")
	if err := fl.Parse(args); err != nil {
		return c, err
	}
	if !(c.RatePerSecond > 0) || c.Burst < 1 {
		return c, fmt.Errorf("-rate must be above 0 and -burst at least 1 (RECORDWATCH_RATE_PER_SECOND, RECORDWATCH_RATE_BURST)")
	}
	if c.MinFreeMB < 1 {
		return c, fmt.Errorf("-min-free-mb must be at least 1 (RECORDWATCH_MIN_FREE_MB)")
	}
	c.OpenSearchUser = os.Getenv("OPENSEARCH_USERNAME")
	c.OpenSearchPassword = os.Getenv("OPENSEARCH_PASSWORD")
	c.SODAToken = os.Getenv("RECORDWATCH_SODA_APP_TOKEN")
	c.LegistarToken = os.Getenv("RECORDWATCH_LEGISTAR_TOKEN")
	c.OperatorEmail = strings.TrimSpace(os.Getenv("RECORDWATCH_OPERATOR_EMAIL"))
	if c.OperatorEmail != "" {
		if a, err := mail.ParseAddress(c.OperatorEmail); err != nil || a.Name != "" || len(c.OperatorEmail) > 254 {
			return c, fmt.Errorf("RECORDWATCH_OPERATOR_EMAIL must be one plain address, not %q", c.OperatorEmail)
		}
	}
	for _, u := range strings.Split(os.Getenv("RECORDWATCH_CB_CALENDAR_URLS"), ",") {
		if u = strings.TrimSpace(u); u != "" {
			c.CalendarURLs = append(c.CalendarURLs, u)
		}
	}
	if tp := env("RECORDWATCH_TRUSTED_PROXIES", ""); tp != "" {
		c.TrustedProxies = strings.Split(tp, ",")
	}
	switch c.Target {
	case "all", "api", "indexer", "mailer":
	case "backup", "restore":
		if c.Target == "backup" && c.Out == "" || c.Target == "restore" && c.In == "" {
			return c, fmt.Errorf("-target=backup needs -out FILE; -target=restore needs -in FILE (and -data DIR)")
		}
	default:
		return c, fmt.Errorf("unknown -target %q: use all, api, indexer, mailer, backup or restore", c.Target)
	}
	if c.Form != 1 && c.Form != 2 {
		return c, fmt.Errorf("RECORDWATCH_FORM must be 1 or 2, not %d", c.Form)
	}
	switch c.Engine {
	case "embedded":
	case "opensearch":
		if c.OpenSearchURL == "" {
			return c, errors.New("engine opensearch needs OPENSEARCH_URL")
		}
	default:
		return c, fmt.Errorf("unknown engine %q: use embedded or opensearch", c.Engine)
	}
	if (c.Target == "backup" || c.Target == "restore") && c.Engine != "embedded" {
		return c, errors.New("-target=backup and restore copy the embedded state store; with OpenSearch, snapshot the <prefix>-state index (docs/operations.md, Backup and restore)")
	}
	if c.BaseURL == "" {
		host := c.Addr
		if strings.HasPrefix(host, "0.0.0.0:") || host == DefaultAddr {
			host = ":" + strings.SplitN(host, ":", 2)[1]
		}
		if strings.HasPrefix(host, ":") {
			host = "localhost" + host
		}
		c.BaseURL = "http://" + host
	}
	c.BaseURL = strings.TrimRight(c.BaseURL, "/")
	return c, nil
}

func main() {
	cfg, err := parseConfig(os.Args[1:], os.Stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return
		}
		fmt.Fprintln(os.Stderr, "recordwatch:", err)
		os.Exit(2)
	}
	var level slog.Level
	_ = level.UnmarshalText([]byte(cfg.LogLevel))
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	setMemoryLimit(os.Getenv, logger)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, cfg, logger, time.Now); err != nil {
		logger.Error("recordwatch stopped", "err", err)
		os.Exit(1)
	}
}

// setMemoryLimit sets the Go runtime's soft memory limit from the
// machine's memory (embedded.SetSoftMemoryLimit) when the environment sets
// none (GOMEMLIMIT): without one a load's heap grows to about twice its
// live size before it is collected.
func setMemoryLimit(getenv func(string) string, logger *slog.Logger) {
	if limit, from, ok := embedded.SetSoftMemoryLimit(getenv); ok {
		logger.Debug("soft memory limit set", "bytes", limit, "from", from)
	}
}

// openEngine opens the one engine every role reads and writes through,
// behind the response cache (search/cache.go), and its account of damaged
// segments it refused (the embedded engine's; nil for OpenSearch, whose
// cluster keeps its own checksums).
func openEngine(ctx context.Context, cfg Config, logger *slog.Logger, now func() time.Time) (*search.Cache, search.Integrity, error) {
	if cfg.Engine == "opensearch" {
		e, err := opensearch.Open(ctx, opensearch.Config{URL: cfg.OpenSearchURL, IndexPrefix: cfg.OpenSearchPrefix, Username: cfg.OpenSearchUser,
			Password: cfg.OpenSearchPassword, Logger: logger, Now: now})
		if err != nil {
			return nil, nil, err
		}
		c := search.NewCache(e)
		c.TTL = search.SharedEngineTTL // other processes write to the cluster too (search.Cached)
		return c, nil, nil
	}
	e, err := embedded.Open(filepath.Join(cfg.Data, "index"))
	if err != nil {
		return nil, nil, err
	}
	e.Now = now // coverage dates stop at the future cutoff (record.FutureCutoff)
	return search.NewCache(e), e, nil
}

// stateStore is what the roles need of the state store.
type stateStore interface {
	store.Store
	store.Sweeper
	store.Receipts
}

// openStore opens the state store: with the OpenSearch engine every role
// shares one (<prefix>-state in the same cluster), so watches created
// through the api role are the ones the mailer role digests, and ceilings,
// counters, shares and token keys are the same in every process; the
// embedded engine keeps a bbolt file in the data directory.
func openStore(ctx context.Context, cfg Config, logger *slog.Logger) (stateStore, error) {
	if cfg.Engine == "opensearch" {
		return osstore.Open(ctx, osstore.Config{URL: cfg.OpenSearchURL, IndexPrefix: cfg.OpenSearchPrefix,
			Username: cfg.OpenSearchUser, Password: cfg.OpenSearchPassword, Logger: logger})
	}
	st, err := store.OpenBolt(filepath.Join(cfg.Data, backup.StateFile))
	if err != nil {
		return nil, err
	}
	// the file is this process's now: -target=backup copies it through
	// this process, on a unix socket in the data directory
	if err := backup.Serve(ctx, cfg.Data, st, logger); err != nil {
		logger.Warn("online backup unavailable (-target=backup works while the service is stopped)", "err", err)
	}
	return st, nil
}

// runBackup writes a consistent copy of the embedded state store to
// cfg.Out: from the running service, or from the file when none runs.
func runBackup(ctx context.Context, cfg Config, logger *slog.Logger) error {
	res, err := backup.Write(ctx, cfg.Data, cfg.Out)
	if err != nil {
		return err
	}
	how := "offline (no service running on the data directory)"
	if res.Online {
		how = "online (from the running service)"
	}
	logger.Info("backup written", "file", cfg.Out, "how", how, "bytes", res.Summary.Bytes, "watches", res.Summary.Watches,
		"shares", res.Summary.Shares, "mail_outbox", res.Summary.Mail)
	return nil
}

// runRestore loads a backup into cfg.Data; the index is rebuilt from the
// sources at the next start, so the indexer jobs' receipts are dropped.
func runRestore(cfg Config, logger *slog.Logger) error {
	var jobs []string
	for _, j := range indexer.DefaultJobs() {
		jobs = append(jobs, j.Name)
	}
	sum, err := backup.Restore(cfg.In, cfg.Data, cfg.Force, jobs)
	if err != nil {
		return err
	}
	logger.Info("state store restored; start the service on it (the index is rebuilt from the sources)", "data", cfg.Data,
		"bytes", sum.Bytes, "watches", sum.Watches, "shares", sum.Shares, "mail_outbox", sum.Mail)
	return nil
}

// run wires the chosen role and blocks until ctx ends (or, for a one-shot
// indexer run, until it is done).
func run(ctx context.Context, cfg Config, logger *slog.Logger, now func() time.Time) error {
	switch cfg.Target {
	case "backup":
		return runBackup(ctx, cfg, logger)
	case "restore":
		return runRestore(cfg, logger)
	}
	cache, integrity, err := openEngine(ctx, cfg, logger, now)
	if err != nil {
		return err
	}
	var backend search.Engine = cache
	defer backend.Close()
	cw := entity.DefaultCrosswalk()
	sampleFS, err := fs.Sub(sample, "testdata/sample")
	if err != nil {
		return err
	}
	ix := &indexer.Indexer{Backend: backend, Crosswalk: cw, Logger: logger, Now: now, Integrity: integrity}
	if fi, err := os.Stderr.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
		ix.Progress = os.Stderr // a progress bar only for people watching
	}

	if cfg.Target == "indexer" && !scheduled(cfg) {
		return runIndexer(ctx, cfg, ix, sampleFS, logger)
	}
	if cfg.Target == "all" {
		if _, err := ix.EnsureSample(ctx, sampleFS); err != nil {
			return fmt.Errorf("loading the sample corpus: %w", err)
		}
	}
	st, err := openStore(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer st.Close()
	jobs := indexer.DefaultJobs()
	liveStatuses := func(ctx context.Context) ([]record.JobStatus, error) {
		return indexer.JobStatuses(ctx, jobs, st, api.ReceiptsListed, now())
	}
	if cfg.Target == "indexer" {
		go (&indexer.Watchdog{Statuses: liveStatuses, Logger: logger}).Run(ctx) // late runs logged as errors
		return newScheduler(cfg, ix, jobs, st, logger, now).Run(ctx)
	}
	if cfg.Target == "all" && cfg.Live {
		go func() {
			var err error
			if scheduled(cfg) {
				err = newScheduler(cfg, ix, jobs, st, logger, now).Run(ctx)
			} else {
				err = runIndexer(ctx, cfg, ix, sampleFS, logger)
			}
			if err != nil && ctx.Err() == nil {
				logger.Error("live indexing", "err", err)
			}
		}()
	}
	// every surface reads the engine with each source's freshness stated
	// (one rule: record.Freshen, from the schedule and the receipts)
	backend = search.WithFreshness(backend, func(ctx context.Context) (func(string) record.SourceRun, error) {
		return indexer.SourceRuns(ctx, jobs, st)
	}, now)
	mcfg, err := mailer.ConfigFromEnv(os.Getenv, cfg.Data, cfg.BaseURL, cfg.Form)
	if err != nil {
		return err
	}
	if cfg.Target == "api" {
		mcfg.SMTPAddr = "" // the api role stores the mail requests promise; the mailer role delivers it, receives and digests
	}
	svc := buildServices(backend, cw, cfg, now)
	mail, err := mailer.New(ctx, mcfg, mailer.Deps{Store: st, Search: backend, Notices: svc.Notices, People: svc.People, Meetings: svc.Meetings,
		Procure: svc.Procure, Land: svc.Land, Crosswalk: cw, Logger: logger, Now: now, Receipts: st})
	if err != nil {
		return err
	}
	// the subscription lifecycle, built by the mailer over its outbound
	// side (the one mail graph: outbound, lifecycle, receiver, digests)
	svc.Watches = mail.Watches()
	// every scheduled job, the digests included, with its receipts and
	// lateness (/api/sources, /readyz, /stats); a late one is logged as an
	// error and mailed to the operator once per incident
	statuses := func(ctx context.Context) ([]record.JobStatus, error) {
		out, err := liveStatuses(ctx)
		if err != nil {
			return nil, err
		}
		d, err := indexer.JobOf(ctx, st, mailer.DigestJob, "mailer", mail.Config().PollEvery, 0, nil, api.ReceiptsListed, now())
		// a City Record row's lag to a digest mail (issue 32, item 5)
		d.DigestLag = record.DigestLagOf(record.JobLag(out, indexer.DefaultJobs()[0].Name), d.Receipts, mail.Config().DigestEvery)
		return append(out, d), err
	}
	// the alarm waits for the digest scheduler's first run after this start
	dog := &indexer.Watchdog{Statuses: mail.OperatorStatuses(statuses), Logger: logger}
	if cfg.OperatorEmail != "" {
		dog.Alert = func(ctx context.Context, subject, text string) error {
			return mail.SendOperator(ctx, cfg.OperatorEmail, subject, text)
		}
	}
	if cfg.Target == "mailer" || cfg.Target == "all" {
		go dog.Run(ctx)
	}
	if cfg.Target == "mailer" {
		go sweep(ctx, st, now, logger)
		return mail.Run(ctx) // SMTP receiver and digest scheduler, no HTTP
	}
	// every surface gets the same service values
	mcpDeps := svc.mcpDeps(mcp.Deps{Search: backend, Crosswalk: cw, BaseURL: cfg.BaseURL, Now: now, Version: version})
	apiDeps := svc.apiDeps(api.Deps{Search: backend, Store: st, Crosswalk: cw, Logger: logger, Now: now})
	apiDeps.Jobs = statuses
	apiDeps.Integrity = integrity // /readyz, /api/sources: segments refused as damaged, until rebuilt
	apiDeps.NeverLoaded = func(ctx context.Context, held []record.SourceCoverage) ([]record.SourceCoverage, error) {
		return indexer.NeverLoaded(ctx, jobs, st, held, now())
	}
	apiDeps.MCP = mcp.Handler(mcpDeps, cfg.Form)
	apiDeps.MCPCatalog = func(ctx context.Context) any { return mcp.BuildCatalog(ctx, mcpDeps, cfg.Form) }
	// /readyz: the promised mail (welcome, confirmation) is being delivered
	apiDeps.Parts = map[string]func() error{"mail_outbox": func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return mail.OutboxReady(ctx)
	}}
	if cfg.Target == "all" && mcfg.SMTPAddr != "" {
		apiDeps.Parts["mail_receiver"] = mail.Ready
	}
	acfg := api.Config{Form: cfg.Form, BaseURL: cfg.BaseURL, Engine: backend.Name(), TrustedProxies: cfg.TrustedProxies,
		RatePerSecond: cfg.RatePerSecond, Burst: cfg.Burst, MinFreeBytes: uint64(cfg.MinFreeMB) << 20}
	if cfg.Engine == "embedded" { // the index and the state store write into the data directory
		acfg.DataDir = cfg.Data
	}
	srv := api.New(acfg, apiDeps)
	hs := &http.Server{Addr: cfg.Addr, Handler: srv, ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout: 30 * time.Second, WriteTimeout: 60 * time.Second, IdleTimeout: 2 * time.Minute}
	// listen before saying so: a taken port ends the process here
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("HTTP listen on %s: %w", cfg.Addr, err)
	}
	if cfg.Target == "all" {
		go func() {
			if err := mail.Run(ctx); err != nil && ctx.Err() == nil {
				logger.Error("mailer stopped; the API keeps serving", "err", err)
			}
		}()
	}
	go func() {
		// vectors of notices indexed before semantic search existed
		if n, err := svc.Semantic.Backfill(ctx); err != nil && ctx.Err() == nil {
			logger.Error("semantic vectors not completed; semantic search states how many it holds", "err", err)
		} else if n > 0 {
			logger.Info("semantic vectors completed", "notices", n)
		}
	}()
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	logger.Info("recordwatch serving", "addr", cfg.Addr, "base_url", cfg.BaseURL, "engine", backend.Name(), "form", cfg.Form, "target", cfg.Target)
	go sweep(ctx, st, now, logger)
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// welcome and confirmation mails promised by the last requests are in
	// the state store: the mailer's outbox worker sends them at its next
	// pass, in this process's next start or in the mailer role
	return hs.Shutdown(shutdown)
}

// services is the one service graph: every topic service, built once over
// the one engine and handed to every surface.
type services struct {
	Notices   *notices.Service
	Semantic  *semantic.Service
	Procure   *procure.Service
	Dossiers  *dossier.Service
	Land      *land.Service
	Meetings  *meeting.Service
	People    *people.Service
	Federated *federated.Service
	Watches   *watch.Service
}

func buildServices(e search.Engine, cw *entity.Crosswalk, cfg Config, now func() time.Time) services {
	procurement := procure.New(e, cw, now)
	ppl := people.New(e, cw)
	s := services{
		Semantic:  semantic.New(e, now),
		Procure:   procurement,
		Dossiers:  dossier.New(procurement, ppl),
		Land:      &land.Service{Engine: e, Now: now},
		Meetings:  &meeting.Service{Records: e, Notices: e, Now: now},
		People:    ppl,
		Federated: federated.New(e, cw, view.Links{Base: cfg.BaseURL, Form: cfg.Form}, now),
	}
	s.Land.Meetings = s.Meetings // the meetings joined to a project are its hearings too
	s.Notices = notices.New(s.Semantic, watch.Readers{Search: e, People: ppl, Meetings: s.Meetings, Procure: procurement, Land: s.Land}, view.Links{Base: cfg.BaseURL, Form: cfg.Form}, now)
	return s
}

// apiDeps are d with the services.
func (s services) apiDeps(d api.Deps) api.Deps {
	d.Watches, d.Notices, d.Semantic, d.Procure, d.Dossiers, d.Land, d.Meetings, d.People, d.Federated =
		s.Watches, s.Notices, s.Semantic, s.Procure, s.Dossiers, s.Land, s.Meetings, s.People, s.Federated
	return d
}

// mcpDeps are d with the same services.
func (s services) mcpDeps(d mcp.Deps) *mcp.Deps {
	d.Watches, d.Notices, d.Semantic, d.Procure, d.Dossiers, d.Land, d.Meetings, d.People, d.Federated =
		s.Watches, s.Notices, s.Semantic, s.Procure, s.Dossiers, s.Land, s.Meetings, s.People, s.Federated
	return &d
}

func sweep(ctx context.Context, st store.Sweeper, now func() time.Time, logger *slog.Logger) {
	t := time.NewTicker(time.Hour)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if n, err := st.Sweep(now()); err != nil {
				logger.Warn("sweep", "err", err)
			} else if n > 0 {
				logger.Debug("sweep", "removed", n)
			}
		}
	}
}

// runIndexer runs the indexer role: one load of the source's files (the
// bundled sample, or -source-dir), or with -live its live fetch through
// the same pipeline, once or every -every.
// scheduled says whether the indexer runs the scheduler (every live
// source on its own interval): -live without -source.
func scheduled(cfg Config) bool { return cfg.Live && cfg.Source == "" }

// newScheduler is the scheduler of every job, with the operator's live
// configuration.
func newScheduler(cfg Config, ix *indexer.Indexer, jobs []indexer.Job, st store.Receipts, logger *slog.Logger, now func() time.Time) *indexer.Scheduler {
	lc, _ := liveConfig(Config{Full: cfg.Full, SODAToken: cfg.SODAToken, SODAEndpoint: cfg.SODAEndpoint, CheckbookEndpoint: cfg.CheckbookEndpoint, PLUTOEndpoint: cfg.PLUTOEndpoint,
		LegistarToken: cfg.LegistarToken, CalendarURLs: cfg.CalendarURLs}) // the jobs set the dates and types
	return &indexer.Scheduler{Indexer: ix, Jobs: jobs, Receipts: st, Config: lc, Logger: logger, Now: now}
}

func runIndexer(ctx context.Context, cfg Config, ix *indexer.Indexer, sampleFS fs.FS, logger *slog.Logger) error {
	src, err := indexer.LookupSource(cmp.Or(cfg.Source, "crol"))
	if err != nil {
		return err
	}
	if !cfg.Live {
		var fsys fs.FS = sampleFS
		dir := src.Name()
		if cfg.SourceDir != "" {
			fsys, dir = os.DirFS(cfg.SourceDir), "."
		}
		_, err := ix.Load(ctx, src, fsys, dir)
		return err
	}
	live, ok := src.(indexer.LiveSource)
	if !ok {
		return fmt.Errorf("source %q has no live fetch: load its files with -source-dir", src.Name())
	}
	lc, err := liveConfig(cfg)
	if err != nil {
		return err
	}
	return repeat(ctx, cfg.Every, logger, src.Name(), func() error {
		_, err := ix.RunLive(ctx, live, lc)
		return err
	})
}

// liveConfig is the live fetches' configuration, from the flags and
// environment.
func liveConfig(cfg Config) (indexer.LiveConfig, error) {
	lc := indexer.LiveConfig{Full: cfg.Full, SODAToken: cfg.SODAToken, SODAEndpoint: cfg.SODAEndpoint, PLUTOEndpoint: cfg.PLUTOEndpoint,
		CheckbookEndpoint: cfg.CheckbookEndpoint, CheckbookType: cfg.CheckbookType,
		LegistarToken: cfg.LegistarToken, CalendarURLs: cfg.CalendarURLs}
	for _, d := range []struct {
		name, value string
		to          *time.Time
	}{{"checkbook-from", cfg.CheckbookFrom, &lc.CheckbookFrom}, {"checkbook-to", cfg.CheckbookTo, &lc.CheckbookTo}} {
		if d.value == "" {
			continue
		}
		t, err := time.Parse("2006-01-02", d.value)
		if err != nil {
			return lc, fmt.Errorf("-%s must be YYYY-MM-DD, not %q", d.name, d.value)
		}
		*d.to = t
	}
	return lc, nil
}

// repeat runs a live fetch once, or every interval until ctx ends; with an
// interval, a failed run is logged and retried at the next one.
func repeat(ctx context.Context, every time.Duration, logger *slog.Logger, what string, run func() error) error {
	for {
		if err := run(); err != nil {
			if every == 0 {
				return err
			}
			logger.Error("live run failed; will retry at the next interval", "source", what, "err", err)
		}
		if every == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(every):
		}
	}
}
