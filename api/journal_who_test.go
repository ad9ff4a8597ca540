package api

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

const carolToken = "pfdemo-carol-0000000000000000000000000000000000000000000000000000"

// journal lists /_appliance/requests with query q.
func (e *env) journal(t *testing.T, q string) []kit.Entry {
	t.Helper()
	r := apitest.Do(t, e.app, apitest.Request{Path: "/_appliance/requests?" + q, Bearer: token})
	var got struct{ Requests []kit.Entry }
	if r.Status != 200 || json.Unmarshal([]byte(r.Body), &got) != nil {
		t.Fatalf("journal %s: %d %s", q, r.Status, r.Body)
	}
	return got.Requests
}

// TestJournalWho: the journal records who a request authenticated as — the cloud token's user
// and token, the build service's Basic user — filters by user and by token, and gives each
// entry a curl line that replays it with the credentials masked.
func TestJournalWho(t *testing.T) {
	e := newEnv(t, nil)
	basic := func(login, password string) string {
		return "Basic " + base64.StdEncoding.EncodeToString([]byte(login+":"+password))
	}
	e.run(t, []call{
		{name: "demo", path: "/v4/profile", auth: "token", wantStatus: 200},
		{name: "carol", path: "/v4/profile?x=1", auth: "Bearer " + carolToken, wantStatus: 200},
		{name: "alice", path: "/about", auth: basic("alice", "alice-password"), wantStatus: 200},
		{name: "bob", path: "/about", auth: basic("bob", "bob-password"), wantStatus: 200},
		{name: "a wrong password", path: "/about", auth: basic("bob", "nope"), wantStatus: 401},
		{name: "anonymous", path: "/api/backend-config", wantStatus: 200},
	})
	// carol's POST is refused or not; either way it is hers
	e.do(t, call{method: "POST", path: "/v4/account/payments?dry=1", auth: "Bearer " + carolToken, body: `{"usd":"x"}`,
		header: map[string]string{"Accept": "application/json"}})
	users := func(list []kit.Entry) string {
		var s []string
		for _, en := range list {
			s = append(s, en.User+" "+en.Path)
		}
		return strings.Join(s, ", ")
	}
	for q, want := range map[string]string{
		"user=carol": "carol /v4/account/payments, carol /v4/profile",
		"user=alice": "alice /about",
		"user=bob":   "bob /about", // the wrong password is nobody's
		"user=demo":  "demo /v4/profile",
		"user=eve":   "",
	} {
		if got := users(e.journal(t, q)); got != want {
			t.Errorf("%s: %q, want %q", q, got, want)
		}
	}
	carol := e.journal(t, "user=carol")
	if carol[0].TokenID == 0 || carol[0].TokenPrefix != carolToken[:16] {
		t.Fatalf("carol's token not recorded: %+v", carol[0])
	}
	for _, q := range []string{fmt.Sprint("token=", carol[0].TokenID), "token=pfdemo-carol", "token=" + carolToken[:16]} {
		if got := users(e.journal(t, q)); got != "carol /v4/account/payments, carol /v4/profile" {
			t.Errorf("%s: %q", q, got)
		}
	}
	if got := e.journal(t, "token=pfdemo-dave"); len(got) != 0 {
		t.Errorf("another token's filter: %s", users(got))
	}

	byPath := func(user, path string) kit.Entry {
		for _, en := range e.journal(t, "user="+user) {
			if en.Path == path {
				return en
			}
		}
		t.Fatalf("no entry of %s at %s", user, path)
		return kit.Entry{}
	}
	cases := []struct {
		entry kit.Entry
		want  string
	}{
		{byPath("carol", "/v4/account/payments"),
			`curl -X POST 'http://localhost/v4/account/payments?dry=1' -H 'Authorization: Bearer ***' -H 'Content-Type: application/json' -H 'Accept: application/json' --data-binary @body`},
		{byPath("carol", "/v4/profile"), `curl 'http://localhost/v4/profile?x=1' -H 'Authorization: Bearer ***'`},
		{byPath("alice", "/about"), `curl 'http://localhost/about' -u 'alice:***'`},
	}
	for _, c := range cases {
		if c.entry.Curl != c.want {
			t.Errorf("curl:\n got  %s\n want %s", c.entry.Curl, c.want)
		}
	}
	all, _ := json.Marshal(e.journal(t, ""))
	for _, secret := range []string{carolToken, token, "alice-password", "bob-password", base64.StdEncoding.EncodeToString([]byte("alice:alice-password"))} {
		if strings.Contains(string(all), secret) {
			t.Errorf("the journal shows a secret: %s", secret)
		}
	}
	if !strings.Contains(string(all), `-u 'bob:***'`) {
		t.Errorf("a refused Basic sign-in lost its login in the curl line")
	}
}
