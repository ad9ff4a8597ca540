package e2e

import (
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// trigger posts to /trigger/runservice with "Authorization: Token secret", as a webhook does.
func trigger(t *testing.T, url, secret, query string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("POST", url+"/trigger/runservice"+query, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Token "+secret)
	resp, err := httpClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

var tokenSecret = regexp.MustCompile(`<data name="token">([0-9a-f]+)</data>`)

// TestOscTrigger: osc token --create P K prints a token; a webhook (net/http) and
// osc token --trigger run the package's service with it, which shows as a new revision in
// osc log; a wrong token and Basic credentials are refused.
func TestOscTrigger(t *testing.T) {
	t.Parallel()
	p := start(t, "--data", filepath.Join(t.TempDir(), "d.db"), "--admin-password", e2eAdminPassword)
	p.waitReady(t)
	alice := oscFor(t, p.url, "alice", "alice-password")
	for _, step := range [][]string{
		{"api", "-X", "PUT", "-d", `<package name="svc" project="home:alice"><title>S</title><description/></package>`, "/source/home:alice/svc/_meta"},
		{"api", "-X", "PUT", "-d", `<services><service name="download_files"/></services>`, "/source/home:alice/svc/_service"},
	} {
		if code, out := alice(step...); code != 0 {
			t.Fatalf("osc %v: exit %d\n%s", step, code, out)
		}
	}
	code, out := alice("token", "--create", "home:alice", "svc")
	m := tokenSecret.FindStringSubmatch(out)
	if code != 0 || m == nil {
		t.Fatalf("token --create: exit %d\n%s", code, out)
	}
	secret := m[1]

	if status, body := trigger(t, p.url, secret, ""); status != 200 || !strings.Contains(body, `<status code="ok">`) {
		t.Fatalf("trigger: %d %s", status, body)
	}
	if code, out := alice("log", "home:alice", "svc"); code != 0 || !strings.Contains(out, "r2 | alice") || !strings.Contains(out, "runservice via trigger") {
		t.Fatalf("log after the trigger: exit %d\n%s", code, out)
	}
	if code, out := alice("token", "--trigger", secret); code != 0 || !strings.Contains(out, `<status code="ok">`) {
		t.Fatalf("token --trigger: exit %d\n%s", code, out)
	}
	if code, out := alice("token", "--trigger", secret, "home:alice", "svc"); code != 0 || !strings.Contains(out, `<status code="ok">`) {
		t.Fatalf("token --trigger P K: exit %d\n%s", code, out)
	}
	if code, out := alice("log", "home:alice", "svc"); code != 0 || !strings.Contains(out, "r4 | alice") {
		t.Fatalf("log after osc token --trigger: exit %d\n%s", code, out)
	}
	if code, out := alice("token"); code != 0 || !strings.Contains(out, `project="home:alice" package="svc"`) || !strings.Contains(out, `triggered_at="`) {
		t.Fatalf("token list: exit %d\n%s", code, out)
	}
	if code, out := alice("token", "--trigger", "0123456789abcdef"); code == 0 || !strings.Contains(out, "404") || !strings.Contains(out, "Token not found") {
		t.Fatalf("token --trigger with a wrong token: exit %d\n%s", code, out)
	}
	if code, out := alice("token", "--trigger", secret, "home:alice", "other"); code == 0 || !strings.Contains(out, "Token is setup with another package.") {
		t.Fatalf("token --trigger for another package: exit %d\n%s", code, out)
	}
	req, _ := http.NewRequest("POST", p.url+"/trigger/runservice?project=home:alice&package=svc", nil)
	req.SetBasicAuth("alice", "alice-password")
	if resp, err := httpClient.Do(req); err != nil || resp.StatusCode != 403 || resp.Header.Get("WWW-Authenticate") != "" {
		t.Fatalf("Basic on /trigger: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
}

// TestOscPersonLock: Admin locks bob with osc api; bob's osc is refused with the service's
// message, his home project shows the lock, and his token stops working.
func TestOscPersonLock(t *testing.T) {
	t.Parallel()
	p := start(t, "--data", filepath.Join(t.TempDir(), "d.db"), "--admin-password", e2eAdminPassword)
	p.waitReady(t)
	admin := oscFor(t, p.url, "Admin", e2eAdminPassword)
	bob := oscFor(t, p.url, "bob", "bob-password")
	if code, out := bob("ls", "home:bob"); code != 0 {
		t.Fatalf("ls before the lock: exit %d\n%s", code, out)
	}
	code, out := bob("token", "--create")
	m := tokenSecret.FindStringSubmatch(out)
	if code != 0 || m == nil {
		t.Fatalf("token --create: exit %d\n%s", code, out)
	}
	if code, out := admin("api", "-X", "POST", "/person/bob?cmd=lock"); code != 0 || !strings.Contains(out, `<status code="ok">`) {
		t.Fatalf("lock: exit %d\n%s", code, out)
	}
	if code, out := bob("ls", "home:bob"); code == 0 || !strings.Contains(out, "HTTP Error 403") ||
		!strings.Contains(out, "User is registered but not in confirmed state") {
		t.Fatalf("ls as locked bob: exit %d\n%s", code, out)
	}
	if code, out := admin("meta", "prj", "home:bob"); code != 0 || !regexp.MustCompile(`<lock>\s*<enable`).MatchString(out) {
		t.Fatalf("meta prj home:bob: exit %d\n%s", code, out)
	}
	if status, body := trigger(t, p.url, m[1], "?project=devel:libs&package=libpocket"); status != 403 || !strings.Contains(body, "no permission") {
		t.Fatalf("locked bob's token: %d %s", status, body)
	}
	if code, out := admin("api", "-X", "POST", "/person/bob?cmd=delete"); code != 0 {
		t.Fatalf("delete: exit %d\n%s", code, out)
	}
	if code, out := admin("ls", "home:bob"); code == 0 || !strings.Contains(out, "404") {
		t.Fatalf("home:bob after the delete: exit %d\n%s", code, out)
	}
	if status, body := trigger(t, p.url, m[1], "?project=devel:libs&package=libpocket"); status != 404 || !strings.Contains(body, "Token not found") {
		t.Fatalf("deleted bob's token: %d %s", status, body)
	}
}
