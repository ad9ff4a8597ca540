package sqlengine

import "testing"

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want stmtKind
	}{
		{"SELECT * FROM t", kindRead},
		{"  /* hint */ (select 1)", kindRead},
		{"-- note\nSHOW TABLES", kindRead},
		{"SET NAMES utf8mb4", kindRead},
		{"SET autocommit = 1", kindWrite},
		{"SET PASSWORD = 'x'", kindAccount},
		{"INSERT INTO t VALUES (1)", kindWrite},
		{"WITH x AS (SELECT 1) UPDATE t SET a = 1", kindWrite},
		{"COMMIT", kindWrite},
		{"ROLLBACK", kindRead},
		{"DELETE FROM t", kindShrink},
		{"DROP TABLE t", kindShrink},
		{"TRUNCATE t", kindShrink},
		{"DROP USER bob", kindAccount},
		{"CREATE USER bob", kindAccount},
		{"GRANT ALL ON *.* TO bob", kindAccount},
		{"CREATE TABLE function_log (id INT)", kindWrite},
		{"CREATE OR REPLACE VIEW v AS SELECT 1", kindWrite},
		{"CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW SET NEW.a = 1", kindUnkept},
		{"CREATE DEFINER = `root`@`%` PROCEDURE p() SELECT 1", kindUnkept},
		{"create event e on schedule every 1 hour do delete from t", kindUnkept},
		{"/*!40101 SET NAMES utf8 */", kindWrite},
		{"", kindWrite},
	} {
		t.Run(tc.q, func(t *testing.T) {
			if got := classify(tc.q); got != tc.want {
				t.Fatalf("classify(%q) = %d, want %d", tc.q, got, tc.want)
			}
		})
	}
}
