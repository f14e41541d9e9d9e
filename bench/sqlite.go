package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	_ "modernc.org/sqlite" // database/sql driver "sqlite" (pure Go, FTS5 built in)

	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// SQLite FTS5 through modernc.org/sqlite, in the peer server's process.
// Tokenizer: porter over unicode61 (no diacritics folding, like Bleve's and
// PostgreSQL's English analyzers); FTS5 has no stop words.

const sqliteTokenize = `tokenize='porter unicode61 remove_diacritics 0'`

var sqliteSchema = []string{
	`PRAGMA journal_mode=WAL`,
	`PRAGMA synchronous=NORMAL`,
	`PRAGMA cache_size=-262144`, // 256 MiB while loading
	`CREATE TABLE notices (
		id           INTEGER PRIMARY KEY,
		request_id   TEXT NOT NULL UNIQUE,
		title        TEXT NOT NULL,
		agency_id    TEXT NOT NULL,
		agency_name  TEXT NOT NULL,
		vendor_stem  TEXT NOT NULL,
		vendor_name  TEXT NOT NULL,
		notice_type  TEXT NOT NULL,
		section      TEXT NOT NULL,
		year         TEXT NOT NULL,
		start_date   INTEGER,
		amount       REAL,
		amount_valid INTEGER NOT NULL,
		content      TEXT NOT NULL)`,
	`CREATE TABLE notice_lenses (nid INTEGER NOT NULL, lens TEXT NOT NULL)`,
	`CREATE VIRTUAL TABLE notices_fts USING fts5(content, content='notices', content_rowid='id', ` + sqliteTokenize + `)`,
	`CREATE TABLE passages (
		id         INTEGER PRIMARY KEY,
		pid        TEXT NOT NULL UNIQUE,
		request_id TEXT NOT NULL,
		title      TEXT NOT NULL,
		start_date INTEGER,
		text       TEXT NOT NULL)`,
	`CREATE VIRTUAL TABLE passages_fts USING fts5(text, content='passages', content_rowid='id', ` + sqliteTokenize + `)`,
}

var sqliteIndexes = []string{
	`CREATE INDEX notices_agency ON notices (agency_id)`,
	`CREATE INDEX notices_vendor ON notices (vendor_stem, start_date DESC)`,
	`CREATE INDEX notices_start ON notices (start_date DESC)`,
	`CREATE INDEX notice_lenses_nid ON notice_lenses (nid)`,
	`INSERT INTO notices_fts(notices_fts) VALUES('optimize')`,
	`INSERT INTO passages_fts(passages_fts) VALUES('optimize')`,
	`ANALYZE`,
	`PRAGMA wal_checkpoint(TRUNCATE)`,
}

// childSQLiteLoad loads the corpus into a fresh SQLite file, one
// transaction per batch of indexer.DefaultBatch notices (as Recordwatch
// writes), then builds the B-tree indexes and merges the FTS5 segments.
func childSQLiteLoad(args []string) error {
	fl := flag.NewFlagSet("sqlite-load", flag.ContinueOnError)
	corpus := fl.String("corpus", "", "corpus file")
	path := fl.String("db", "", "database file")
	if err := fl.Parse(args); err != nil {
		return err
	}
	start := time.Now()
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(*path + suffix)
	}
	db, err := sql.Open("sqlite", "file:"+*path)
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, s := range sqliteSchema {
		if _, err := db.Exec(s); err != nil {
			return fmt.Errorf("%s: %w", s, err)
		}
	}
	var st indexStats
	nid, pid := 0, 0
	err = readCorpus(*corpus, indexer.DefaultBatch, func(ns []record.Notice) error {
		docs := indexer.Docs(ns)
		tx, err := db.Begin()
		if err != nil {
			return err
		}
		ins := func(q string, args ...any) {
			if err == nil {
				_, err = tx.Exec(q, args...)
			}
		}
		for _, d := range docs {
			n := d.Notice
			nid++
			var amount any
			if n.AmountValid {
				amount = n.Amount
			}
			content := noticeContent(n)
			ins(`INSERT INTO notices VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)`, nid, n.RequestID, n.Title, n.AgencyID,
				n.AgencyName, n.VendorStem, n.VendorName, n.NoticeType, n.Section, n.Year(), sqliteTime(n.StartDate),
				amount, n.AmountValid, content)
			ins(`INSERT INTO notices_fts(rowid, content) VALUES (?,?)`, nid, content)
			for _, l := range n.Lenses {
				ins(`INSERT INTO notice_lenses VALUES (?,?)`, nid, l)
			}
			for _, p := range d.Passages {
				pid++
				text := peerText(p.Text)
				ins(`INSERT INTO passages VALUES (?,?,?,?,?,?)`, pid, p.ID, p.RequestID, p.Title, sqliteTime(p.StartDate), text)
				ins(`INSERT INTO passages_fts(rowid, text) VALUES (?,?)`, pid, text)
			}
			st.Notices++
			st.Passages += len(d.Passages)
		}
		if err != nil {
			tx.Rollback()
			return err
		}
		return tx.Commit()
	})
	if err != nil {
		return err
	}
	for _, s := range sqliteIndexes {
		if _, err := db.Exec(s); err != nil {
			return fmt.Errorf("%s: %w", s, err)
		}
	}
	if err := db.Close(); err != nil {
		return err
	}
	st.Seconds = time.Since(start).Seconds()
	st.Write = st.Seconds
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if fi, err := os.Stat(*path + suffix); err == nil {
			st.Bytes += fi.Size()
		}
	}
	return writeJSON(os.Stdout, st)
}

func sqliteTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.Unix()
}

// sqliteEngine answers the mix from SQLite FTS5.
type sqliteEngine struct{ db *sql.DB }

func openSQLite(path string, conns int) (*sqliteEngine, error) {
	dsn := "file:" + path + "?mode=ro&_pragma=query_only(1)&_pragma=mmap_size(17179869184)&_pragma=cache_size(-65536)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(conns)
	db.SetMaxIdleConns(conns)
	return &sqliteEngine{db: db}, db.Ping()
}

func (e *sqliteEngine) Name() string { return "sqlite" }
func (e *sqliteEngine) Close()       { e.db.Close() }

func (e *sqliteEngine) Version(ctx context.Context) string {
	var v string
	_ = e.db.QueryRowContext(ctx, "SELECT sqlite_version()").Scan(&v)
	return "SQLite " + v + " (modernc.org/sqlite)"
}

// sqliteWhere compiles q to FROM and WHERE clauses over notices n (joined
// with the FTS5 table when there are keywords) and a score expression
// (bm25: lower is better).
func sqliteWhere(q search.Query, k search.Keywords) (from, where, score string, args []any) {
	from = "notices n"
	score = "0.0"
	var conds []string
	if m := fts5Match(k); m != "" {
		from = "notices_fts JOIN notices n ON n.id = notices_fts.rowid"
		conds = append(conds, "notices_fts MATCH ?")
		score = "bm25(notices_fts)"
		args = append(args, m)
	}
	in := func(col string, vals []string) {
		conds = append(conds, col+" IN ("+strings.TrimSuffix(strings.Repeat("?,", len(vals)), ",")+")")
		for _, v := range vals {
			args = append(args, v)
		}
	}
	if len(q.AgencyIDs) > 0 {
		in("n.agency_id", q.AgencyIDs)
	}
	if len(q.VendorStems) > 0 {
		in("n.vendor_stem", q.VendorStems)
	}
	if len(q.Lenses) > 0 {
		conds = append(conds, "n.id IN (SELECT nid FROM notice_lenses WHERE lens IN ("+
			strings.TrimSuffix(strings.Repeat("?,", len(q.Lenses)), ",")+"))")
		for _, v := range q.Lenses {
			args = append(args, v)
		}
	}
	if q.ValidAmountOnly {
		conds = append(conds, "n.amount_valid = 1")
	}
	if q.MinAmount != nil {
		conds = append(conds, "n.amount >= ?")
		args = append(args, *q.MinAmount)
	}
	if q.MaxAmount != nil {
		conds = append(conds, "n.amount <= ?")
		args = append(args, *q.MaxAmount)
	}
	if len(conds) == 0 {
		conds = append(conds, "1")
	}
	return from, strings.Join(conds, " AND "), score, args
}

func (e *sqliteEngine) Search(ctx context.Context, q search.Query, k search.Keywords) (peerResult, error) {
	from, where, score, args := sqliteWhere(q, k)
	var res peerResult
	// one connection for the whole request, as an application would
	conn, err := e.db.Conn(ctx)
	if err != nil {
		return res, err
	}
	defer conn.Close()
	if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM "+from+" WHERE "+where, args...).Scan(&res.Total); err != nil {
		return res, err
	}
	order := "score, n.request_id"
	if q.Sort != search.SortRelevance {
		order = "n.start_date DESC, n.request_id" // NULLs sort last in DESC
	}
	rows, err := conn.QueryContext(ctx, fmt.Sprintf(`SELECT n.request_id, n.title, n.agency_name, n.agency_id, n.start_date,
		n.amount, n.vendor_name, %s AS score FROM %s WHERE %s ORDER BY %s LIMIT %d`, score, from, where, order, q.Limit), args...)
	if err != nil {
		return res, err
	}
	for rows.Next() {
		var h peerHit
		var start sql.NullInt64
		var amount sql.NullFloat64
		if err := rows.Scan(&h.RequestID, &h.Title, &h.Agency, &h.AgencyID, &start, &amount, &h.Vendor, &h.Score); err != nil {
			rows.Close()
			return res, err
		}
		h.Score = -h.Score
		if start.Valid {
			t := time.Unix(start.Int64, 0)
			h.setDate(&t)
		}
		if amount.Valid {
			h.Amount = &amount.Float64
		}
		res.Hits = append(res.Hits, h)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return res, err
	}
	if q.Facets {
		rows, err := conn.QueryContext(ctx, `WITH m AS MATERIALIZED (SELECT n.id, n.agency_id, n.notice_type, n.year FROM `+from+` WHERE `+where+`)
			SELECT 'agency', agency_id, count(*) FROM m WHERE agency_id <> '' GROUP BY 2
			UNION ALL SELECT 'notice_type', notice_type, count(*) FROM m WHERE notice_type <> '' GROUP BY 2
			UNION ALL SELECT 'year', year, count(*) FROM m WHERE year <> '' GROUP BY 2
			UNION ALL SELECT 'lens', l.lens, count(*) FROM m JOIN notice_lenses l ON l.nid = m.id GROUP BY 2`, args...)
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

func (e *sqliteEngine) Passages(ctx context.Context, q search.PassageQuery, k search.Keywords) (peerResult, error) {
	var res peerResult
	m := fts5Match(k)
	if m == "" {
		return res, errors.New("passage search needs keywords")
	}
	conn, err := e.db.Conn(ctx)
	if err != nil {
		return res, err
	}
	defer conn.Close()
	if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM passages_fts WHERE passages_fts MATCH ?", m).Scan(&res.Total); err != nil {
		return res, err
	}
	rows, err := conn.QueryContext(ctx, fmt.Sprintf(`SELECT p.pid, p.request_id, p.title, p.start_date, p.text, bm25(passages_fts) AS score
		FROM passages_fts JOIN passages p ON p.id = passages_fts.rowid WHERE passages_fts MATCH ?
		ORDER BY score, p.pid LIMIT %d`, q.Limit), m)
	if err != nil {
		return res, err
	}
	defer rows.Close()
	for rows.Next() {
		var h peerHit
		var start sql.NullInt64
		if err := rows.Scan(&h.Citation, &h.RequestID, &h.Title, &start, &h.Text, &h.Score); err != nil {
			return res, err
		}
		h.Score = -h.Score
		if start.Valid {
			t := time.Unix(start.Int64, 0)
			h.setDate(&t)
		}
		res.Hits = append(res.Hits, h)
	}
	return res, rows.Err()
}
