package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// PostgreSQL runs as a private, throwaway cluster under the work directory
// (initdb, then pg_ctl on a loopback-only port, no Unix socket), so the
// machine's own clusters are never touched. The binaries come from Debian's
// postgresql package, installed when missing.

// pgSettings are the server settings of the benchmark cluster: memory a
// tuned single-machine deployment would give it, JIT off (it adds tens of
// milliseconds of compilation to short queries), and everything else at
// Debian's defaults.
var pgSettings = []string{
	"listen_addresses=127.0.0.1",
	"unix_socket_directories=",
	"shared_buffers=1GB",
	"effective_cache_size=8GB",
	"work_mem=32MB",
	"maintenance_work_mem=1GB",
	"max_connections=100",
	"jit=off",
	"synchronous_commit=off",
	"max_wal_size=8GB",
	"checkpoint_timeout=30min",
}

const pgDB = "recordwatch_bench"

// pgCluster is a private PostgreSQL cluster.
type pgCluster struct {
	bin  string // directory of initdb, pg_ctl, postgres
	dir  string
	port int
	log  string
	asPG bool // run the tools as the postgres user (we are root)
}

// pgBinDir finds PostgreSQL's server binaries, installing the Debian
// package when they are missing and we are root.
func pgBinDir(logf func(string, ...any)) (string, error) {
	find := func() string {
		dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
		sort.Slice(dirs, func(i, j int) bool { return pgMajor(dirs[i]) > pgMajor(dirs[j]) })
		for _, d := range dirs {
			if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
				return d
			}
		}
		return ""
	}
	if d := find(); d != "" {
		return d, nil
	}
	if os.Geteuid() != 0 {
		return "", errors.New("PostgreSQL is not installed and we are not root: apt-get install -y --no-install-recommends postgresql")
	}
	logf("installing PostgreSQL from Debian packages (apt-get)")
	for _, args := range [][]string{{"update", "-qq"}, {"install", "-y", "-qq", "--no-install-recommends", "postgresql"}} {
		cmd := exec.Command("apt-get", args...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("apt-get %s: %w\n%s", strings.Join(args, " "), err, out)
		}
	}
	if d := find(); d != "" {
		return d, nil
	}
	return "", errors.New("PostgreSQL installed, but no /usr/lib/postgresql/*/bin/initdb")
}

func pgMajor(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

func (c *pgCluster) run(name string, args ...string) error {
	path := filepath.Join(c.bin, name)
	var cmd *exec.Cmd
	if c.asPG {
		cmd = exec.Command("runuser", append([]string{"-u", "postgres", "--", path}, args...)...)
	} else {
		cmd = exec.Command(path, args...)
	}
	cmd.Dir = "/"
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %w\n%s", name, strings.Join(args, " "), err, out)
	}
	return nil
}

// newPGCluster prepares (fresh, unless reuse and it exists) a cluster in dir.
func newPGCluster(dir string, port int, reuse bool, logf func(string, ...any)) (*pgCluster, error) {
	bin, err := pgBinDir(logf)
	if err != nil {
		return nil, err
	}
	c := &pgCluster{bin: bin, dir: filepath.Join(dir, "cluster"), port: port, log: filepath.Join(dir, "server.log"), asPG: os.Geteuid() == 0}
	if reuse {
		if _, err := os.Stat(filepath.Join(c.dir, "PG_VERSION")); err == nil {
			return c, nil
		}
	}
	os.RemoveAll(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if c.asPG {
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, err
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			return nil, err
		}
	}
	if err := c.run("initdb", "-D", c.dir, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C.UTF-8"); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *pgCluster) start() error {
	opts := fmt.Sprintf("-p %d", c.port)
	for _, s := range pgSettings {
		k, v, _ := strings.Cut(s, "=")
		opts += fmt.Sprintf(" -c %s=%s", k, v)
	}
	opts = strings.Replace(opts, "unix_socket_directories=", "unix_socket_directories=''", 1)
	return c.run("pg_ctl", "-D", c.dir, "-l", c.log, "-w", "-t", "120", "-o", opts, "start")
}

func (c *pgCluster) stop() error { return c.run("pg_ctl", "-D", c.dir, "-m", "fast", "-w", "stop") }

func (c *pgCluster) dsn(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", c.port, db)
}

// pgPIDs are the cluster's server processes (the postmaster and its children).
func (c *pgCluster) pids() []int {
	b, err := os.ReadFile(filepath.Join(c.dir, "postmaster.pid"))
	if err != nil {
		return nil
	}
	first, _, _ := strings.Cut(string(b), "\n")
	pm, err := strconv.Atoi(strings.TrimSpace(first))
	if err != nil {
		return nil
	}
	return append([]int{pm}, childPIDs(pm)...)
}

// pgTSConfig is the text search configuration of the tsvector columns and
// of the queries: a copy of PostgreSQL's english (its parser, its stop
// list) whose words are stemmed by the classic Porter stemmer that
// PostgreSQL's Snowball sources carry (Language = porter) instead of
// Snowball English (Porter2). Bleve, OpenSearch's porter_stem and FTS5's
// porter tokenizer are all classic Porter; Porter2 stems differently
// ("generates" → "generat", not "gener"; "emotionally" → "emot", not
// "emotion"), so with english PostgreSQL found other documents for the
// same word.
const pgTSConfig = "rw_english"

// pgTextSearch creates pgTSConfig in the benchmark's database.
const pgTextSearch = `
CREATE TEXT SEARCH DICTIONARY rw_porter (TEMPLATE = snowball, Language = porter, StopWords = english);
CREATE TEXT SEARCH CONFIGURATION ` + pgTSConfig + ` (COPY = english);
ALTER TEXT SEARCH CONFIGURATION ` + pgTSConfig + ` ALTER MAPPING REPLACE english_stem WITH rw_porter;`

// pgSchema: content and passage text are stored as peerText (Recordwatch's
// word boundaries), so to_tsvector sees the same words as Bleve.
const pgSchema = pgTextSearch + `
CREATE TABLE notices (
	request_id   text PRIMARY KEY,
	title        text NOT NULL,
	agency_id    text NOT NULL,
	agency_name  text NOT NULL,
	vendor_stem  text NOT NULL,
	vendor_name  text NOT NULL,
	notice_type  text NOT NULL,
	section      text NOT NULL,
	lenses       text[] NOT NULL,
	year         text NOT NULL,
	start_date   timestamptz,
	amount       double precision,
	amount_valid boolean NOT NULL,
	content      text NOT NULL,
	tsv          tsvector GENERATED ALWAYS AS (to_tsvector('` + pgTSConfig + `', content)) STORED
);
CREATE TABLE passages (
	id         text PRIMARY KEY,
	request_id text NOT NULL,
	title      text NOT NULL,
	start_date timestamptz,
	text       text NOT NULL,
	tsv        tsvector GENERATED ALWAYS AS (to_tsvector('` + pgTSConfig + `', text)) STORED
);`

const pgIndexes = `
CREATE INDEX notices_tsv ON notices USING gin (tsv);
CREATE INDEX notices_agency ON notices (agency_id);
CREATE INDEX notices_vendor ON notices (vendor_stem, start_date DESC);
CREATE INDEX notices_start ON notices (start_date DESC);
CREATE INDEX passages_tsv ON passages USING gin (tsv);
VACUUM ANALYZE notices;
VACUUM ANALYZE passages;`

// childPGLoad loads the corpus into a fresh database: two COPY streams
// (notices and passages) on two connections, then the GIN and B-tree
// indexes, then VACUUM ANALYZE.
func childPGLoad(args []string) error {
	fl := flag.NewFlagSet("pg-load", flag.ContinueOnError)
	corpus := fl.String("corpus", "", "corpus file")
	dsn := fl.String("dsn", "", "postgres DSN of the maintenance database")
	if err := fl.Parse(args); err != nil {
		return err
	}
	ctx := context.Background()
	start := time.Now()
	admin, err := pgx.Connect(ctx, *dsn)
	if err != nil {
		return err
	}
	if _, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+pgDB); err != nil {
		return err
	}
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+pgDB+" TEMPLATE template0 ENCODING 'UTF8'"); err != nil {
		return err
	}
	admin.Close(ctx)
	dbDSN := strings.Replace(*dsn, "/postgres?", "/"+pgDB+"?", 1)
	nc, err := pgx.Connect(ctx, dbDSN)
	if err != nil {
		return err
	}
	defer nc.Close(ctx)
	if _, err := nc.Exec(ctx, pgSchema); err != nil {
		return err
	}
	pc, err := pgx.Connect(ctx, dbDSN)
	if err != nil {
		return err
	}
	defer pc.Close(ctx)

	notices := make(chan []any, 4096)
	passages := make(chan []any, 8192)
	var st indexStats
	errc := make(chan error, 2)
	go func() {
		_, err := nc.CopyFrom(ctx, pgx.Identifier{"notices"}, []string{"request_id", "title", "agency_id", "agency_name",
			"vendor_stem", "vendor_name", "notice_type", "section", "lenses", "year", "start_date", "amount", "amount_valid", "content"},
			chanSource(notices))
		errc <- err
	}()
	go func() {
		_, err := pc.CopyFrom(ctx, pgx.Identifier{"passages"}, []string{"id", "request_id", "title", "start_date", "text"},
			chanSource(passages))
		errc <- err
	}()
	readErr := readCorpus(*corpus, indexer.DefaultBatch, func(ns []record.Notice) error {
		for _, d := range indexer.Docs(ns) {
			n := d.Notice
			var amount any
			if n.AmountValid {
				amount = n.Amount
			}
			notices <- []any{n.RequestID, n.Title, n.AgencyID, n.AgencyName, n.VendorStem, n.VendorName, n.NoticeType,
				n.Section, nonNil(n.Lenses), n.Year(), pgTime(n.StartDate), amount, n.AmountValid, noticeContent(n)}
			for _, p := range d.Passages {
				passages <- []any{p.ID, p.RequestID, p.Title, pgTime(p.StartDate), peerText(p.Text)}
			}
			st.Notices++
			st.Passages += len(d.Passages)
		}
		return nil
	})
	close(notices)
	close(passages)
	err = errors.Join(readErr, <-errc, <-errc)
	if err != nil {
		return err
	}
	loaded := time.Now()
	for _, stmt := range strings.Split(strings.TrimSpace(pgIndexes), ";") {
		if stmt = strings.TrimSpace(stmt); stmt == "" {
			continue
		}
		if _, err := nc.Exec(ctx, stmt); err != nil {
			return fmt.Errorf("%s: %w", stmt, err)
		}
	}
	st.Seconds = time.Since(start).Seconds()
	st.Write = st.Seconds
	fmt.Fprintf(os.Stderr, "pg-load: copy %.1fs, indexes %.1fs\n", loaded.Sub(start).Seconds(), time.Since(loaded).Seconds())
	var size int64
	if err := nc.QueryRow(ctx, "SELECT pg_database_size(current_database())").Scan(&size); err != nil {
		return err
	}
	st.Bytes = size
	st.Schema = pgTSConfig
	return writeJSON(os.Stdout, st)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func pgTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t
}

// chanSource feeds CopyFrom from a channel of rows.
type chanRows struct {
	ch  <-chan []any
	row []any
}

func chanSource(ch <-chan []any) pgx.CopyFromSource { return &chanRows{ch: ch} }

func (c *chanRows) Next() bool {
	r, ok := <-c.ch
	c.row = r
	return ok
}
func (c *chanRows) Values() ([]any, error) { return c.row, nil }
func (c *chanRows) Err() error             { return nil }

// ---- queries

// pgEngine answers the mix from PostgreSQL.
type pgEngine struct{ pool *pgxpool.Pool }

func openPG(ctx context.Context, dsn string, conns int) (*pgEngine, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, err
	}
	cfg.MaxConns = int32(conns)
	cfg.MinConns = int32(conns)
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return &pgEngine{pool: pool}, nil
}

func (e *pgEngine) Name() string { return "postgres" }
func (e *pgEngine) Close()       { e.pool.Close() }

func (e *pgEngine) Version(ctx context.Context) string {
	var v string
	_ = e.pool.QueryRow(ctx, "SHOW server_version").Scan(&v)
	return "PostgreSQL " + v
}

// pgWhere compiles the filters of q (and its keywords) to a WHERE clause.
func pgWhere(q search.Query, k search.Keywords) (where, rank string, args []any) {
	var conds []string
	rank = "0::real"
	if expr, targs, ok := pgTSQuery(k, 1); ok {
		conds = append(conds, "tsv @@ "+expr)
		rank = "ts_rank(tsv, " + expr + ")"
		args = append(args, targs...)
	}
	add := func(cond string, v any) {
		args = append(args, v)
		conds = append(conds, fmt.Sprintf(cond, len(args)))
	}
	if len(q.AgencyIDs) > 0 {
		add("agency_id = ANY($%d)", q.AgencyIDs)
	}
	if len(q.VendorStems) > 0 {
		add("vendor_stem = ANY($%d)", q.VendorStems)
	}
	if len(q.Lenses) > 0 {
		add("lenses && $%d", q.Lenses)
	}
	if q.ValidAmountOnly {
		conds = append(conds, "amount_valid")
	}
	if q.MinAmount != nil {
		add("amount >= $%d", *q.MinAmount)
	}
	if q.MaxAmount != nil {
		add("amount <= $%d", *q.MaxAmount)
	}
	if len(conds) == 0 {
		conds = append(conds, "TRUE")
	}
	return strings.Join(conds, " AND "), rank, args
}

func (e *pgEngine) Search(ctx context.Context, q search.Query, k search.Keywords) (peerResult, error) {
	where, rank, args := pgWhere(q, k)
	order := "score DESC, request_id"
	if q.Sort != search.SortRelevance {
		order = "start_date DESC NULLS LAST, request_id"
	}
	b := &pgx.Batch{}
	b.Queue("SELECT count(*) FROM notices WHERE "+where, args...)
	b.Queue(fmt.Sprintf(`SELECT request_id, title, agency_name, agency_id, start_date, amount, vendor_name, %s AS score
		FROM notices WHERE %s ORDER BY %s LIMIT %d`, rank, where, order, q.Limit), args...)
	if q.Facets {
		b.Queue(`WITH m AS MATERIALIZED (SELECT agency_id, notice_type, year, lenses FROM notices WHERE `+where+`)
			SELECT 'agency', agency_id, count(*) FROM m WHERE agency_id <> '' GROUP BY 2
			UNION ALL SELECT 'notice_type', notice_type, count(*) FROM m WHERE notice_type <> '' GROUP BY 2
			UNION ALL SELECT 'year', year, count(*) FROM m WHERE year <> '' GROUP BY 2
			UNION ALL SELECT 'lens', l, count(*) FROM m, unnest(m.lenses) AS l GROUP BY 2`, args...)
	}
	br := e.pool.SendBatch(ctx, b)
	defer br.Close()
	var res peerResult
	if err := br.QueryRow().Scan(&res.Total); err != nil {
		return res, err
	}
	rows, err := br.Query()
	if err != nil {
		return res, err
	}
	for rows.Next() {
		var h peerHit
		var start *time.Time
		var amount *float64
		var score float32
		if err := rows.Scan(&h.RequestID, &h.Title, &h.Agency, &h.AgencyID, &start, &amount, &h.Vendor, &score); err != nil {
			rows.Close()
			return res, err
		}
		h.Score = float64(score)
		h.setDate(start)
		h.Amount = amount
		res.Hits = append(res.Hits, h)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return res, err
	}
	if q.Facets {
		rows, err := br.Query()
		if err != nil {
			return res, err
		}
		fc, err := scanFacets(rows)
		rows.Close()
		if err != nil {
			return res, err
		}
		res.Facets = fc.result()
	}
	return res, nil
}

func (e *pgEngine) Passages(ctx context.Context, q search.PassageQuery, k search.Keywords) (peerResult, error) {
	var res peerResult
	expr, args, ok := pgTSQuery(k, 1)
	if !ok {
		return res, errors.New("passage search needs keywords")
	}
	b := &pgx.Batch{}
	b.Queue("SELECT count(*) FROM passages WHERE tsv @@ "+expr, args...)
	b.Queue(fmt.Sprintf(`SELECT id, request_id, title, start_date, text, ts_rank(tsv, %s) AS score
		FROM passages WHERE tsv @@ %s ORDER BY score DESC, id LIMIT %d`, expr, expr, q.Limit), args...)
	br := e.pool.SendBatch(ctx, b)
	defer br.Close()
	if err := br.QueryRow().Scan(&res.Total); err != nil {
		return res, err
	}
	rows, err := br.Query()
	if err != nil {
		return res, err
	}
	defer rows.Close()
	for rows.Next() {
		var h peerHit
		var start *time.Time
		var score float32
		if err := rows.Scan(&h.Citation, &h.RequestID, &h.Title, &start, &h.Text, &score); err != nil {
			return res, err
		}
		h.Score = float64(score)
		h.setDate(start)
		res.Hits = append(res.Hits, h)
	}
	return res, rows.Err()
}
