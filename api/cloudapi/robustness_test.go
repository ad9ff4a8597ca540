package cloudapi

import (
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/cloudsvc"
)

// TestDeprecatedEndpoints: a route marked deprecated answers 299 with a warnings array.
func TestDeprecatedEndpoints(t *testing.T) {
	e := newEnv(t, 0)
	a := newAPI(Deps{Store: e.db, Clock: e.clock, Log: nopLog(), ExternalURL: func() string { return "" },
		Cloud: cloudsvc.New(e.db, e.clock, nopLog(), cloudsvc.Options{}), Limiter: newLimiter(e)})
	acc := access{area: "account", deprecated: true}
	e.app.Post("/v4/test/deprecated", a.guard("POST", "/test/deprecated", acc), func(c *fiber.Ctx) error { return c.JSON(fiber.Map{}) })
	e.app.Post("/v4/test/deprecated-fails", a.guard("POST", "/test/deprecated-fails", acc), func(c *fiber.Ctx) error { return fiber.ErrBadRequest })
	e.run(t, []scenario{
		{name: "299 with warnings", req: req{method: "POST", path: "/v4/test/deprecated", token: demoToken}, status: 299,
			exact: `{"warnings":[{"details":"This endpoint is deprecated and may be removed; see the API changelog for its replacement.","title":"Deprecated endpoint"}]}`},
		{name: "errors stay errors", req: req{method: "POST", path: "/v4/test/deprecated-fails", token: demoToken}, status: 400},
	})
}

// TestNoInputYields500 sends hostile bodies to every writing endpoint: each must get a 4xx (or
// succeed), never a 5xx.
func TestNoInputYields500(t *testing.T) {
	e := newEnv(t, 0)
	bodies := []string{
		`null`, `[]`, `"str"`, `42`, `{"username":{}}`, `{"label":null,"redirect_uri":null}`, `{"global":[]}`,
		`{"instance":[{"id":-1}]}`, `{"instance":[{"id":1e30}]}`, `{"expiry":123}`, `{"scopes":["*"]}`,
		strings.Repeat("[", 20000), "\x00\xff\xfe garbage", `{"username":"` + strings.Repeat("é", 5000) + `"}`,
		`{"label":"` + strings.Repeat("x", 100000) + `"}`, `{"a":1,"a":2}`,
		`{"usd":1e308}`, `{"usd":"-0.00"}`, `{"usd":"99999999999999999999.99"}`, `{"entities":{"instances":[1e20]}}`,
		`{"entities":{"instances":[-1,null,"x",{}]}}`, `{"type":"credit_card","is_default":true,"data":{"card_number":"` + strings.Repeat("4", 5000) + `"}}`,
		`{"data":{"expiry_month":1e10,"expiry_year":-3}}`, `{"promo_code":null}`, `{"zip":{},"country":[]}`,
	}
	paths := []struct{ method, path string }{
		{"POST", "/v4/account/users"}, {"PUT", "/v4/account/users/carol"}, {"PUT", "/v4/account/users/carol/grants"},
		{"POST", "/v4/account/oauth-clients"}, {"PUT", "/v4/account/oauth-clients/" + cliClient},
		{"PUT", "/v4/account/oauth-clients/" + cliClient + "/thumbnail"}, {"POST", "/v4/profile/tokens"},
		{"PUT", "/v4/profile/tokens/1"},
		{"PUT", "/v4/account"}, {"POST", "/v4/account/cancel"}, {"PUT", "/v4/account/settings"},
		{"POST", "/v4/account/payment-methods"}, {"POST", "/v4/account/payments"}, {"POST", "/v4/account/credit-card"},
		{"POST", "/v4/account/payments/wallet"}, {"POST", "/v4/account/payments/wallet/execute"},
		{"POST", "/v4/account/promo-codes"}, {"POST", "/v4/account/service-transfers"}, {"POST", "/v4/account/entity-transfers"},
		{"POST", "/v4/account/events/1/read"}, {"POST", "/v4/account/payment-methods/1/make-default"},
	}
	for _, p := range paths {
		for _, b := range bodies {
			if r := e.do(t, req{method: p.method, path: p.path, token: demoToken, body: b}); r.Status >= 500 {
				t.Errorf("%s %s with %.40q: %d %s", p.method, p.path, b, r.Status, r.Body)
			}
		}
	}
	forms := []string{"", "client_id=%zz", "grant_type=refresh_token&client_id=" + cliClient + "&refresh_token=" + strings.Repeat("x", 5000),
		"client_id=" + cliClient + "&code_challenge=" + strings.Repeat("a", 500) + "&code_challenge_method=S256&username=demo&password=x"}
	for _, f := range forms {
		for _, path := range []string{"/oauth/token", "/oauth/authorize", "/oauth/revoke", "/oauth/token/expire", "/oauth/password-setup"} {
			if r := e.do(t, req{method: "POST", path: path, body: f, header: form}); r.Status >= 500 {
				t.Errorf("POST %s with %.40q: %d %s", path, f, r.Status, r.Body)
			}
		}
	}
}

// TestIdleJobsDoNotWrite: with nothing due, a run of the background jobs writes nothing, so the
// caches that hot reads use (store.Memo) are not invalidated every second.
func TestIdleJobsDoNotWrite(t *testing.T) {
	e := newEnv(t, 0)
	e.runJobs() // catch up: the demo world's past months are invoiced now
	before := e.db.Version()
	for i := 0; i < 3; i++ {
		e.clock.Advance(time.Second)
		e.runJobs()
	}
	if after := e.db.Version(); after != before {
		t.Fatalf("idle jobs committed %d writes", after-before)
	}
}
