package sqlengine

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	"strings"
	"testing"

	sqle "github.com/dolthub/go-mysql-server"
	"github.com/dolthub/go-mysql-server/memory"
	"github.com/dolthub/go-mysql-server/server"
	gsql "github.com/dolthub/go-mysql-server/sql"
	"github.com/pocketforge/pocketforge/internal/testkit/bench"
)

// fillPets creates defaultdb.pets<n> with n rows through db.
func fillPets(b *testing.B, db *sql.DB, n int) {
	exec(b, db, fmt.Sprintf("CREATE TABLE pets%d (id INT PRIMARY KEY, name VARCHAR(40) NOT NULL)", n))
	var vals []string
	for i := 0; i < n; i++ {
		vals = append(vals, fmt.Sprintf("(%d, 'pet-%d')", i, i))
	}
	exec(b, db, fmt.Sprintf("INSERT INTO pets%d VALUES %s", n, strings.Join(vals, ",")))
}

// bareServer is go-mysql-server alone on a loopback port: the memory engine with primary key
// indexes, its default handler, no users (any login passes), no allow list, no persistence.
func bareServer(b *testing.B) string {
	db := memory.NewDatabase(defaultDB)
	db.EnablePrimaryKeyIndexes()
	pro := memory.NewDBProvider(db)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	srv, err := server.NewServer(server.Config{Listener: ln}, sqle.NewDefault(pro), gsql.NewContext, memory.NewSessionBuilder(pro), nil)
	if err != nil {
		b.Fatal(err)
	}
	go srv.Start()
	b.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// pointQuery prepares the point query on table pets<n> of db and returns one call of it.
func pointQuery(b *testing.B, db *sql.DB, n int) func(i int) {
	stmt, err := db.PrepareContext(context.Background(), fmt.Sprintf("SELECT name FROM pets%d WHERE id = ?", n))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { stmt.Close() })
	return func(i int) {
		var name string
		if err := stmt.QueryRow(i % n).Scan(&name); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPointQuery: SELECT by primary key through the wire protocol (go-sql-driver, a
// prepared statement, conc connections) against a Manager's instance, beside a bare
// go-mysql-server on the same machine. x-raw is what the allow list, the auth, the statement
// lock and the classification cost a read. The memory engine's primary key "index" filters a
// scan of the whole table, so the time grows with the rows: 10 rows shows the fixed cost per
// query, 1000 a demo-sized table.
func BenchmarkPointQuery(b *testing.B) {
	m := NewManager(NewMemStore(), Options{})
	defer m.Close()
	addr, err := m.Start(testInstance(1))
	if err != nil {
		b.Fatal(err)
	}
	app := mustConnect(b, addr.String(), "linroot", "first-pw", "")
	raw := mustConnect(b, bareServer(b), "root", "", "")
	for _, n := range []int{10, 1000} {
		fillPets(b, app, n)
		fillPets(b, raw, n)
	}
	for _, tc := range []struct{ rows, conc int }{{10, 1}, {1000, 1}, {1000, 4}} {
		b.Run(fmt.Sprintf("rows=%d/conc=%d", tc.rows, tc.conc), func(b *testing.B) {
			for _, db := range []*sql.DB{app, raw} {
				db.SetMaxOpenConns(tc.conc)
				db.SetMaxIdleConns(tc.conc)
			}
			bench.Compare(b, tc.conc, pointQuery(b, app, tc.rows), pointQuery(b, raw, tc.rows))
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "queries/s")
		})
	}
}

// BenchmarkInsert: one-row INSERTs (prepared, one connection) into a table of 1,000 rows and
// growing, against a Manager's instance, which dumps the instance into its Store (here in
// memory) before each OK, beside a bare go-mysql-server that keeps nothing. x-raw is the price
// of never losing an acknowledged write with a whole-dump state.
func BenchmarkInsert(b *testing.B) {
	m := NewManager(NewMemStore(), Options{})
	defer m.Close()
	addr, err := m.Start(testInstance(1))
	if err != nil {
		b.Fatal(err)
	}
	app := mustConnect(b, addr.String(), "linroot", "first-pw", "")
	raw := mustConnect(b, bareServer(b), "root", "", "")
	fillPets(b, app, 1000)
	fillPets(b, raw, 1000)
	appID, rawID := 1000, 1000 // the next free id on each side, across the runs of b.N
	insert := func(b *testing.B, db *sql.DB, id *int) func(int) {
		stmt, err := db.Prepare("INSERT INTO pets1000 VALUES (?, 'new')")
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { stmt.Close() })
		return func(int) {
			if _, err := stmt.Exec(*id); err != nil {
				b.Fatal(err)
			}
			*id++
		}
	}
	b.Run("rows=1000+", func(b *testing.B) {
		bench.Compare(b, 1, insert(b, app, &appID), insert(b, raw, &rawID))
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "inserts/s")
	})
}
