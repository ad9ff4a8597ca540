package sqlengine

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/sqltypes"
)

// A dump is plain SQL, as mysqldump writes it and `mysql < dump` reads it back: per user
// database a CREATE DATABASE and USE, per table its SHOW CREATE TABLE and INSERTs of at most
// dumpBatchRows rows or about dumpBatchBytes bytes each, then every view. Foreign key checks are
// off while it loads, so tables may come in name order whatever refers to what.
//
// It is also the state an instance keeps in its Store: one format for backups, restores and
// restarts means a backup is exactly what a restart would load, and a stopped instance can be
// dumped or restored without starting it.
const (
	dumpHeader     = "-- pocketforge sqlengine dump 1\nSET FOREIGN_KEY_CHECKS=0;\n"
	dumpBatchRows  = 500
	dumpBatchBytes = 256 << 10
)

// dump writes every user database of e as SQL text.
func (e *engine) dump() ([]byte, error) {
	e.dumpMu.Lock()
	defer e.dumpMu.Unlock()
	if e.dumpCtx == nil {
		e.dumpCtx = e.context()
	}
	ctx := e.dumpCtx
	var b bytes.Buffer
	b.WriteString(dumpHeader)
	dbs := e.userDatabases(ctx)
	for _, db := range dbs {
		if err := e.dumpDatabase(ctx, &b, db); err != nil {
			return nil, err
		}
	}
	for _, db := range dbs {
		if err := dumpViews(ctx, &b, db); err != nil {
			return nil, err
		}
	}
	return b.Bytes(), nil
}

// dumpDatabase writes one database's CREATE DATABASE and its tables.
func (e *engine) dumpDatabase(ctx *sql.Context, b *bytes.Buffer, db sql.Database) error {
	qdb := quoteName(db.Name())
	_, rows, err := e.query(ctx, "SHOW CREATE DATABASE "+qdb)
	if err != nil || len(rows) != 1 {
		return fmt.Errorf("sqlengine: dump database %s: %v", db.Name(), err)
	}
	fmt.Fprintf(b, "%s;\nUSE %s;\n", rows[0][1], qdb)
	names, err := db.GetTableNames(ctx)
	if err != nil {
		return err
	}
	sort.Strings(names)
	for _, name := range names {
		if err := e.dumpTable(ctx, b, qdb, name); err != nil {
			return fmt.Errorf("sqlengine: dump table %s.%s: %w", db.Name(), name, err)
		}
	}
	return nil
}

// dumpTable writes a table's CREATE TABLE and its rows. Generated columns are left out of the
// INSERTs: the engine computes them again.
func (e *engine) dumpTable(ctx *sql.Context, b *bytes.Buffer, qdb, name string) error {
	qt := qdb + "." + quoteName(name)
	_, rows, err := e.query(ctx, "SHOW CREATE TABLE "+qt)
	if err != nil {
		return err
	}
	fmt.Fprintf(b, "%s;\n", rows[0][1])
	sch, rows, err := e.query(ctx, "SELECT * FROM "+qt)
	if err != nil || len(rows) == 0 {
		return err
	}
	var cols []string
	var keep []int
	for i, c := range sch {
		if c.Generated == nil {
			cols = append(cols, quoteName(c.Name))
			keep = append(keep, i)
		}
	}
	head := "INSERT INTO " + quoteName(name) + " (" + strings.Join(cols, ",") + ") VALUES "
	start, n := 0, 0
	for _, row := range rows {
		if n == 0 {
			b.WriteString(head)
			start = b.Len()
		} else {
			b.WriteByte(',')
		}
		b.WriteByte('(')
		for j, i := range keep {
			if j > 0 {
				b.WriteByte(',')
			}
			v, err := sch[i].Type.SQL(ctx, nil, row[i])
			if err != nil {
				return err
			}
			writeLiteral(b, v)
		}
		b.WriteByte(')')
		if n++; n == dumpBatchRows || b.Len()-start > dumpBatchBytes {
			b.WriteString(";\n")
			n = 0
		}
	}
	if n > 0 {
		b.WriteString(";\n")
	}
	return nil
}

// dumpViews writes a database's views after all tables, since a view may read any of them.
func dumpViews(ctx *sql.Context, b *bytes.Buffer, db sql.Database) error {
	vdb, ok := db.(sql.ViewDatabase)
	if !ok {
		return nil
	}
	views, err := vdb.AllViews(ctx)
	if err != nil {
		return err
	}
	if len(views) == 0 {
		return nil
	}
	sort.Slice(views, func(i, j int) bool { return views[i].Name < views[j].Name })
	fmt.Fprintf(b, "USE %s;\n", quoteName(db.Name()))
	for _, v := range views {
		fmt.Fprintf(b, "%s;\n", v.CreateViewStatement)
	}
	return nil
}

// writeLiteral writes v as a SQL literal: binary strings as hex (X'…'), so any byte survives
// whatever the connection's character set; everything else as vitess encodes it (quoted and
// escaped strings, bare numbers, NULL).
func writeLiteral(b *bytes.Buffer, v sqltypes.Value) {
	switch {
	case v.IsNull():
		b.WriteString("NULL")
	case v.Type() == sqltypes.VarBinary || v.Type() == sqltypes.Binary || v.Type() == sqltypes.Blob:
		raw := v.Raw()
		if len(raw) == 0 {
			b.WriteString("''")
			return
		}
		b.WriteString("X'")
		b.WriteString(hex.EncodeToString(raw))
		b.WriteByte('\'')
	default:
		v.EncodeSQL(b)
	}
}
