package sqlengine

import (
	"database/sql"
	"testing"
)

// TestRegexpFunctions: MySQL's regular-expression functions answer on an instance, served by
// Go's regexp in place of ICU (internal/icuregex; go.mod replaces go-icu-regex with it). The
// cases are MySQL's own answers, except where the table says the Go engine differs.
func TestRegexpFunctions(t *testing.T) {
	m := NewManager(NewMemStore(), Options{})
	defer m.Close()
	addr, err := m.Start(testInstance(1))
	if err != nil {
		t.Fatal(err)
	}
	db := mustConnect(t, addr.String(), "linroot", "first-pw", "")
	exec(t, db, "CREATE TABLE pets (id INT PRIMARY KEY, name VARCHAR(40))")
	exec(t, db, "INSERT INTO pets VALUES (1, 'Rex'), (2, 'rover'), (3, 'Tom'), (4, 'Felix the cat')")
	for _, c := range []struct{ q, want string }{
		{"SELECT 'abc' REGEXP 'b'", "1"},
		{"SELECT 'abc' RLIKE '^b'", "0"},
		{"SELECT 'abc' NOT REGEXP 'x'", "1"},
		{"SELECT REGEXP_LIKE('Abc', 'abc')", "0"},                  // go-mysql-server's default collation is utf8mb4_0900_bin
		{"SELECT REGEXP_LIKE('Abc', 'abc', 'i')", "1"},             // i: case-insensitive
		{"SELECT REGEXP_LIKE('Abc', 'abc', 'c')", "0"},             // c: case-sensitive
		{"SELECT REGEXP_LIKE('a\nb', '^b$', 'm')", "1"},            // m: multi-line
		{"SELECT REGEXP_LIKE('a\nb', 'a.b')", "0"},                 // '.' stops at a line end
		{"SELECT REGEXP_LIKE('a\nb', 'a.b', 'n')", "1"},            // n: '.' matches it
		{"SELECT REGEXP_LIKE('caf\u00e9', '^caf\\\\u00e9$')", "1"}, // ICU's \uhhhh
		{"SELECT REGEXP_INSTR('dog cat dog', 'dog')", "1"},
		{"SELECT REGEXP_INSTR('dog cat dog', 'dog', 2)", "9"},
		{"SELECT REGEXP_INSTR('dog cat dog', 'dog', 1, 2)", "9"},
		{"SELECT REGEXP_INSTR('dog cat dog', 'dog', 1, 3)", "0"},
		{"SELECT REGEXP_INSTR('aa aaa aaaa', 'a{4}', 1, 1, 1)", "12"},
		{"SELECT REGEXP_INSTR('\u00e9t\u00e9 \u00e9t\u00e9', 't', 1, 2)", "6"}, // characters, not bytes
		{"SELECT REGEXP_SUBSTR('abc def ghi', '[a-z]+', 1, 3)", "ghi"},
		{"SELECT REGEXP_SUBSTR('abc def ghi', '[a-z]+', 5)", "def"},
		{"SELECT REGEXP_REPLACE('a b c', 'b', 'X')", "a X c"},
		{"SELECT REGEXP_REPLACE('abc def ghi', '[a-z]+', 'X', 1, 3)", "abc def X"},
		{"SELECT REGEXP_REPLACE('abc def ghi', '[a-z]+', 'X', 2)", "aX X X"},
		{"SELECT REGEXP_REPLACE('abc', 'x*', '-')", "-a-b-c-"},
		{"SELECT REGEXP_REPLACE('2026-12-02', '(\\\\d+)-(\\\\d+)-(\\\\d+)', '$3.$2.$1')", "02.12.2026"},
		{"SELECT REGEXP_REPLACE('price', 'price', '\\\\$5')", "$5"},
		{"SELECT GROUP_CONCAT(name ORDER BY id) FROM pets WHERE name REGEXP '^r'", "rover"},
		{"SELECT GROUP_CONCAT(name ORDER BY id) FROM pets WHERE REGEXP_LIKE(name, '^r', 'i')", "Rex,rover"},
		{"SELECT COUNT(*) FROM pets WHERE REGEXP_LIKE(name, 'cat$')", "1"},
	} {
		var got sql.NullString
		if err := db.QueryRow(c.q).Scan(&got); err != nil {
			t.Errorf("%s: %v", c.q, err)
			continue
		}
		if got.String != c.want {
			t.Errorf("%s = %q, want %q", c.q, got.String, c.want)
		}
	}
	// Refused, as an error to the client, never a dropped connection or a panic: RE2 has no
	// backreferences or lookaround; an empty pattern and a $ naming no group are errors in
	// MySQL too.
	for _, q := range []string{
		"SELECT 'aa' REGEXP '(a)\\\\1'",
		"SELECT 'ab' REGEXP 'a(?=b)'",
		"SELECT 'a' REGEXP '('",
		"SELECT REGEXP_LIKE('a', '')",
		"SELECT REGEXP_REPLACE('abc', 'b', '$2')",
		"SELECT REGEXP_LIKE('a', 'a', 'x')",
	} {
		var got sql.NullString
		if err := db.QueryRow(q).Scan(&got); err == nil {
			t.Errorf("%s = %q, want an error", q, got.String)
		}
	}
	var one int
	if err := db.QueryRow("SELECT 1").Scan(&one); err != nil || one != 1 {
		t.Fatalf("the connection did not survive the refused patterns: %v", err)
	}
}
