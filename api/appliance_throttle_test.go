package api

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

// TestBootstrapTokenThrottle (issue 13): the bootstrap token may be as short as 8 characters, so
// guessing it is throttled per client IP (appliancesvc). Ten wrong tokens are answered 401; then
// the IP gets 429 with Retry-After in the appliance's JSON, the right token too; a request
// without a token still gets the challenge; the right token from another IP works; once the
// clock passes the lock the right token works again, and a wrong one after a lock locks twice as
// long. Behind a trusted proxy each client counts apart; a forged X-Forwarded-For from anyone
// else does not rotate the lock away.
func TestBootstrapTokenThrottle(t *testing.T) {
	e := newPeerEnv(t, nil)
	const guesser, operator = "203.0.113.9", "203.0.113.10"
	bearer := func(tok string) map[string]string { return map[string]string{"Authorization": "Bearer " + tok} }
	get := func(peer, xff, tok string) apitest.Response {
		t.Helper()
		h := map[string]string{}
		if tok != "" {
			h = bearer(tok)
		}
		return e.send(t, peer, xff, "GET", "/_appliance/clock", h, "")
	}
	for i := range 10 {
		apitest.Expect{Status: 401, Exact: `{"error":"invalid bootstrap token"}`}.Check(t, get(guesser, "192.0.2."+strconv.Itoa(i+1), "guess-"+strconv.Itoa(i)))
	}
	locked := func(secs string) apitest.Expect {
		return apitest.Expect{Status: http.StatusTooManyRequests,
			Exact:  `{"error":"too many wrong bootstrap tokens from this address; try again in ` + secs + ` seconds"}`,
			Header: map[string]string{"Retry-After": secs, "Content-Type": "application/json"}}
	}
	locked("30").Check(t, get(guesser, "192.0.2.100", "guess-10"))
	locked("30").Check(t, get(guesser, "", token))
	apitest.Expect{Status: 401, Header: map[string]string{"WWW-Authenticate": `Bearer realm="pocketforge appliance"`}}.Check(t, get(guesser, "", ""))
	apitest.Expect{Status: 200}.Check(t, get(operator, "", token))
	apitest.Expect{Status: 200}.Check(t, e.send(t, operator, "", "POST", "/_appliance/reset", bearer(token), ""))
	locked("30").Check(t, get(guesser, "", token)) // the token survives a reset, and so do the guesses at it

	e.clock.Advance(29 * time.Second)
	locked("1").Check(t, get(guesser, "", "guess-11"))
	e.clock.Advance(time.Second)
	apitest.Expect{Status: 401}.Check(t, get(guesser, "", "guess-11"))
	locked("60").Check(t, get(guesser, "", token))
	e.clock.Advance(time.Minute)
	apitest.Expect{Status: 200}.Check(t, get(guesser, "", token))
	apitest.Expect{Status: 401}.Check(t, get(guesser, "", "guess-12")) // the right token ended the count

	// Behind the trusted proxy, one client's guesses lock that client only.
	for i := range 10 {
		apitest.Expect{Status: 401}.Check(t, get(proxyPeer, clientA, "guess-"+strconv.Itoa(i)))
	}
	locked("30").Check(t, get(proxyPeer, clientA, token))
	apitest.Expect{Status: 200}.Check(t, get(proxyPeer, clientB, token))
}
