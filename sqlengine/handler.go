package sqlengine

import (
	"context"

	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
)

// wireHandler wraps go-mysql-server's handler for one instance. Around every statement it
//   - takes the instance's lock: reads share it, writes hold it alone (the memory engine keeps
//     no locks of its own between sessions), so a dump never sees half a write;
//   - refuses account statements, and writes that could grow the data past the memory bound;
//   - saves the instance's state through its Store after a write and before its OK is sent,
//     so no acknowledged write is lost; if the save fails, the client gets an error instead and
//     the engine goes back to the last saved state;
//   - turns a panic into an error answered on the wire, keeping the connection.
//
// Only the plain mysql.Handler methods are exposed (not go-mysql-server's extended ones), so
// vitess sends every statement through ComQuery, ComMultiQuery or ComStmtExecute.
type wireHandler struct {
	mysql.Handler
	inst *instance
}

// Errors the wrapper answers with, as MySQL numbers them.
var (
	errAccount = func() error {
		return mysql.NewSQLError(mysql.ERSpecifiedAccessDenied, mysql.SSUnknownSQLState,
			"Access denied; users and passwords of this database are managed by the cloud API (credentials view and reset)")
	}
	errUnkept = func() error {
		return mysql.NewSQLError(mysql.ERNotSupportedYet, mysql.SSUnknownSQLState,
			"This database does not support triggers, stored routines or events: its backups and restarts would not keep them")
	}
	errStopped = func() error {
		return mysql.NewSQLError(mysql.ERServerShutdown, mysql.SSUnknownSQLState, "Server shutdown in progress")
	}
)

// ComQuery runs one text-protocol statement under the wrapper's rules.
func (h wireHandler) ComQuery(ctx context.Context, c *mysql.Conn, q string, cb mysql.ResultSpoolFn) (err error) {
	defer h.inst.recoverTo(&err)
	done, err := h.inst.begin(classify(q))
	if err != nil {
		return err
	}
	s := saver{inst: h.inst, c: c, on: done.write}
	defer done.end()
	err = h.Handler.ComQuery(ctx, c, q, func(r *sqltypes.Result, more bool) error {
		if err := s.before(r); err != nil {
			return err
		}
		return cb(r, more)
	})
	return s.after(err)
}

// ComMultiQuery runs the first statement of a multi-statement query (vitess calls again with
// the rest), so each statement is classified, locked and saved on its own.
func (h wireHandler) ComMultiQuery(ctx context.Context, c *mysql.Conn, q string, cb mysql.ResultSpoolFn) (rest string, err error) {
	defer h.inst.recoverTo(&err)
	done, err := h.inst.begin(classify(q))
	if err != nil {
		return "", err
	}
	s := saver{inst: h.inst, c: c, on: done.write}
	defer done.end()
	rest, err = h.Handler.ComMultiQuery(ctx, c, q, func(r *sqltypes.Result, more bool) error {
		if err := s.before(r); err != nil {
			return err
		}
		return cb(r, more)
	})
	return rest, s.after(err)
}

// ComStmtExecute runs a prepared statement, classified by its text.
func (h wireHandler) ComStmtExecute(ctx context.Context, c *mysql.Conn, p *mysql.PrepareData, cb func(*sqltypes.Result) error) (err error) {
	defer h.inst.recoverTo(&err)
	done, err := h.inst.begin(classify(p.PrepareStmt))
	if err != nil {
		return err
	}
	s := saver{inst: h.inst, c: c, on: done.write}
	defer done.end()
	err = h.Handler.ComStmtExecute(ctx, c, p, func(r *sqltypes.Result) error {
		if err := s.before(r); err != nil {
			return err
		}
		return cb(r)
	})
	return s.after(err)
}

// ComPrepare plans a statement without running it; it reads the catalog, so it takes the read
// lock like a SELECT.
func (h wireHandler) ComPrepare(ctx context.Context, c *mysql.Conn, q string, p *mysql.PrepareData) (f []*querypb.Field, err error) {
	defer h.inst.recoverTo(&err)
	done, err := h.inst.begin(kindRead)
	if err != nil {
		return nil, err
	}
	defer done.end()
	return h.Handler.ComPrepare(ctx, c, q, p)
}

// saver saves a write's outcome once, as early as it must: before the first result reaches
// vitess (an OK packet is written by that very callback), or, for a write that returned rows,
// when the statement ends, before vitess writes the final packet.
type saver struct {
	inst *instance
	c    *mysql.Conn
	on   bool
	done bool
}

func (s *saver) before(r *sqltypes.Result) error {
	if !s.on || s.done {
		return nil
	}
	s.done = true
	// Inside a transaction the engine has committed nothing yet: COMMIT will save.
	if s.c.StatusFlags&mysql.ServerInTransaction != 0 && s.c.StatusFlags&mysql.ServerStatusAutocommit == 0 {
		return nil
	}
	return s.inst.persist()
}

func (s *saver) after(err error) error {
	if err != nil || s.done {
		return err
	}
	return s.before(nil)
}
