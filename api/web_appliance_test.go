package api

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

// TestAppliancePageSharesTheThrottle: the appliance page's sign-in and /_appliance count wrong
// tokens in one throttle (one appliancesvc.Service): ten wrong bearer tokens lock the address
// for the page's form too, while another address signs in; the page's views are not journaled.
func TestAppliancePageSharesTheThrottle(t *testing.T) {
	e := newPeerEnv(t, nil)
	const guesser, operator, csrf = "203.0.113.9", "203.0.113.10", "0123456789abcdef0123456789abcdef"
	for i := range 10 {
		r := e.send(t, guesser, "", "GET", "/_appliance/clock", map[string]string{"Authorization": "Bearer guess"}, "")
		if r.Status != 401 {
			t.Fatalf("guess %d: %d", i+1, r.Status)
		}
	}
	signIn := func(peer string) *http.Response {
		t.Helper()
		form := url.Values{"token": {token}, "csrf": {csrf}}
		req, _ := http.NewRequest("POST", "http://appliance.test/appliance/signin", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Cookie", "pf_csrf="+csrf)
		cl := apitest.PeerClient(e.ln, peer)
		cl.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		defer cl.CloseIdleConnections()
		resp, err := cl.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	if r := signIn(guesser); r.StatusCode != http.StatusTooManyRequests || r.Header.Get("Retry-After") != "30" {
		t.Fatalf("locked address signing in on the page: %d, Retry-After %q", r.StatusCode, r.Header.Get("Retry-After"))
	}
	if r := signIn(operator); r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/appliance" {
		t.Fatalf("operator signing in on the page: %d %q", r.StatusCode, r.Header.Get("Location"))
	}
	apitest.Expect{Status: 200, Contains: []string{`id="values-form"`}}.Check(t, e.send(t, operator, "", "GET", "/values", nil, ""))
	r := e.send(t, operator, "", "GET", "/_appliance/requests?path=/appliance", map[string]string{"Authorization": "Bearer " + token}, "")
	apitest.Expect{Status: 200, Contains: []string{`"count":0`}}.Check(t, r)
}
