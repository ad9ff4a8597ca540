package api

import (
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

// setChaos sends a rule set to /_appliance/chaos with the bootstrap token.
func (e *env) setChaos(t *testing.T, method, body string) apitest.Response {
	t.Helper()
	return apitest.Do(t, e.app, apitest.Request{Method: method, Path: "/_appliance/chaos", Bearer: token, Body: body})
}

// TestChaosBadRules: rules that do not parse or are out of range are refused 400 with the field
// named, and nothing of them is installed; the endpoint needs the bootstrap token.
func TestChaosBadRules(t *testing.T) {
	e := newEnv(t, nil)
	cases := map[string]string{
		`{"rules":[`: "body",
		`{"rules":[{"status":503},{"api":"email","status":503}]}`: "rules[1].api",
		`{"rules":[{"probability":2,"status":503}]}`:              "rules[0].probability",
		`{"rules":[{"status":302}]}`:                              "rules[0].status",
		`{"rules":[{"latency":{"min_ms":50,"max_ms":10}}]}`:       "rules[0].latency.max_ms",
		`{"rules":[{"path_prefix":"/_appliance","reset":true}]}`:  "rules[0].path_prefix",
		`{"rules":[{"status":503,"when":"always"}]}`:              "when",
	}
	for body, field := range cases {
		for _, method := range []string{"PUT", "POST"} {
			r := e.setChaos(t, method, body)
			var got struct{ Error, Field string }
			if err := json.Unmarshal([]byte(r.Body), &got); err != nil || r.Status != 400 || got.Field != field ||
				!strings.HasPrefix(got.Error, field+": ") {
				t.Errorf("%s %s: %d %s, want 400 on %s", method, body, r.Status, r.Body, field)
			}
		}
	}
	apitest.Expect{Status: 200, Exact: `{"rules":[]}`}.Check(t, e.setChaos(t, "GET", ""))
	r := apitest.Do(t, e.app, apitest.Request{Method: "PUT", Path: "/_appliance/chaos", Body: `{"rules":[{"status":503}]}`})
	apitest.Expect{Status: 401}.Check(t, r)
	apitest.Expect{Status: 200, Exact: `{"rules":[]}`}.Check(t, e.setChaos(t, "GET", ""))
}

// TestChaosStatusInEachFormat: an injected status is answered in the API's own error format,
// before authentication; rules select by API, method and path prefix; probability 0 never hits;
// the operator's endpoints are never hit; cleared rules have no effect.
func TestChaosStatusInEachFormat(t *testing.T) {
	e := newEnv(t, nil)
	e.run(t, []call{{name: "no rules: no effect", path: "/v4/profile", auth: "token", wantStatus: 200}})
	apitest.Expect{Status: 200, Contains: []string{`"fired":0`, `"probability":1`}}.Check(t, e.setChaos(t, "PUT", `{"rules":[
		{"api":"cloud","method":"get","path_prefix":"/v4/profile","status":503},
		{"api":"build","path_prefix":"/about","status":500},
		{"api":"explorer","path_prefix":"/api/backend-config","status":429},
		{"api":"cloud","path_prefix":"/v4/account","probability":0,"status":500},
		{"path_prefix":"/","status":502}]}`))
	injected := "fault injected by pocketforge: chaos rule "
	e.run(t, []call{
		{name: "cloud: JSON errors", path: "/v4/profile", auth: "token", wantStatus: 503,
			wantExact: `{"errors":[{"reason":"` + injected + `0 answers 503 Service Unavailable (see /_appliance/chaos)"}]}`},
		{name: "cloud: another method falls to the catch-all", method: "PUT", path: "/v4/profile", auth: "token", body: `{}`, wantStatus: 502,
			wantBody: []string{`{"errors":[{"reason":"` + injected + `4 answers 502`}},
		{name: "build: a status document", path: "/about", wantStatus: 500,
			wantBody: []string{`<status code="`, "<summary>" + injected + "1 answers 500"}},
		{name: "explorer: {error}", path: "/api/backend-config", wantStatus: 429,
			wantExact: `{"error":"` + injected + `2 answers 429 Too Many Requests (see /_appliance/chaos)"}`},
		{name: "probability 0 never hits; the next rule does", path: "/v4/account", auth: "token", wantStatus: 502},
		{name: "the web interface's pages too", path: "/values", wantStatus: 502, wantBody: []string{injected}},
		{name: "the appliance endpoints never", path: "/_appliance/clock", auth: "token", wantStatus: 200},
		{name: "nor the appliance page", path: "/appliance", wantStatus: 200},
	})
	apitest.Expect{Status: 200, Contains: []string{`"fired":1}`, `"probability":0,`}}.Check(t, e.setChaos(t, "GET", ""))
	apitest.Expect{Status: 204}.Check(t, e.setChaos(t, "DELETE", ""))
	e.run(t, []call{
		{name: "cleared: no effect", path: "/v4/profile", auth: "token", wantStatus: 200},
		{name: "cleared: explorer", path: "/api/backend-config", wantStatus: 200},
	})
	r := apitest.Do(t, e.app, apitest.Request{Path: "/_appliance/requests?path=/v4/profile&limit=3", Bearer: token})
	apitest.Expect{Status: 200, Contains: []string{`"fault":"rule 0: 503"`}}.Check(t, r)
}

// TestChaosLatency: a fixed latency and a range delay the request, which is then answered as
// usual; POST adds a rule to the set.
func TestChaosLatency(t *testing.T) {
	e := newEnv(t, nil)
	e.setChaos(t, "PUT", `{"rules":[{"api":"explorer","latency_ms":150}]}`)
	apitest.Expect{Status: 200}.Check(t, e.setChaos(t, "POST", `{"rules":[{"api":"cloud","latency":{"min_ms":60,"max_ms":80}}]}`))
	for _, c := range []struct {
		path string
		min  time.Duration
	}{{"/api/backend-config", 150 * time.Millisecond}, {"/v4/profile", 60 * time.Millisecond}} {
		start := time.Now()
		e.run(t, []call{{name: c.path, path: c.path, auth: "token", wantStatus: 200}})
		if took := time.Since(start); took < c.min {
			t.Errorf("%s took %v, want at least %v", c.path, took, c.min)
		}
	}
	start := time.Now()
	e.run(t, []call{{name: "another API: no delay", path: "/values", wantStatus: 200}})
	if took := time.Since(start); took >= 60*time.Millisecond {
		t.Errorf("unmatched request took %v", took)
	}
}

// TestChaosReset: a reset rule drops the connection without an answer — the client sees a
// connection error — and the journal records status 0.
func TestChaosReset(t *testing.T) {
	e := newEnv(t, nil)
	e.setChaos(t, "PUT", `{"rules":[{"api":"explorer","path_prefix":"/api/backend-config","reset":true}]}`)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = e.app.Listener(ln) }()
	t.Cleanup(func() { _ = e.app.Shutdown() })
	cl := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := cl.Get("http://" + ln.Addr().String() + "/api/backend-config")
	if err == nil {
		resp.Body.Close()
		t.Fatalf("a dropped connection answered %d", resp.StatusCode)
	}
	if !strings.Contains(err.Error(), "connection reset") {
		t.Errorf("the client saw %v, want a connection reset", err)
	}
	resp, err = cl.Get("http://" + ln.Addr().String() + "/api/products/packages?q=x")
	if err != nil {
		t.Fatalf("an unmatched request: %v", err)
	}
	resp.Body.Close()
	r := apitest.Do(t, e.app, apitest.Request{Path: "/_appliance/requests?path=/api/backend-config", Bearer: token})
	apitest.Expect{Status: 200, Contains: []string{`"status":0,`, `"fault":"rule 0: reset"`}}.Check(t, r)
}

// TestChaosSeededFraction: with a seed, probability 0.5 hits about half the requests, the same
// ones again after the same rules are set anew, and the rule's counter agrees.
func TestChaosSeededFraction(t *testing.T) {
	e := newEnv(t, nil)
	run := func() string {
		e.setChaos(t, "PUT", `{"seed":42,"rules":[{"api":"explorer","probability":0.5,"status":503}]}`)
		var b strings.Builder
		for range 100 {
			r := apitest.Do(t, e.app, apitest.Request{Path: "/api/backend-config"})
			if r.Status == 503 {
				b.WriteByte('x')
			} else {
				b.WriteByte('.')
			}
		}
		return b.String()
	}
	a := run()
	hits := strings.Count(a, "x")
	if hits < 30 || hits > 70 {
		t.Fatalf("probability 0.5 hit %d of 100: %s", hits, a)
	}
	var v struct{ Rules []struct{ Fired int } }
	_ = json.Unmarshal([]byte(e.setChaos(t, "GET", "").Body), &v)
	if len(v.Rules) != 1 || v.Rules[0].Fired != hits {
		t.Fatalf("counter %+v, %d hits", v, hits)
	}
	if b := run(); b != a {
		t.Fatalf("one seed, two sequences:\n%s\n%s", a, b)
	}
}
