package api

import (
	"encoding/base64"
	"net/url"
	"strconv"
	"testing"

	"github.com/pocketforge/pocketforge/config"
)

// TestReplaceForgetsSignInLocks (issue 13): a user locked after wrong passwords — the build
// service's Admin, the login server's demo — signs in with the right password at once after the
// data is replaced (reseed, restore; reset is shown against the binary in e2e): the failures
// were guesses at passwords of data that is gone.
func TestReplaceForgetsSignInLocks(t *testing.T) {
	e := newEnv(t, nil)
	snap, _ := e.do(t, call{path: "/_appliance/snapshot", auth: "token"})
	if snap.Status != 200 {
		t.Fatalf("snapshot: %d", snap.Status)
	}
	basic := func(password string) string {
		return "Basic " + base64.StdEncoding.EncodeToString([]byte("Admin:"+password))
	}
	signIn := func(user, password string) call {
		form := url.Values{"client_id": {cliClientID}, "username": {user}, "password": {password}, "decision": {"approve"}}
		return call{name: user, method: "POST", path: "/oauth/authorize", body: form.Encode(),
			header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}}
	}
	lock := func(t *testing.T) {
		t.Helper()
		for i := range 5 {
			if got, _ := e.do(t, call{path: "/about", auth: basic("guess-" + strconv.Itoa(i))}); got.Status != 401 {
				t.Fatalf("Admin, wrong password %d: %d", i+1, got.Status)
			}
			if got, _ := e.do(t, signIn("demo", "guess")); got.Status != 401 {
				t.Fatalf("demo, wrong password %d: %d", i+1, got.Status)
			}
		}
		if got, _ := e.do(t, call{path: "/about", auth: adminBasic}); got.Status != 429 {
			t.Fatalf("Admin not locked: %d", got.Status)
		}
		if got, _ := e.do(t, signIn("demo", "demo-password")); got.Status != 429 {
			t.Fatalf("demo not locked: %d", got.Status)
		}
	}
	for _, op := range []call{
		{name: "reseed", method: "POST", path: "/_appliance/reseed", auth: "token"},
		{name: "restore", method: "POST", path: "/_appliance/restore", body: snap.Body, auth: "token"},
	} {
		t.Run(op.name, func(t *testing.T) {
			lock(t)
			if got, _ := e.do(t, op); got.Status != 200 {
				t.Fatalf("%s: %d %s", op.name, got.Status, got.Body)
			}
			demo := signIn("demo", "demo-password")
			demo.wantStatus = 302
			e.run(t, []call{{name: "Admin", path: "/about", auth: adminBasic, wantStatus: 200}, demo})
		})
	}
}

// TestReplaceResetsCloudRateLimits: the cloud API's rate counts start afresh after the data is
// replaced, since they are kept per token id and a replaced data file hands the same ids out
// again: the bootstrap token's token (re-made by a reseed) is not limited by what came before.
func TestReplaceResetsCloudRateLimits(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.CloudRateScale = 0.01 })
	limited := false
	for range 1000 {
		got, _ := e.do(t, call{path: "/v4/profile", auth: "token"})
		if got.Status == 429 {
			limited = true
			break
		}
	}
	if !limited {
		t.Fatal("never limited")
	}
	e.run(t, []call{
		{name: "reseed", method: "POST", path: "/_appliance/reseed", auth: "token", wantStatus: 200},
		{name: "after the reseed", path: "/v4/profile", auth: "token", wantStatus: 200},
	})
}
