package kit

import (
	"strings"
	"testing"
)

// TestJournalUserAndToken: the user filter keeps one user's requests, the token filter one
// token's, by id or by the start of its prefix (6 characters at least).
func TestJournalUserAndToken(t *testing.T) {
	j := NewJournal(10)
	j.Add(Entry{ID: "1", User: "demo", TokenID: 1, TokenPrefix: "test-bootstrap-t"})
	j.Add(Entry{ID: "2", User: "carol", TokenID: 12, TokenPrefix: "pfdemo-carol-000"})
	j.Add(Entry{ID: "3", User: "alice"})
	j.Add(Entry{ID: "4"})
	j.Add(Entry{ID: "5", User: "carol", TokenID: 12, TokenPrefix: "pfdemo-carol-000"})
	cases := []struct {
		f    Filter
		want string
	}{
		{Filter{User: "carol"}, "52"},
		{Filter{User: "alice"}, "3"},
		{Filter{User: "Carol"}, ""},
		{Filter{Token: "12"}, "52"},
		{Filter{Token: "1"}, "1"},
		{Filter{Token: "pfdemo-carol"}, "52"},
		{Filter{Token: "pfdemo"}, "52"},
		{Filter{Token: "pfdem"}, ""},
		{Filter{Token: "test-bootstrap"}, "1"},
		{Filter{User: "carol", Token: "1"}, ""},
	}
	for _, c := range cases {
		var got string
		for _, e := range j.List(c.f) {
			got += e.ID
		}
		if got != c.want {
			t.Errorf("%+v: %q, want %q", c.f, got, c.want)
		}
	}
}

// TestCurl: the replay line has the method, the URL from the external URL with path and query,
// the headers that matter, credentials masked and a placeholder for a body.
func TestCurl(t *testing.T) {
	cases := []struct {
		r                         Replay
		method, path, query, user string
		want                      string
	}{
		{Replay{Auth: "Bearer", Accept: "application/json", XFilter: `{"label":"web-1"}`}, "GET", "/v4/linode/instances", "page=2", "",
			`curl 'https://pf.example/v4/linode/instances?page=2' -H 'Authorization: Bearer ***' -H 'Accept: application/json' -H 'X-Filter: {"label":"web-1"}'`},
		{Replay{Auth: "Basic", BasicUser: "alice", ContentType: "application/xml", Body: true}, "PUT", "/source/home:alice/x/_meta", "", "alice",
			`curl -X PUT 'https://pf.example/source/home:alice/x/_meta' -u 'alice:***' -H 'Content-Type: application/xml' --data-binary @body`},
		{Replay{Auth: "Cookie"}, "POST", "/build/p", "cmd=rebuild", "bob",
			`curl -X POST 'https://pf.example/build/p?cmd=rebuild' -u 'bob:***'`},
		{Replay{Auth: "Cookie"}, "HEAD", "/a b", "q=it's", "",
			`curl --head 'https://pf.example/a%20b?q=it'\''s' -H 'Cookie: ***'`},
		{Replay{Auth: "Token"}, "POST", "/trigger/runservice", "", "",
			`curl -X POST 'https://pf.example/trigger/runservice' -H 'Authorization: Token ***'`},
	}
	for _, c := range cases {
		if got := c.r.Curl("https://pf.example", c.method, c.path, c.query, c.user); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
	if got := (Replay{}).Curl("", "GET", "/about", "", ""); got != "curl 'http://localhost/about'" {
		t.Errorf("no external URL: %s", got)
	}
	j := NewJournal(1)
	j.SetExternalURL("https://pf.example/")
	j.Add(Entry{Method: "DELETE", Path: "/v4/x", Replay: Replay{Auth: "Bearer"}})
	if got := j.List(Filter{})[0].Curl; !strings.HasPrefix(got, "curl -X DELETE 'https://pf.example/v4/x'") {
		t.Errorf("journal's curl: %s", got)
	}
}
