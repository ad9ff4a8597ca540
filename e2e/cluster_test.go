package e2e

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/linode/linodego"
	"github.com/pocketforge/pocketforge/internal/testkit/pgtest"
)

// Many nodes, one truth (issue 36): pocketforge serve --store postgres://… on two nodes over one
// PostgreSQL database, driven with the real clients. The database is the test's own (pgtest:
// POCKETFORGE_TEST_PG's server, or a private cluster in the test's temp dir).

// clusterNode starts a node of the shared store at url with a replica of its own.
func clusterNode(t *testing.T, url string, extra ...string) *proc {
	t.Helper()
	args := append([]string{"--store", url, "--data", filepath.Join(t.TempDir(), "replica.db"),
		"--bootstrap-token", e2eToken, "--admin-password", e2eAdminPassword}, extra...)
	p := start(t, args...)
	p.waitReady(t)
	return p
}

// leading reads whether p runs the singletons, from its metrics.
func leading(t *testing.T, p *proc) bool {
	t.Helper()
	_, body := request(t, "GET", p.url+"/metrics", "", nil)
	return strings.Contains(body, "\npocketforge_singletons_leading 1")
}

// within polls cond every 20 ms for at most d and reports how long it took (failing past d).
func within(t *testing.T, d time.Duration, what string, cond func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for !cond() {
		if time.Since(start) > d {
			t.Fatalf("%s: not within %v", what, d)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return time.Since(start)
}

// TestClusterTwoNodes: osc commits through node A and node B lists and builds it; linodego's
// checks pass against B while A takes writes, and each sees the other's writes; a product
// dropped into A's --spdx-dir is searchable on B within a second of A having it; the farm runs
// the scheduler runs on the node holding the lease.
func TestClusterTwoNodes(t *testing.T) {
	t.Parallel()
	bboltPassOnly(t, "starts PostgreSQL nodes of its own")
	url := pgtest.URL(t)
	spdxDir := t.TempDir()
	a := clusterNode(t, url, "--build-time", "1s", "--spdx-dir", spdxDir, "--spdx-interval", "200ms")
	b := clusterNode(t, url, "--build-time", "1s")
	if !leading(t, a) || leading(t, b) {
		t.Fatalf("the first node should lead, the second not: a %v, b %v", leading(t, a), leading(t, b))
	}

	// osc: a project and a package committed through A, listed and built as seen from B.
	oa := newOscSession(t, a.url, "alice", "alice-password")
	ob := newOscSession(t, b.url, "alice", "alice-password")
	const prj = "home:alice:cluster"
	oa.must("meta", "prj", "-F", oa.write("prj.xml", `<project name="home:alice:cluster"><title>Cluster</title><description/>`+
		`<repository name="standard"><arch>x86_64</arch></repository></project>`), prj)
	oa.must("meta", "pkg", "-F", oa.write("k.xml", `<package name="hello" project="home:alice:cluster"><title/><description/></package>`), prj, "hello")
	oa.must("api", "-X", "PUT", "-f", oa.write("hello.spec", farmSpecFile("hello", "echo hello")), "/source/"+prj+"/hello/hello.spec")
	lag := within(t, time.Second, "osc ls on B", func() bool {
		code, out := ob.osc("ls", prj, "hello")
		return code == 0 && strings.Contains(out, "hello.spec")
	})
	t.Logf("B listed A's commit %v after it", lag)
	succeeded := regexp.MustCompile(`standard\s+x86_64\s+succeeded`)
	within(t, 60*time.Second, "osc results on B", func() bool {
		_, out := ob.osc("results", prj, "hello")
		return succeeded.MatchString(out)
	})
	if !strings.Contains(a.stderr.String(), "leading=true") || strings.Contains(b.stderr.String(), "leading=true") {
		t.Errorf("the farm's node: a %q, b %q", a.stderr.String(), b.stderr.String())
	}
	if code, body := request(t, "GET", b.url+"/build/"+prj+"/standard/x86_64/hello/_log?nostream=1", "", nil); code != 401 && !strings.Contains(body, "hello") {
		t.Errorf("the build log on B: %d %s", code, body)
	}

	// linodego against B while A takes writes.
	ctx := context.Background()
	ca, cb := cloudClient(a, e2eToken), cloudClient(b, e2eToken)
	stop := make(chan struct{})
	var writes atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			on := i%2 == 0
			if _, err := ca.UpdateAccountSettings(ctx, linodego.AccountSettingsUpdateOptions{NetworkHelper: &on}); err != nil {
				t.Errorf("a write on A: %v", err)
				return
			}
			writes.Add(1)
		}
	}()
	acct, err := cb.GetAccount(ctx)
	if err != nil || acct.Email != "billing@demo.pocketforge.test" {
		t.Fatalf("GetAccount on B: %+v %v", acct, err)
	}
	if acct, err = cb.UpdateAccount(ctx, linodego.AccountUpdateOptions{City: "Pittsburgh"}); err != nil || acct.City != "Pittsburgh" {
		t.Fatalf("UpdateAccount on B: %+v %v", acct, err)
	}
	tok, err := cb.CreateToken(ctx, linodego.TokenCreateOptions{Label: "made-on-b", Scopes: "account:read_only"})
	if err != nil {
		t.Fatalf("CreateToken on B: %v", err)
	}
	users, err := cb.ListUsers(ctx, nil)
	if err != nil || len(users) < 2 {
		t.Fatalf("ListUsers on B: %d %v", len(users), err)
	}
	byToken := cloudClient(b, tok.Token)
	if p, err := byToken.GetProfile(ctx); err != nil || p.Username != "demo" {
		t.Fatalf("the new token on B: %+v %v", p, err)
	}
	close(stop)
	wg.Wait()
	if writes.Load() == 0 {
		t.Fatal("A took no writes meanwhile")
	}
	// Each node reads the other's writes: A the token made on B (it signs in there), B A's last
	// settings.
	within(t, time.Second, "B's token on A", func() bool {
		_, err := cloudClient(a, tok.Token).GetProfile(ctx)
		return err == nil
	})
	want, err := ca.GetAccountSettings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	within(t, time.Second, "A's settings on B", func() bool {
		got, err := cb.GetAccountSettings(ctx)
		return err == nil && got.NetworkHelper == want.NetworkHelper
	})
	if got, err := ca.GetAccount(ctx); err != nil || got.City != "Pittsburgh" {
		t.Errorf("B's account update on A: %+v %v", got, err)
	}

	// The explorer: a product imported by A's --spdx-dir watcher is searchable on B.
	const name = "Pocket-1.0-x86_64-Build7.1"
	staging := filepath.Join(filepath.Dir(spdxDir), "staging")
	explorerWriteProducts(t, staging, explorerProduct(name, 45))
	if err := os.Rename(filepath.Join(staging, name), filepath.Join(spdxDir, name)); err != nil {
		t.Fatal(err)
	}
	busybox := func(p *proc) bool {
		resp, ans := explorerGet(t, p, "/api/products/packages?q=busybox")
		return resp.StatusCode == 200 && explorerProducts(ans)[name] == 10
	}
	within(t, 20*time.Second, "the import on A", func() bool { return busybox(a) })
	lag = within(t, time.Second, "A's import searchable on B", func() bool { return busybox(b) })
	t.Logf("B found A's import %v after A", lag)
}

// TestClusterLeaderKill9: kill -9 the node holding the lease mid-build; the other takes the
// lease within 15 s and the build finishes.
func TestClusterLeaderKill9(t *testing.T) {
	t.Parallel()
	bboltPassOnly(t, "starts PostgreSQL nodes of its own")
	url := pgtest.URL(t)
	a := clusterNode(t, url, "--build-time", "6s")
	b := clusterNode(t, url, "--build-time", "6s")
	oa := newOscSession(t, a.url, "alice", "alice-password")
	const prj = "home:alice:failover"
	oa.must("meta", "prj", "-F", oa.write("prj.xml", `<project name="home:alice:failover"><title>Failover</title><description/>`+
		`<repository name="standard"><arch>x86_64</arch></repository></project>`), prj)
	oa.must("meta", "pkg", "-F", oa.write("k.xml", `<package name="hello" project="home:alice:failover"><title/><description/></package>`), prj, "hello")
	oa.must("api", "-X", "PUT", "-f", oa.write("hello.spec", farmSpecFile("hello", "echo hello")), "/source/"+prj+"/hello/hello.spec")
	ob := newOscSession(t, b.url, "alice", "alice-password")
	building := regexp.MustCompile(`<status package="hello" code="building"`)
	within(t, 60*time.Second, "the build starts", func() bool {
		_, out := ob.osc("api", "/build/"+prj+"/_result")
		return building.MatchString(out)
	})
	a.stop(t, syscall.SIGKILL)
	killed := time.Now()
	took := within(t, 15*time.Second, "B takes the lease", func() bool { return leading(t, b) })
	t.Logf("B leads %v after the kill", took)
	succeeded := regexp.MustCompile(`<status package="hello" code="succeeded"`)
	within(t, 60*time.Second, "the build finishes on B", func() bool {
		_, out := ob.osc("api", "/build/"+prj+"/_result")
		return succeeded.MatchString(out)
	})
	t.Logf("the build finished %v after the kill", time.Since(killed).Round(time.Millisecond))
}

// TestClusterKill9UnderWriters: 32 clients create tokens through node A while A is killed with
// kill -9; every token A acknowledged is there on node B.
func TestClusterKill9UnderWriters(t *testing.T) {
	t.Parallel()
	bboltPassOnly(t, "starts PostgreSQL nodes of its own")
	url := pgtest.URL(t)
	a := clusterNode(t, url)
	b := clusterNode(t, url)
	var mu sync.Mutex
	var acked []string
	var wg sync.WaitGroup
	hc := &http.Client{Timeout: 10 * time.Second}
	for w := 0; w < 32; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				label := fmt.Sprintf("w%02d-%04d", w, i)
				req, _ := http.NewRequest("POST", a.url+"/v4/profile/tokens", strings.NewReader(`{"label":"`+label+`","scopes":"account:read_only"}`))
				req.Header.Set("Authorization", "Bearer "+e2eToken)
				req.Header.Set("Content-Type", "application/json")
				resp, err := hc.Do(req)
				if err != nil {
					return // A is gone
				}
				resp.Body.Close()
				if resp.StatusCode == 200 {
					mu.Lock()
					acked = append(acked, label)
					mu.Unlock()
				}
			}
		}()
	}
	within(t, 30*time.Second, "writes acknowledged", func() bool { mu.Lock(); defer mu.Unlock(); return len(acked) >= 200 })
	a.stop(t, syscall.SIGKILL)
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	cb := cloudClient(b, e2eToken)
	have := map[string]bool{}
	within(t, 2*time.Second, "B has every acknowledged token", func() bool {
		toks, err := cb.ListTokens(context.Background(), nil)
		if err != nil {
			return false
		}
		clear(have)
		for _, tk := range toks {
			have[tk.Label] = true
		}
		for _, l := range acked {
			if !have[l] {
				return false
			}
		}
		return true
	})
	t.Logf("%d writes acknowledged before the kill, all on B", len(acked))
}

// TestClusterDatabaseRestart: PostgreSQL restarts under load; while it is down the node answers
// 503 in each API's format (readyz too), then recovers by itself; nothing acknowledged is lost.
func TestClusterDatabaseRestart(t *testing.T) {
	t.Parallel()
	bboltPassOnly(t, "starts PostgreSQL nodes of its own")
	pg := pgtest.StartCluster(t)
	a := clusterNode(t, pg.URL)
	ctx := context.Background()
	ca := cloudClient(a, e2eToken)
	var acked []string
	write := func(label string) error {
		_, err := ca.CreateToken(ctx, linodego.TokenCreateOptions{Label: label, Scopes: "account:read_only"})
		if err == nil {
			acked = append(acked, label)
		}
		return err
	}
	for i := 0; i < 20; i++ {
		if err := write(fmt.Sprintf("before-%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	pg.Stop()
	within(t, 5*time.Second, "readyz says 503", func() bool {
		code, _ := request(t, "GET", a.url+"/_appliance/readyz", "", nil)
		return code == 503
	})
	if code, body := request(t, "GET", a.url+"/v4/account", e2eToken, nil); code != 503 || !strings.Contains(body, `{"errors":[{"reason":"the database cannot be reached`) {
		t.Errorf("cloud API while the database is down: %d %s", code, body)
	}
	if code, body := request(t, "GET", a.url+"/source", "", nil); code != 503 || !strings.Contains(body, `<status code="`) {
		t.Errorf("build API while the database is down: %d %s", code, body)
	}
	if code, body := request(t, "GET", a.url+"/api/products/packages?q=bash", "", nil); code != 503 || !strings.Contains(body, "database") {
		t.Errorf("explorer API while the database is down: %d %s", code, body)
	}
	// (linodego would retry a 503 until it succeeds: one plain request instead)
	if code, body := request(t, "POST", a.url+"/v4/profile/tokens", e2eToken, strings.NewReader(`{"label":"while-down"}`)); code != 503 {
		t.Errorf("a write while the database is down: %d %s", code, body)
	}
	pg.Restart()
	within(t, 15*time.Second, "the node recovers", func() bool {
		code, _ := request(t, "GET", a.url+"/_appliance/readyz", "", nil)
		return code == 200
	})
	for i := 0; i < 20; i++ {
		if err := write(fmt.Sprintf("after-%d", i)); err != nil {
			t.Fatalf("a write after the restart: %v", err)
		}
	}
	toks, err := ca.ListTokens(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, tk := range toks {
		have[tk.Label] = true
	}
	for _, l := range acked {
		if !have[l] {
			t.Errorf("acknowledged token %s is gone", l)
		}
	}
}
