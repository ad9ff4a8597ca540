// Package sqlengine serves the MySQL wire protocol for the appliance's sqldb instances, so a
// client can connect to the database the cloud API created: one go-mysql-server engine per
// running instance, on its own listener, with the instance's root user and password, its
// allow_list checked at each connection (allowlist.go) and its TLS certificate signed by the
// instance's CA (tls.go). Each instance's data lives in a Store (bbolt, in the appliance) as a
// SQL dump (dump.go), saved after every write before the client's OK (handler.go), so a
// restart, a backup and a restore all see what clients were told is written.
//
// It is a leaf: it imports nothing of this module, and the cloud domain drives it (Start when
// an instance becomes active or is resumed, Stop on suspend, Dump for a backup, Restore,
// SetPassword on a credentials reset, SetAllowList on an update, Remove on delete).
//
// # Why go-mysql-server
//
// go-mysql-server (DoltHub; the SQL layer of Dolt, kept up with MySQL 8) is pure Go and brings
// the wire protocol, MySQL's dialect, an analyzer and an in-memory storage engine in one
// module, so an instance is a few objects in the appliance's process. The alternatives:
//   - Dolt's own engine (dolthub/dolt/go) stores data for real (prolly trees, versioned), but it
//     is a large dependency keeping its own files on disk, where bbolt must stay the only data
//     of record; it is also not among the modules this project can fetch.
//   - An embedded SQLite (modernc.org/sqlite, pure Go) behind a MySQL-wire front end would index
//     and store properly, but every statement would need translating from MySQL's dialect
//     (types, SHOW, information_schema, AUTO_INCREMENT, backticks), which is most of a database.
//   - vitess's mysql and sqltypes packages give the wire protocol and values only, no engine;
//     go-mysql-server already builds on DoltHub's fork of them.
//
// # What does not work (plainly)
//
//   - Size and speed. The memory engine is go-mysql-server's test engine: a primary-key lookup
//     filters a scan of the whole table (BenchmarkPointQuery, 2 shared cores: 0.26 ms a query
//     at 10 rows, 0.86 ms at 1,000, through the wire, the same as a bare go-mysql-server), an
//     INSERT checks the key against every row and copies the table (loading 10,000 rows takes
//     2.5 s), and each write is followed by a dump of the whole instance for the Store
//     (BenchmarkInsert: 3.7 ms a one-row insert at 1,000+ rows, 2.3 times the bare engine's;
//     a dump of 10,000 rows takes 10 ms). It suits demo data, up to about ten thousand rows a
//     table; larger tables work, ever more slowly. A storage backend of our own over bbolt
//     (go-mysql-server's integrator interfaces), saving only the rows a statement changed, is
//     the way past both.
//   - Transactions do not isolate: the memory engine keeps a session's changes aside and, at
//     COMMIT, puts its copy of each table it touched in place, so of two transactions writing
//     one table the last COMMIT wins. Savepoints are refused. Statements of one instance run
//     one write at a time (reads share); a server-side cursor (go-sql-driver never opens one)
//     holds its read share until fetched to the end, holding writes back meanwhile.
//   - Accounts: only the root user exists; CREATE/ALTER/DROP USER, GRANT, REVOKE and SET
//     PASSWORD are refused (1227), as the API owns the credentials.
//   - Server files: LOAD DATA INFILE, SELECT … INTO OUTFILE/DUMPFILE and LOAD_FILE() are fenced
//     off (secure_file_priv points nowhere).
//   - Dumps hold databases, tables, rows and views, not triggers, stored routines or events, so
//     CREATE TRIGGER, PROCEDURE, FUNCTION and EVENT are refused (1235) rather than lost at the
//     next restart. Spatial columns are untried.
//   - The memory bound is approximate: the size of the last saved dump (SQL text; rows in
//     memory take a few times that), checked before each write, so the write that crosses it
//     succeeds and the next ones fail with 1114 until DELETE, DROP or TRUNCATE make room. The
//     memory a query uses while it runs (a join, a sort) is not bounded.
//   - SetPassword and SetAllowList apply to new connections; open ones go on, as in MySQL.
//   - No replication, binlog, performance_schema or sys schema; caching_sha2_password only over
//     TLS (vitess's rule), mysql_native_password everywhere.
//   - go-mysql-server's settings are process-wide: its logrus logging is turned off, and
//     secure_file_priv is set, for every engine in the process.
package sqlengine
