package cloudapi

import (
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/cloudapi/listing"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/internal/testkit/bench"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
	"github.com/valyala/fasthttp"
)

// withUsers gives the demo account n more users (straight in the store: the benchmark is about
// reading them).
func (e *env) withUsers(tb testing.TB, n int) {
	err := e.db.Exclusive(func(tx kv.Tx) error {
		acct, err := cloudstore.AccountByName(tx, "demo")
		if err != nil {
			return err
		}
		for i := 0; i < n; i++ {
			in := cloudstore.NewUser{Username: fmt.Sprintf("bench-user-%04d", i), Email: fmt.Sprintf("u%d@example.com", i)}
			if _, err := cloudsvc.AddUser(tx, acct.ID, in, start); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
}

// TestAuthenticatedReadDoesNotWrite: authenticating costs no store write.
func TestAuthenticatedReadDoesNotWrite(t *testing.T) {
	e := newEnv(t, 1)
	writes := func() int64 { return e.db.Bolt().Stats().Writes }
	before := writes()
	for i := 0; i < 20; i++ {
		if r := e.do(t, req{path: "/v4/account/users", token: demoToken}); r.Status != 200 {
			t.Fatal(r.Status)
		}
	}
	if after := writes(); after != before {
		t.Fatalf("20 authenticated GETs wrote %d pages", after-before)
	}
}

// BenchmarkListUsers: an authenticated GET /v4/account/users answering a page of 100 users
// (token lookup, scope and grant checks, rate limit, store read, X-Filter and pagination, JSON)
// against a bare fiber handler answering the same JSON, both on loopback with 8 keep-alive
// clients. Budget: pocketforge ≥ 70 % of the bare handler's requests/s, i.e. x-raw ≤ 1.43.
func BenchmarkListUsers(b *testing.B) {
	e := newEnv(b, 1)
	e.withUsers(b, 120)
	e.app = fiber.New(fiber.Config{ErrorHandler: RenderError, JSONEncoder: kit.MarshalJSON, DisableStartupMessage: true})
	Bind(e.app, Deps{Store: e.db, Clock: e.clock, Log: nopLog(), ExternalURL: func() string { return "" },
		Cloud: cloudsvc.New(e.db, e.clock, nopLog(), cloudsvc.Options{}), RateScale: 1000, Limiter: newLimiter(e)})

	var users []cloudstore.User
	e.db.View(func(tx kv.Tx) (err error) { users, err = cloudstore.AccountUsers(tx, 1); return })
	page := listing.Paginate(users, listing.Page{Page: 1, Size: 100})
	same := listing.Envelope[userView]{Data: make([]userView, len(page.Data)), Page: 1, Pages: page.Pages, Results: page.Results}
	for i, u := range page.Data {
		same.Data[i] = viewUser(u)
	}
	bare := fiber.New(fiber.Config{JSONEncoder: kit.MarshalJSON, DisableStartupMessage: true})
	bare.Get("/v4/account/users", func(c *fiber.Ctx) error { return c.JSON(same) })

	appURL, rawURL := serveLoopback(b, e.app)+"/v4/account/users", serveLoopback(b, bare)+"/v4/account/users"
	client := &fasthttp.Client{MaxConnsPerHost: 64, ReadTimeout: 5 * time.Second}
	get := func(url string) {
		req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
		req.SetRequestURI(url)
		req.Header.Set("Authorization", "Bearer "+demoToken)
		if err := client.Do(req, resp); err != nil || resp.StatusCode() != 200 || len(resp.Body()) < 10000 {
			b.Fatalf("GET %s: %v %d", url, err, resp.StatusCode())
		}
		fasthttp.ReleaseRequest(req)
		fasthttp.ReleaseResponse(resp)
	}
	get(appURL)
	bench.Compare(b, 8, func(int) { get(appURL) }, func(int) { get(rawURL) })
}

func serveLoopback(b *testing.B, app *fiber.App) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	go app.Listener(ln)
	b.Cleanup(func() { app.Shutdown() })
	return "http://" + ln.Addr().String()
}
