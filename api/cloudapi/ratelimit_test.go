package cloudapi

import (
	"strconv"
	"testing"
	"time"
)

// TestRateLimits with every limit scaled to 1 %: 8 requests per minute per endpoint, 16 per two
// minutes in all, counted per token.
func TestRateLimits(t *testing.T) {
	e := newEnv(t, 0.01)
	profile := req{path: "/v4/profile", token: demoToken}
	for i := 0; i < 8; i++ {
		r := e.do(t, profile)
		if r.Status != 200 || r.Header.Get("X-RateLimit-Limit") != "8" || r.Header.Get("X-RateLimit-Remaining") != strconv.Itoa(7-i) {
			t.Fatalf("request %d: %d %v", i, r.Status, r.Header)
		}
	}
	r := e.do(t, profile)
	reset, _ := strconv.ParseInt(r.Header.Get("X-RateLimit-Reset"), 10, 64)
	if r.Status != 429 || r.Body != `{"errors":[{"reason":"Too many requests"}]}` || r.Header.Get("Retry-After") == "" ||
		r.Header.Get("X-RateLimit-Remaining") != "0" || reset <= start.Unix() {
		t.Fatalf("9th request: %d %s %v", r.Status, r.Body, r.Header)
	}
	e.run(t, []scenario{
		{name: "another token has its own budget", req: req{path: "/v4/profile", token: daveToken}, status: 200},
		{name: "another endpoint still answers", req: req{path: "/v4/profile/tokens", token: demoToken}, status: 200},
	})
	e.clock.Advance(time.Minute)
	e.run(t, []scenario{{name: "a new window", req: profile, status: 200}})
	// The general limit (16 per 2 minutes) covers every endpoint together.
	got429 := false
	for i := 0; i < 20 && !got429; i++ {
		got429 = e.do(t, req{path: "/v4/account/users", token: demoToken}).Status == 429
	}
	if !got429 || e.do(t, req{path: "/v4/profile/grants", token: demoToken}).Status != 429 {
		t.Fatal("the general limit does not hold across endpoints")
	}
	// Public endpoints count per IP.
	for i := 0; i < 8; i++ {
		e.do(t, req{path: "/v4/account/oauth-clients/" + cliClient + "/thumbnail"})
	}
	if s := e.do(t, req{path: "/v4/account/oauth-clients/" + cliClient + "/thumbnail"}).Status; s != 429 {
		t.Fatalf("public endpoint: %d", s)
	}
}

func TestPaginationOverHTTP(t *testing.T) {
	e := newEnv(t, 0)
	for i := 0; i < 30; i++ {
		e.do(t, req{method: "POST", path: "/v4/account/users", token: demoToken, body: `{"username":"user` + strconv.Itoa(100+i) + `","email":"u@example.com"}`})
	}
	e.run(t, []scenario{
		{name: "page 2 of 25", req: req{path: "/v4/account/users?page=2&page_size=25", token: demoToken}, status: 200,
			want: []string{`"page":2,"pages":2,"results":32`}},
		{name: "past the end", req: req{path: "/v4/account/users?page=3&page_size=25", token: demoToken}, status: 200, want: []string{`{"data":[],"page":3,"pages":2,"results":32}`}},
		{name: "above 2^64/page_size: the last page", req: req{path: "/v4/account/users?page=999999999999999999999999&page_size=25", token: demoToken}, status: 200,
			want: []string{`"page":2,"pages":2`}},
		{name: "ordered by username desc", req: req{path: "/v4/account/users?page_size=25", token: demoToken, header: map[string]string{"X-Filter": `{"+order_by":"username","+order":"desc"}`}},
			status: 200, want: []string{`{"data":[{"username":"user129"`}},
		{name: "page size 501", req: req{path: "/v4/account/users?page_size=501", token: demoToken}, status: 400, want: []string{`"field":"page_size"`}},
		{name: "page not a number", req: req{path: "/v4/account/users?page=two", token: demoToken}, status: 400, want: []string{`"field":"page"`}},
	})
}
