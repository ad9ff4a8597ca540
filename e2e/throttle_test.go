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
