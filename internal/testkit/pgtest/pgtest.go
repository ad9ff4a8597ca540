// Package pgtest gives a test a PostgreSQL database of its own (issue 36). With
// POCKETFORGE_TEST_PG set (a server's URL; .ci/run starts a throw-away cluster and sets it), each
// call creates a fresh database on that server and drops it when the test ends. Without it, the
// test starts a private cluster in its t.TempDir() from Debian's postgresql binaries (initdb and
// postgres, as the postgres user when run as root) that dies with the test process; a machine
// without them skips the test, naming the package.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Env names the variable that points the tests at a running server.
const Env = "POCKETFORGE_TEST_PG"

// URL returns the URL of an empty database for t.
func URL(t testing.TB) string {
	t.Helper()
	if base := os.Getenv(Env); base != "" {
		return fresh(t, base)
	}
	return fresh(t, Start(t))
}

// fresh creates a database on the server at base and drops it with the test.
func fresh(t testing.TB, base string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	admin, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("pgtest: %s: %v", Env, err)
	}
	defer admin.Close(ctx)
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	name := "pftest_" + hex.EncodeToString(b)
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("pgtest: create database: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if c, err := pgx.Connect(ctx, base); err == nil {
			_, _ = c.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
			c.Close(ctx)
		}
	})
	u, _ := url.Parse(base)
	u.Path = "/" + name
	return u.String()
}

// Bin finds a PostgreSQL server program (initdb, postgres, pg_ctl) or skips t.
func Bin(t testing.TB, name string) string {
	t.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Sort(sort.Reverse(sort.StringSlice(dirs)))
	for _, d := range dirs {
		if p := filepath.Join(d, name); isExec(p) {
			return p
		}
	}
	t.Skipf("needs PostgreSQL's %s (Debian package postgresql), or %s pointing at a server", name, Env)
	return ""
}

func isExec(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode()&0o111 != 0
}

// Cluster is a private PostgreSQL server of one test.
type Cluster struct {
	Dir  string
	Port int
	URL  string // the postgres database, as the cluster's superuser
	cmd  *exec.Cmd
	cred *syscall.Credential
	t    testing.TB
}

// Start starts a private cluster for t and returns its base URL.
func Start(t testing.TB) string { return StartCluster(t).URL }

// StartCluster initialises and starts a private cluster in t.TempDir(); it is stopped with the
// test and killed with the test process.
func StartCluster(t testing.TB) *Cluster {
	t.Helper()
	initdb := Bin(t, "initdb")
	dir := filepath.Join(t.TempDir(), "pg")
	c := &Cluster{Dir: dir, t: t}
	superuser := "postgres"
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Skip("running as root needs the postgres user (Debian package postgresql) to run a cluster")
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		c.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(dir, uid, gid); err != nil {
			t.Fatal(err)
		}
		// The server must reach its directory: the test's temp directories above it get the
		// search (x) permission for others — not read: nothing in them is listed.
		for p := filepath.Dir(dir); p != "/"; p = filepath.Dir(p) {
			if st, err := os.Stat(p); err == nil && st.Mode().Perm()&0o001 == 0 {
				_ = os.Chmod(p, st.Mode().Perm()|0o001)
			}
		}
	}
	out, err := c.command(initdb, "-D", dir, "-U", superuser, "-A", "trust", "--no-sync", "-E", "UTF8").CombinedOutput()
	if err != nil {
		t.Fatalf("initdb: %v\n%s", err, out)
	}
	c.Port = freePort(t)
	c.startServer()
	c.URL = fmt.Sprintf("postgres://%s@127.0.0.1:%d/postgres?sslmode=disable", superuser, c.Port)
	c.waitReady()
	return c
}

func (c *Cluster) command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Credential: c.cred}
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	return cmd
}

func (c *Cluster) startServer() {
	c.t.Helper()
	postgres := Bin(c.t, "postgres")
	// fsync off: a test's database need not survive the machine's crash; a commit still
	// reaches the OS before it is answered (synchronous_commit stays on), so a server killed or
	// restarted by a test loses nothing acknowledged.
	c.cmd = c.command(postgres, "-D", c.Dir, "-p", strconv.Itoa(c.Port), "-c", "listen_addresses=127.0.0.1",
		"-k", c.Dir, "-c", "fsync=off", "-c", "full_page_writes=off", "-c", "max_connections=200")
	log, _ := os.Create(filepath.Join(filepath.Dir(c.Dir), "postgres.log"))
	c.cmd.Stdout, c.cmd.Stderr = log, log
	if err := c.cmd.Start(); err != nil {
		c.t.Fatalf("postgres: %v", err)
	}
	cmd := c.cmd
	c.t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGQUIT) // immediate shutdown
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
		}
	})
}

// Stop stops the server at once (SIGQUIT: as a crash would, without a checkpoint).
func (c *Cluster) Stop() {
	_ = c.cmd.Process.Signal(syscall.SIGQUIT)
	_ = c.cmd.Wait()
}

// Restart starts the server again on the same port and data.
func (c *Cluster) Restart() {
	c.startServer()
	c.waitReady()
}

func (c *Cluster) waitReady() {
	c.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		conn, err := pgx.Connect(ctx, c.URL)
		cancel()
		if err == nil {
			conn.Close(context.Background())
			return
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(filepath.Dir(c.Dir), "postgres.log"))
			c.t.Fatalf("postgres did not start: %v\n%s", err, log)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func freePort(t testing.TB) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// BackendEnv selects the engine the in-process tests' stores run on (testdb, demofile):
// "postgres" runs them on a fresh database each (on POCKETFORGE_TEST_PG's server), anything else
// on a bbolt file. .ci/run runs the suite both ways.
const BackendEnv = "POCKETFORGE_TEST_BACKEND"

// Postgres reports whether the in-process tests' stores run on PostgreSQL; it fails t when
// they should but no server is named (a private cluster per store would be far too slow).
func Postgres(t testing.TB) bool {
	t.Helper()
	if os.Getenv(BackendEnv) != "postgres" {
		return false
	}
	if os.Getenv(Env) == "" {
		t.Fatalf("%s=postgres needs %s naming a PostgreSQL server", BackendEnv, Env)
	}
	return true
}
