package sqlengine

import (
	"context"
	"fmt"
	"strings"
	"sync"

	sqle "github.com/dolthub/go-mysql-server"
	"github.com/dolthub/go-mysql-server/memory"
	"github.com/dolthub/go-mysql-server/sql"
)

// engine is one instance's go-mysql-server: its memory provider (the databases) and the engine
// that plans and runs statements on them, for the wire server and for dump and load alike.
type engine struct {
	pro *memory.DbProvider
	eng *sqle.Engine

	// dumpMu guards dumpCtx, the one session dumps run in: a new session copies every system
	// variable, which took a third of a dump's time at a thousand rows.
	dumpMu  sync.Mutex
	dumpCtx *sql.Context
}

// defaultDB is the database a new instance starts with, as the real service's clusters have one
// (so a client can connect naming it before creating its own).
const defaultDB = "defaultdb"

// newEngine builds an engine whose databases index tables by primary key (without it every
// lookup, foreign key and point query scans the table).
func newEngine() *engine {
	pro := memory.NewDBProviderWithOpts(memory.NativeIndexProvider(true)).(*memory.DbProvider)
	return &engine{pro: pro, eng: sqle.NewDefault(pro)}
}

// context is a fresh session on the engine, as the in-process user of dump and load.
func (e *engine) context() *sql.Context {
	sess := memory.NewSession(sql.NewBaseSession(), e.pro)
	return sql.NewContext(context.Background(), sql.WithSession(sess))
}

// query runs one statement in ctx and returns its rows; the row iterator is always drained and
// closed, which is what commits an autocommit statement.
func (e *engine) query(ctx *sql.Context, q string) (sql.Schema, []sql.Row, error) {
	sch, iter, _, err := e.eng.Query(ctx, q)
	if err != nil {
		return nil, nil, err
	}
	rows, err := sql.RowIterToRows(ctx, iter)
	return sch, rows, err
}

// load runs a dump's statements, one at a time, in one session (so its USE and SET apply to
// the statements after them).
func (e *engine) load(dump []byte) error {
	ctx := e.context()
	rest := string(dump)
	for n := 1; strings.TrimSpace(rest) != ""; n++ {
		parsed, q, remainder, err := e.eng.Parser.Parse(ctx, rest, true)
		if err != nil {
			return fmt.Errorf("sqlengine: dump statement %d: %w", n, err)
		}
		if parsed != nil {
			_, iter, _, err := e.eng.QueryWithBindings(ctx, q, parsed, nil, nil)
			if err == nil {
				_, err = sql.RowIterToRows(ctx, iter)
			}
			if err != nil {
				return fmt.Errorf("sqlengine: dump statement %d (%.60s): %w", n, q, err)
			}
		}
		if remainder == rest {
			return fmt.Errorf("sqlengine: dump statement %d does not end", n)
		}
		rest = remainder
	}
	return nil
}

// userDatabases are the databases a dump holds: all but the engine's own.
func (e *engine) userDatabases(ctx *sql.Context) []sql.Database {
	var out []sql.Database
	for _, db := range e.pro.AllDatabases(ctx) {
		switch strings.ToLower(db.Name()) {
		case "information_schema", "mysql", "sys", "performance_schema":
			continue
		}
		out = append(out, db)
	}
	return out
}

// wipe drops every user database, so a load that follows replaces the data instead of adding
// to it.
func (e *engine) wipe() error {
	ctx := e.context()
	for _, db := range e.userDatabases(ctx) {
		if _, _, err := e.query(ctx, "DROP DATABASE "+quoteName(db.Name())); err != nil {
			return fmt.Errorf("sqlengine: wipe %s: %w", db.Name(), err)
		}
	}
	return nil
}

// replace wipes the data and loads dump; if dump fails half-way, it wipes again and loads prev
// (the last good state), so the instance is never left holding half of each.
func (e *engine) replace(dump, prev []byte) error {
	err := e.wipe()
	if err == nil {
		err = e.load(dump)
	}
	if err != nil {
		if werr := e.wipe(); werr != nil {
			return fmt.Errorf("%w (and wiping after it: %v)", err, werr)
		}
		if lerr := e.load(prev); lerr != nil {
			return fmt.Errorf("%w (and reloading the previous state: %v)", err, lerr)
		}
	}
	return err
}

// quoteName quotes an identifier with backticks.
func quoteName(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }
