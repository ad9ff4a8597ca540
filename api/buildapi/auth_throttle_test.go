package buildapi

import (
	"strconv"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

// TestPasswordThrottle (issue 13): five wrong passwords for Admin, then 429 too_many_requests
// with Retry-After, in the build service's <status> format, even for the right password; another
// person signs in meanwhile; once the appliance clock passes the lock, Admin signs in.
func TestPasswordThrottle(t *testing.T) {
	e := newEnv(t)
	about := func(login, password string) apitest.Request {
		return apitest.Request{Path: "/about", Header: basic(login, password)}
	}
	for i := range 5 {
		if got := apitest.Do(t, e.app, about("Admin", "guess-"+strconv.Itoa(i))); got.Status != 401 {
			t.Fatalf("wrong password %d: %d %s", i+1, got.Status, got.Body)
		}
	}
	locked := apitest.Expect{Status: 429, Exact: `<status code="too_many_requests"><summary>Too many failed sign-ins. Try again in 30 seconds.</summary></status>`,
		Header: map[string]string{"Retry-After": "30", "X-Opensuse-Errorcode": "too_many_requests", "WWW-Authenticate": ""}}
	e.run(t, []scenario{
		{"sixth guess", about("Admin", "guess-6"), locked},
		{"the right password while locked", about("Admin", adminPassword), locked},
		{"another person is unaffected", about("alice", "alice-password"), apitest.Expect{Status: 200}},
	})
	e.clk.Advance(20 * time.Second)
	e.run(t, []scenario{{"10 s left", about("Admin", adminPassword), apitest.Expect{Status: 429, Header: map[string]string{"Retry-After": "10"}}}})
	e.clk.Advance(10 * time.Second)
	e.run(t, []scenario{{"after the lock", about("Admin", adminPassword), apitest.Expect{Status: 200}}})
}
