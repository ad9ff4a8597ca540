package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// Durability across the three APIs (issue 21): 32 clients write at once — cloud tokens,
// build-service packages, explorer products — the process is killed with SIGKILL in the
// middle, and after a restart every write that was answered 200 is there.

const durabilityToken = "durability-test-token-0123456789"

// writer is one kind of write: send makes write number n (false: not acknowledged), and
// present lists what the restarted appliance holds, to find every acknowledged one.
type writer struct {
	name    string
	clients int
	send    func(base string, g, n int) (key string, acked bool)
	present func(t *testing.T, base string) map[string]bool
}

func durabilityWriters() []writer {
	return []writer{
		{name: "cloud tokens", clients: 12,
			send: func(base string, g, n int) (string, bool) {
				label := fmt.Sprintf("crash-%d-%d", g, n)
				code := send("POST", base+"/v4/profile/tokens", "Bearer "+durabilityToken, "application/json",
					fmt.Sprintf(`{"label":%q,"scopes":"account:read_only"}`, label))
				return label, code == 200
			},
			present: func(t *testing.T, base string) map[string]bool {
				out := map[string]bool{}
				for page := 1; ; page++ {
					var list struct {
						Data  []struct{ Label string }
						Pages int
					}
					getJSON(t, base+"/v4/profile/tokens?page_size=500&page="+strconv.Itoa(page), "Bearer "+durabilityToken, &list)
					for _, tok := range list.Data {
						out[tok.Label] = true
					}
					if page >= list.Pages {
						return out
					}
				}
			}},
		{name: "build packages", clients: 12,
			send: func(base string, g, n int) (string, bool) {
				name := fmt.Sprintf("crash-%d-%d", g, n)
				code := send("PUT", base+"/source/home:alice/"+name+"/_meta", basic("alice", "alice-password"), "application/xml",
					fmt.Sprintf(`<package name=%q project="home:alice"><title/><description/></package>`, name))
				return name, code == 200
			},
			present: func(t *testing.T, base string) map[string]bool {
				body := getText(t, base+"/source/home:alice", basic("alice", "alice-password"))
				out := map[string]bool{}
				for _, part := range strings.Split(body, `<entry name="`)[1:] {
					out[part[:strings.IndexByte(part, '"')]] = true
				}
				return out
			}},
		{name: "explorer products", clients: 8,
			send: func(base string, g, n int) (string, bool) {
				pkg := fmt.Sprintf("crashpkg-%d-%d", g, n)
				code := send("POST", base+"/_appliance/explorer/import", "Bearer "+durabilityToken, "application/json", sbom(g, n, pkg))
				return pkg, code == 200
			},
			present: func(t *testing.T, base string) map[string]bool {
				var list struct {
					Packages []struct {
						Name string `json:"package_name"`
					}
				}
				getJSON(t, base+"/api/products/packages?q=crashpkg-", "", &list)
				out := map[string]bool{}
				for _, p := range list.Packages {
					out[p.Name] = true
				}
				return out
			}},
	}
}

// sbom is a one-RPM product SBOM, as generate_sbom writes them.
func sbom(g, n int, pkg string) string {
	return fmt.Sprintf(`{"spdxVersion":"SPDX-2.3","dataLicense":"CC0-1.0","SPDXID":"SPDXRef-DOCUMENT","name":"Crash%dx%d-1.0-x86_64-Build1.1",
"packages":[{"name":"Crash%dx%d-1.0-x86_64-Build1.1","SPDXID":"SPDXRef-DOCUMENT-ROOT","primaryPackagePurpose":"LIBRARY"},
{"name":%q,"SPDXID":"SPDXRef-Package-rpm-x","versionInfo":"1.0-1","externalRefs":[{"referenceCategory":"PACKAGE-MANAGER","referenceType":"purl","referenceLocator":"pkg:rpm/pocket/%s@1.0-1?arch=x86_64"}]}]}`,
		g, n, g, n, pkg, pkg)
}

var writeClient = &http.Client{Timeout: 30 * time.Second}

// send sends a request and returns its status (0 when the connection failed: the process died).
func send(method, url, auth, contentType, body string) int {
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		return 0
	}
	req.Header.Set("Content-Type", contentType)
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := writeClient.Do(req)
	if err != nil {
		return 0
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

func basic(user, password string) string {
	req, _ := http.NewRequest("GET", "http://x", nil)
	req.SetBasicAuth(user, password)
	return req.Header.Get("Authorization")
}

func getText(t *testing.T, url, auth string) string {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := writeClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d %s", url, resp.StatusCode, body)
	}
	return string(body)
}

func getJSON(t *testing.T, url, auth string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(getText(t, url, auth)), v); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
}

func TestKill9ThirtyTwoWritersAcrossAPIs(t *testing.T) {
	t.Parallel()
	data := filepath.Join(t.TempDir(), "pocketforge.db")
	args := []string{"--data", data, "--bootstrap-token", durabilityToken, "--cloud-rate-scale", "0", "--explorer-rate", "0"}
	p := start(t, args...)
	p.waitReady(t)
	writers := durabilityWriters()
	acked := make([][]string, len(writers))
	var mu sync.Mutex
	var stop atomic.Bool
	var wg sync.WaitGroup
	for w, wr := range writers {
		for g := range wr.clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for n := 0; !stop.Load(); n++ {
					key, ok := wr.send(p.url, g, n)
					if ok {
						mu.Lock()
						acked[w] = append(acked[w], key)
						mu.Unlock()
					}
				}
			}()
		}
	}
	time.Sleep(3 * time.Second)
	p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
	stop.Store(true)
	wg.Wait()

	q := start(t, args...)
	q.waitReady(t)
	total := 0
	for w, wr := range writers {
		if len(acked[w]) == 0 {
			t.Errorf("%s: no write was acknowledged before the kill", wr.name)
			continue
		}
		have := wr.present(t, q.url)
		lost := 0
		for _, key := range acked[w] {
			if !have[key] {
				lost++
				if lost <= 5 {
					t.Errorf("%s: %s was acknowledged before kill -9 and is gone after the restart", wr.name, key)
				}
			}
		}
		t.Logf("%s: %d acknowledged before kill -9 by %d clients, %d lost", wr.name, len(acked[w]), wr.clients, lost)
		total += len(acked[w])
	}
	t.Logf("%d acknowledged writes across the three APIs, all checked", total)
}

// rss is the resident memory of process pid, in KiB (Linux).
func rss(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Skipf("no /proc here: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			n, _ := strconv.Atoi(strings.Fields(rest)[0])
			return n
		}
	}
	t.Fatal("no VmRSS")
	return 0
}

// TestSoak (heavy: POCKETFORGE_HEAVY_TESTS=1): 64 clients for a minute (SOAK_SECONDS to change it) of mixed reads and writes
// across the three APIs, the badges and the web pages: no answer is a 5xx, no request fails,
// and the process's memory after the first fifth of the run is flat to the end (it may
// grow by at most a third and 32 MiB: caches filling, not a leak).
func TestSoak(t *testing.T) {
	requireHeavy(t)
	seconds := 60
	if s, err := strconv.Atoi(os.Getenv("SOAK_SECONDS")); err == nil && s > 0 {
		seconds = s
	}
	p := start(t, "--data", filepath.Join(t.TempDir(), "d.db"), "--bootstrap-token", durabilityToken,
		"--cloud-rate-scale", "0", "--explorer-rate", "0")
	p.waitReady(t)
	type call struct{ method, path, auth, body string }
	alice := basic("alice", "alice-password")
	calls := []call{
		{"GET", "/v4/account", "Bearer " + durabilityToken, ""},
		{"GET", "/v4/account/users", "Bearer " + durabilityToken, ""},
		{"PUT", "/v4/profile", "Bearer " + durabilityToken, `{"timezone":"Europe/Berlin"}`},
		{"GET", "/source/devel:tools", alice, ""},
		{"GET", "/build/devel:tools/_result", alice, ""},
		{"GET", "/search/package?match=@project='devel:tools'", alice, ""},
		{"GET", "/api/products/packages?q=pocket-c", "", ""},
		{"GET", "/api/products/files?q=/usr/bin/bash", "", ""},
		{"GET", "/badge/devel:tools/_table.svg", "", ""},
		{"GET", "/", "", ""},
		{"GET", "/projects/devel:tools/monitor", "", ""},
	}
	var sent, fivexx, failed atomic.Int64
	var stop atomic.Bool
	var wg sync.WaitGroup
	for g := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			client := &http.Client{Timeout: 30 * time.Second}
			for n := g; !stop.Load(); n++ {
				c := calls[n%len(calls)]
				req, _ := http.NewRequest(c.method, p.url+c.path, strings.NewReader(c.body))
				if c.auth != "" {
					req.Header.Set("Authorization", c.auth)
				}
				if c.body != "" {
					req.Header.Set("Content-Type", "application/json")
				}
				resp, err := client.Do(req)
				sent.Add(1)
				if err != nil {
					if failed.Add(1) <= 3 {
						t.Errorf("%s %s: %v", c.method, c.path, err)
					}
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode >= 500 {
					if fivexx.Add(1) <= 3 {
						t.Errorf("%s %s: %d", c.method, c.path, resp.StatusCode)
					}
				}
			}
		}()
	}
	warm := time.Duration(seconds) * time.Second / 5
	time.Sleep(warm)
	atWarm, sentWarm := rss(t, p.cmd.Process.Pid), sent.Load()
	time.Sleep(time.Duration(seconds)*time.Second - warm)
	atEnd := rss(t, p.cmd.Process.Pid)
	stop.Store(true)
	wg.Wait()
	t.Logf("%d requests in %d s (%d after warm-up), %d 5xx, %d failed; RSS %d MiB after %s, %d MiB at the end",
		sent.Load(), seconds, sent.Load()-sentWarm, fivexx.Load(), failed.Load(), atWarm/1024, warm, atEnd/1024)
	if limit := atWarm + atWarm/3 + 32<<10; atEnd > limit {
		t.Errorf("memory grew from %d MiB to %d MiB under steady load", atWarm/1024, atEnd/1024)
	}
}
