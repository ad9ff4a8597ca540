package e2e

import (
	"net/http"
	"strconv"
	"testing"
)

// TestResetForgetsSignInLocks (issue 13): Admin, locked after five wrong passwords, signs in
// with the right one at once after POST /_appliance/reset — the whole chain of the binary (the
// reset, the re-linked admin password, the domains told to forget).
func TestResetForgetsSignInLocks(t *testing.T) {
	t.Parallel()
	p := start(t, "--ephemeral", "--bootstrap-token", e2eToken, "--admin-password", e2eAdminPassword)
	p.waitReady(t)
	about := func(password string) int {
		t.Helper()
		req, _ := http.NewRequest("GET", p.url+"/about", nil)
		req.SetBasicAuth("Admin", password)
		resp, err := httpClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for i := range 5 {
		if code := about("guess-" + strconv.Itoa(i)); code != 401 {
			t.Fatalf("wrong password %d: %d", i+1, code)
		}
	}
	if code := about(e2eAdminPassword); code != 429 {
		t.Fatalf("Admin not locked: %d", code)
	}
	if code, body := request(t, "POST", p.url+"/_appliance/reset", e2eToken, nil); code != 200 {
		t.Fatalf("reset: %d %s", code, body)
	}
	if code := about(e2eAdminPassword); code != 200 {
		t.Fatalf("Admin after the reset: %d, want 200", code)
	}
}

// TestNobodyLocksAnybodyOut (issue 32): five wrong passwords for Admin from one address lock
// Admin at that address only: the right password from another address signs in at once. The
// addresses are a trusted proxy's X-Forwarded-For, as behind a reverse proxy.
func TestNobodyLocksAnybodyOut(t *testing.T) {
	t.Parallel()
	p := start(t, "--ephemeral", "--no-fixtures", "--admin-password", e2eAdminPassword, "--trusted-proxies", "127.0.0.0/8")
	p.waitReady(t)
	about := func(from, password string) int {
		t.Helper()
		req, _ := http.NewRequest("GET", p.url+"/about", nil)
		req.SetBasicAuth("Admin", password)
		req.Header.Set("X-Forwarded-For", from)
		resp, err := httpClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for i := range 5 {
		if code := about("203.0.113.7", "guess-"+strconv.Itoa(i)); code != 401 {
			t.Fatalf("wrong password %d: %d", i+1, code)
		}
	}
	if code := about("203.0.113.7", e2eAdminPassword); code != 429 {
		t.Fatalf("the guesser's address not locked: %d", code)
	}
	if code := about("198.51.100.2", e2eAdminPassword); code != 200 {
		t.Fatalf("Admin from another address: %d, want 200", code)
	}
}
