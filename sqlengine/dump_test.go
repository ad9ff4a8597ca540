package sqlengine

import (
	"bytes"
	"strings"
	"testing"
)

// TestDumpRoundTrip dumps a schema of many column types, a foreign key, a generated column, a
// view and a second database, restores the dump and dumps again: the two dumps are equal.
func TestDumpRoundTrip(t *testing.T) {
	m := NewManager(NewMemStore(), Options{})
	defer m.Close()
	addr, err := m.Start(testInstance(1))
	if err != nil {
		t.Fatal(err)
	}
	db := mustConnect(t, addr.String(), "linroot", "first-pw", "")
	for _, q := range []string{
		"CREATE TABLE pets (id INT PRIMARY KEY AUTO_INCREMENT, name VARCHAR(40) NOT NULL, photo BLOB, born DATETIME, w DECIMAL(6,2), j JSON, e ENUM('a','b'), s SET('x','y'), f FLOAT, g INT AS (id*2) STORED, KEY(name))",
		`INSERT INTO pets (name, photo, born, w, j, e, s, f) VALUES ('Rex', X'00FF0A27', '2020-01-02 03:04:05', 12.50, '{"a": [1,2]}', 'b', 'x,y', 1.5), ('it''s\n"odd"\\', '', NULL, NULL, NULL, NULL, '', NULL)`,
		"CREATE TABLE owners (id INT PRIMARY KEY, pet INT, FOREIGN KEY (pet) REFERENCES pets(id))",
		"INSERT INTO owners VALUES (1, 1)",
		"CREATE VIEW v AS SELECT name FROM pets",
		"CREATE DATABASE other",
		"CREATE TABLE other.t (b BIT(3), y YEAR, d DATE, tm TIME, ts TIMESTAMP(3))",
		"INSERT INTO other.t VALUES (b'101', 2024, '2024-02-03', '10:11:12', '2024-01-01 00:00:00.123')",
	} {
		exec(t, db, q)
	}
	d1, err := m.Dump(1)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"CREATE TABLE `owners`", "FOREIGN KEY", "X'00ff0a27'", "CREATE VIEW v", "USE `other`"} {
		if !bytes.Contains(d1, []byte(want)) {
			t.Errorf("dump lacks %q:\n%s", want, d1)
		}
	}
	exec(t, db, "DROP DATABASE other")
	if err := m.Restore(1, d1); err != nil {
		t.Fatal(err)
	}
	d2, err := m.Dump(1)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(d1, d2) {
		t.Fatalf("dump after restore differs:\n%s\n---\n%s", d1, d2)
	}
	var name string
	if err := db.QueryRow("SELECT name FROM pets WHERE id = 2").Scan(&name); err != nil || name != "it's\n\"odd\"\\" {
		t.Fatalf("escaped string: %q %v", name, err)
	}
	// A dump that does not load leaves the data as it was.
	if err := m.Restore(1, []byte("CREATE TABLE broken (;")); err == nil {
		t.Fatal("a broken dump restored")
	}
	if d3, _ := m.Dump(1); !bytes.Equal(d1, d3) {
		t.Fatalf("data changed by a failed restore:\n%s", d3)
	}
}

// TestRestoreStopped restores into an instance that does not run: its next Start has the data.
func TestRestoreStopped(t *testing.T) {
	m := NewManager(NewMemStore(), Options{})
	defer m.Close()
	dump := dumpHeader + "CREATE DATABASE defaultdb;\nUSE defaultdb;\nCREATE TABLE pets (id INT PRIMARY KEY, name TEXT);\nINSERT INTO pets VALUES (1,'Rex');\n"
	if err := m.Restore(3, []byte(dump)); err != nil {
		t.Fatal(err)
	}
	d, err := m.Dump(3)
	if err != nil || !strings.Contains(string(d), "'Rex'") {
		t.Fatalf("dump of a stopped instance: %v\n%s", err, d)
	}
	addr, err := m.Start(testInstance(3))
	if err != nil {
		t.Fatal(err)
	}
	db := mustConnect(t, addr.String(), "linroot", "first-pw", "")
	if got := names(t, db); got != "Rex" {
		t.Fatalf("got %q", got)
	}
}

// TestRefusedStatements: account statements belong to the API; the appliance's files are out
// of reach.
func TestRefusedStatements(t *testing.T) {
	m := NewManager(NewMemStore(), Options{})
	defer m.Close()
	addr, err := m.Start(testInstance(1))
	if err != nil {
		t.Fatal(err)
	}
	db := mustConnect(t, addr.String(), "linroot", "first-pw", "")
	exec(t, db, "CREATE TABLE pets (id INT PRIMARY KEY, name TEXT)")
	for _, q := range []string{
		"CREATE USER bob IDENTIFIED BY 'x'", "GRANT ALL ON *.* TO linroot", "DROP USER linroot",
		"SET PASSWORD = 'x'", "ALTER USER linroot IDENTIFIED BY 'x'",
	} {
		if _, err := db.Exec(q); !isMySQLError(err, 1227) {
			t.Errorf("%s: %v, want error 1227", q, err)
		}
	}
	for _, q := range []string{
		"CREATE TRIGGER tr BEFORE INSERT ON pets FOR EACH ROW SET NEW.name = 'x'",
		"CREATE PROCEDURE p() SELECT 1",
	} {
		if _, err := db.Exec(q); !isMySQLError(err, 1235) {
			t.Errorf("%s: %v, want error 1235", q, err)
		}
	}
	for _, q := range []string{
		"SELECT 1 INTO OUTFILE '/tmp/sqlengine-should-not-exist'",
		"LOAD DATA INFILE '/etc/passwd' INTO TABLE pets",
	} {
		if _, err := db.Exec(q); err == nil {
			t.Errorf("%s: accepted", q)
		}
	}
	var b []byte
	if err := db.QueryRow("SELECT LOAD_FILE('/etc/passwd')").Scan(&b); err != nil || b != nil {
		t.Errorf("LOAD_FILE read a file: %d bytes, %v", len(b), err)
	}
}
