package consoleweb

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
	"github.com/pocketforge/pocketforge/web"
)

// TestSignIn: no session is sent to the sign-in page (with the page to come back to); a wrong
// password is the form again (401) with no session; the right one starts a session in an
// HttpOnly cookie and leads to the page asked for; sign-out ends it.
func TestSignIn(t *testing.T) {
	e := newEnv(t)
	b := e.browser(t)
	r := b.get("/console/users?page=2")
	expect(t, r, http.StatusSeeOther, nil)
	if loc := r.Header.Get("Location"); loc != "/console/signin?next="+url.QueryEscape("/console/users?page=2") {
		t.Fatalf("redirect to %q", loc)
	}
	expect(t, b.get("/console"), http.StatusSeeOther, nil)
	r = b.post("/console/tokens", url.Values{"label": {"x"}}) // a form with its CSRF token, but no session
	expect(t, r, http.StatusSeeOther, nil)
	if loc := r.Header.Get("Location"); loc != "/console/signin" {
		t.Fatalf("a POST without a session to %q", loc)
	}
	expect(t, b.get("/console/signin?next=/console/users"), http.StatusOK,
		[]string{`id="signin-form"`, `name="csrf"`, `for="username"`, `for="password"`, `value="/console/users"`})

	r = b.post("/console/signin", url.Values{"username": {"demo"}, "password": {"wrong"}})
	expect(t, r, http.StatusUnauthorized, []string{"Invalid username or password.", `value="demo"`})
	if b.cookies[sessionCookie] != "" {
		t.Fatal("a failed sign-in set a session")
	}

	r = b.post("/console/signin", url.Values{"username": {"demo"}, "password": {demoPassword}, "next": {"/console/users"}})
	expect(t, r, http.StatusSeeOther, nil)
	if loc := r.Header.Get("Location"); loc != "/console/users" {
		t.Fatalf("after sign-in to %q", loc)
	}
	sc := strings.Join(r.Header.Values("Set-Cookie"), "\n")
	if !strings.Contains(sc, sessionCookie+"=") || !strings.Contains(sc, "HttpOnly") || !strings.Contains(strings.ToLower(sc), "samesite=lax") {
		t.Fatalf("session cookie %q", sc)
	}
	expect(t, b.get("/console/users"), http.StatusOK, []string{`data-testid="console-user">demo<`})
	expect(t, b.get("/console/signin"), http.StatusSeeOther, nil) // signed in already

	expect(t, b.post("/console/signout", nil), http.StatusSeeOther, nil)
	expect(t, b.get("/console/users"), http.StatusSeeOther, nil)
}

// TestSignInOpenRedirect: next may only name a console page.
func TestSignInOpenRedirect(t *testing.T) {
	e := newEnv(t)
	for _, next := range []string{"https://evil.test/", "//evil.test/console", "/consolex", "/console\\@evil"} {
		b := e.browser(t)
		r := b.post("/console/signin", url.Values{"username": {"demo"}, "password": {demoPassword}, "next": {next}})
		if loc := r.Header.Get("Location"); r.Status != http.StatusSeeOther || loc != "/console" {
			t.Errorf("next %q: %d to %q", next, r.Status, loc)
		}
	}
}

// TestSignInLock: the login server's lockout applies to the console's sign-in (429 after five
// wrong passwords, even for the right one).
func TestSignInLock(t *testing.T) {
	e := newEnv(t)
	b := e.browser(t)
	for range 5 {
		b.post("/console/signin", url.Values{"username": {"carol"}, "password": {"guess"}})
	}
	r := b.post("/console/signin", url.Values{"username": {"carol"}, "password": {carolPassword}})
	expect(t, r, http.StatusTooManyRequests, []string{`id="signin-error"`})
	if r.Header.Get("Retry-After") == "" {
		t.Error("no Retry-After")
	}
}

// TestSessionEndsWithToken: a session lives as long as its token (two hours by the appliance's
// clock), and a deleted user's session ends at their next page.
func TestSessionEndsWithToken(t *testing.T) {
	e := newEnv(t)
	b := e.browser(t)
	b.signIn("demo", demoPassword)
	expect(t, b.get("/console/account"), http.StatusOK, nil)
	e.clock.Advance(2*time.Hour + time.Second)
	expect(t, b.get("/console/account"), http.StatusSeeOther, nil)
	if b.cookies[sessionCookie] != "" {
		t.Error("the ended session's cookie was not cleared")
	}

	e.clock.Set(start)
	b.signIn("demo", demoPassword)
	carol := e.browser(t)
	carol.signIn("carol", carolPassword)
	owner, err := e.cloud.Authenticate(e.token(t, "demo"))
	if err != nil {
		t.Fatal(err)
	}
	if err := e.cloud.DeleteUser(owner.User, "carol"); err != nil {
		t.Fatal(err)
	}
	expect(t, carol.get("/console/account"), http.StatusSeeOther, nil)
}

// TestViews: each page signed in as the demo owner, with its key content.
func TestViews(t *testing.T) {
	e := newEnv(t)
	b := e.browser(t)
	b.signIn("demo", demoPassword)
	orders := e.database(t, "orders-sql")
	cases := []struct {
		path string
		want []string
	}{
		{"/console", []string{"<h1>Account</h1>", "Pocket Demo Inc.", "Philadelphia", `data-testid="account-balance"`, "ending 4242", `aria-current="page">Account<`}},
		{"/console/account", []string{"Dana Demo", "billing@demo.pocketforge.test"}},
		{"/console/users", []string{`href="/console/users/carol"`, "carol@demo.pocketforge.test", `id="create-user"`, `name="csrf"`, `for="new-username"`}},
		{"/console/users/carol", []string{"<h1>User carol</h1>", `<select id="g-account_access" name="g:account_access"><option value="none">none</option><option value="read_only" selected>`, "web-1", "read_write", `data-testid="grants-instance"`}},
		{"/console/users/demo", []string{`id="grants-unrestricted"`}},
		{"/console/tokens", []string{`id="create-token"`, `for="token-label"`, "No tokens."}},
		{"/console/oauth-clients", []string{"Pocket CLI", "5c0c4e7f1d2a3b4c5d6e", "http://localhost:8000/callback", "private"}},
		{"/console/databases", []string{"orders-sql", "catalog-doc", "legacy-sql", "reports-pg", `data-status="degraded"`, `data-status="provisioning"`}},
		{"/console/databases/sqldb/" + strconv.FormatUint(orders.ID, 10), []string{"<h1>Database orders-sql</h1>", "203.0.113.0/24", `id="reveal-credentials"`, `id="reset-credentials"`}},
		{"/console/events", []string{"<h1>Events</h1>", "The last 90 days"}},
		{"/console/billing", []string{`id="invoices"`, `id="payments"`}},
		{"/console/transfers", []string{`id="transfers"`}},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			r := b.get(c.path)
			expect(t, r, http.StatusOK, c.want)
			if r.Header.Get("Cache-Control") != "no-store" {
				t.Errorf("Cache-Control %q", r.Header.Get("Cache-Control"))
			}
			if len(r.Body) > 100<<10 {
				t.Errorf("page of %d bytes", len(r.Body))
			}
		})
	}
	expect(t, b.get("/console/users/nobody"), http.StatusNotFound, []string{"Page not found"})
	expect(t, b.get("/console/databases/sqldb/999999"), http.StatusNotFound, nil)
	expect(t, b.get("/console/databases/sqldb/x"), http.StatusNotFound, nil)
}

// TestRestrictedViews: carol (restricted, account_access read_only, a read_only grant on one
// database) sees what the API shows her, and is refused what it refuses her.
func TestRestrictedViews(t *testing.T) {
	e := newEnv(t)
	b := e.browser(t)
	b.signIn("carol", carolPassword)
	orders, catalog := e.database(t, "orders-sql"), e.database(t, "catalog-doc")
	expect(t, b.get("/console/account"), http.StatusOK, []string{"Pocket Demo Inc.", "(restricted)"})
	expect(t, b.get("/console/oauth-clients"), http.StatusOK, []string{"Pocket CLI"})
	expect(t, b.get("/console/billing"), http.StatusOK, nil)
	expect(t, b.get("/console/tokens"), http.StatusOK, []string{"carol demo token", "pfdemo-carol-000"}, "pfdemo-carol-0000000000000000000000")
	expect(t, b.get("/console/databases"), http.StatusOK, []string{"catalog-doc"}, "orders-sql", "legacy-sql")
	docPath := "/console/databases/docdb/" + strconv.FormatUint(catalog.ID, 10)
	expect(t, b.get(docPath), http.StatusOK, []string{`id="reveal-credentials"`}, `id="reset-credentials"`)
	expect(t, b.get("/console/databases/sqldb/"+strconv.FormatUint(orders.ID, 10)), http.StatusNotFound, nil)
	expect(t, b.get("/console/events"), http.StatusOK, nil)
	for _, path := range []string{"/console/users", "/console/users/demo", "/console/transfers"} {
		expect(t, b.get(path), http.StatusForbidden, []string{"Unauthorized"})
	}
	expect(t, b.post("/console/users", url.Values{"username": {"mallory"}, "email": {"m@demo.pocketforge.test"}}), http.StatusForbidden, nil)
	expect(t, b.post(docPath+"/credentials/reset", url.Values{"confirm": {"yes"}}), http.StatusForbidden, nil)
	// A read_only grant reveals credentials, as the API's credentials view allows.
	expect(t, b.post(docPath+"/credentials", url.Values{"confirm": {"yes"}}), http.StatusOK, []string{`data-testid="db-password"`})
}

// TestCreateToken: the secret is on the answer to the POST and nowhere after; a bad input is
// the form again with the domain's reason.
func TestCreateToken(t *testing.T) {
	e := newEnv(t)
	b := e.browser(t)
	b.signIn("demo", demoPassword)
	r := b.post("/console/tokens", url.Values{"label": {"ci <script>alert(1)</script>"}, "scopes": {"account:read_only"}, "expiry_days": {"30"}})
	expect(t, r, http.StatusOK, []string{`id="new-token"`, "ci &lt;script&gt;alert(1)&lt;/script&gt;", "account:read_only"}, "<script>alert")
	m := regexp.MustCompile(`data-testid="token-secret">([^<]+)<`).FindStringSubmatch(r.Body)
	if m == nil {
		t.Fatalf("no secret on the page:\n%s", r.Body)
	}
	secret := m[1]
	if who, err := e.cloud.Authenticate(secret); err != nil || who.User.Username != "demo" || who.Token.Scopes != "account:read_only" {
		t.Fatalf("the shown secret: %v %+v", err, who)
	}
	r = b.get("/console/tokens")
	expect(t, r, http.StatusOK, []string{"ci &lt;script&gt;", secret[:16]}, secret, `id="new-token"`)

	expect(t, b.post("/console/tokens", url.Values{"label": {"x"}, "scopes": {"bogus:read_only"}}), http.StatusBadRequest, []string{`id="create-token-error"`, "scopes"})
	expect(t, b.post("/console/tokens", url.Values{"label": {"x"}, "expiry_days": {"-1"}}), http.StatusBadRequest, []string{"expiry_days"})
}

// TestCreateUser: the user is made through the domain (welcome mail, event) and shown; a taken
// name is the form again; a name with markup comes out escaped.
func TestCreateUser(t *testing.T) {
	e := newEnv(t)
	b := e.browser(t)
	b.signIn("demo", demoPassword)
	r := b.post("/console/users", url.Values{"username": {"erin"}, "email": {"erin@demo.pocketforge.test"}, "restricted": {"yes"}})
	expect(t, r, http.StatusSeeOther, nil)
	if loc := r.Header.Get("Location"); loc != "/console/users/erin?created=1" {
		t.Fatalf("to %q", loc)
	}
	expect(t, b.get("/console/users/erin?created=1"), http.StatusOK, []string{`id="user-created"`, "erin@demo.pocketforge.test", `<select id="g-account_access" name="g:account_access"><option value="none" selected>`})
	expect(t, b.get("/console/events"), http.StatusOK, []string{"user_create"})

	r = b.post("/console/users", url.Values{"username": {"erin"}, "email": {"erin@demo.pocketforge.test"}})
	expect(t, r, http.StatusBadRequest, []string{"Username is already taken", `value="erin"`})
	r = b.post("/console/users", url.Values{"username": {"<script>x</script>"}, "email": {`"><b>@x`}})
	expect(t, r, http.StatusBadRequest, []string{"&lt;script&gt;x&lt;/script&gt;", `id="create-user-error"`}, "<script>x", `"><b>`)
}

// TestDatabaseCredentials: reveal asks first, then shows the credentials once; reset asks
// first, then gives a new password the next reveal shows.
func TestDatabaseCredentials(t *testing.T) {
	e := newEnv(t)
	b := e.browser(t)
	b.signIn("demo", demoPassword)
	d := e.database(t, "orders-sql")
	path := "/console/databases/sqldb/" + strconv.FormatUint(d.ID, 10)
	expect(t, b.post(path+"/credentials", nil), http.StatusOK, []string{`id="confirm"`, `name="confirm" value="yes"`}, `data-testid="db-password"`)
	password := func() string {
		r := b.post(path+"/credentials", url.Values{"confirm": {"yes"}})
		expect(t, r, http.StatusOK, []string{`data-testid="db-username"`})
		m := regexp.MustCompile(`data-testid="db-password">([^<]+)<`).FindStringSubmatch(r.Body)
		if m == nil {
			t.Fatalf("no password:\n%s", r.Body)
		}
		return m[1]
	}
	before := password()
	expect(t, b.get(path), http.StatusOK, nil, before)

	expect(t, b.post(path+"/credentials/reset", nil), http.StatusOK, []string{`id="confirm"`, "Reset the root password"})
	if password() != before {
		t.Fatal("the confirm page reset the password")
	}
	r := b.post(path+"/credentials/reset", url.Values{"confirm": {"yes"}})
	expect(t, r, http.StatusSeeOther, nil)
	expect(t, b.get(r.Header.Get("Location")), http.StatusOK, []string{`id="credentials-reset"`})
	if password() == before {
		t.Fatal("the reset kept the password")
	}
	// A database that is not active still shows its credentials (the domain's rule: every
	// status but suspended, issue 33).
	legacy := e.database(t, "legacy-sql")
	r = b.post("/console/databases/sqldb/"+strconv.FormatUint(legacy.ID, 10)+"/credentials", url.Values{"confirm": {"yes"}})
	expect(t, r, http.StatusOK, []string{"linroot"})
}

// TestCSRF: a form post without the csrf field is refused 403 before it does anything, signed
// in or not.
func TestCSRF(t *testing.T) {
	e := newEnv(t)
	b := e.browser(t)
	b.signIn("demo", demoPassword)
	for _, path := range []string{"/console/tokens", "/console/users", "/console/signin", "/console/signout"} {
		r := b.do(http.MethodPost, path, url.Values{"label": {"x"}, "username": {"zed"}, "email": {"z@x.test"}})
		expect(t, r, http.StatusForbidden, []string{"did not come from this site"})
	}
	expect(t, b.get("/console/users"), http.StatusOK, nil, "zed") // still signed in, nothing made
	// Issue 32: a token an attacker planted in the pf_csrf cookie (and so knows) is worth
	// nothing once the browser is signed in: the forms' token is derived from the session.
	b.cookies["pf_csrf"] = "0123456789abcdef0123456789abcdef"
	form := url.Values{"label": {"planted"}, "scopes": {"*"}, "csrf": {"0123456789abcdef0123456789abcdef"}}
	expect(t, b.do(http.MethodPost, "/console/tokens", form), http.StatusForbidden, []string{"did not come from this site"})
	expect(t, b.get("/console/tokens"), http.StatusOK, []string{`name="csrf" value="` + web.FormToken(sessionCookie, b.cookies[sessionCookie])}, "planted")
}

// TestCreateOAuthClient (issue 37): a client registered from the console is the domain's (its
// secret, shown once on the answer, is the one the login server takes); a bad redirect URI is
// the form again with the domain's reason.
func TestCreateOAuthClient(t *testing.T) {
	e := newEnv(t)
	b := e.browser(t)
	b.signIn("demo", demoPassword)
	expect(t, b.get("/console/oauth-clients"), http.StatusOK, []string{`id="client-form"`, `for="client-redirect"`})
	r := b.post("/console/oauth-clients", url.Values{"label": {"ci-app"}, "redirect_uri": {"https://ci.example/callback"}})
	expect(t, r, http.StatusOK, []string{`id="new-client"`, "Client ci-app registered"})
	id := regexp.MustCompile(`data-testid="client-id">([^<]+)<`).FindStringSubmatch(r.Body)
	secret := regexp.MustCompile(`data-testid="client-secret">([^<]+)<`).FindStringSubmatch(r.Body)
	if id == nil || secret == nil {
		t.Fatalf("no id or secret on the page:\n%s", r.Body)
	}
	cl, err := e.cloud.Client(id[1])
	if err != nil || cl.Label != "ci-app" || cl.RedirectURI != "https://ci.example/callback" || !bytes.Equal(cl.SecretHash, cloudstore.HashToken(secret[1])) {
		t.Fatalf("the registered client: %+v %v", cl, err)
	}
	expect(t, b.get("/console/oauth-clients"), http.StatusOK, []string{"ci-app"}, secret[1], `id="new-client"`)
	expect(t, b.post("/console/oauth-clients", url.Values{"label": {"x"}, "redirect_uri": {"not a url"}}), http.StatusBadRequest,
		[]string{`id="create-client-error"`, "redirect_uri"})
}

// TestDeleteUser (issue 37): a user is deleted from the console after a confirm step, through the
// domain (they are gone from the list); one's own user has no button and is refused as the API
// refuses it.
func TestDeleteUser(t *testing.T) {
	e := newEnv(t)
	b := e.browser(t)
	b.signIn("demo", demoPassword)
	expect(t, b.get("/console/users/carol"), http.StatusOK, []string{`id="delete-user"`})
	expect(t, b.post("/console/users/carol/delete", url.Values{}), http.StatusOK, []string{`id="confirm"`, "Delete carol?"})
	r := b.post("/console/users/carol/delete", url.Values{"confirm": {"yes"}})
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/console/users?deleted=carol" {
		t.Fatalf("the delete: %d %s", r.Status, r.Header.Get("Location"))
	}
	expect(t, b.get("/console/users?deleted=carol"), http.StatusOK, []string{`id="user-deleted"`}, `href="/console/users/carol"`)
	expect(t, b.get("/console/users/carol"), http.StatusNotFound, nil)
	expect(t, b.get("/console/users/demo"), http.StatusOK, nil, `id="delete-user"`)
	expect(t, b.post("/console/users/demo/delete", url.Values{"confirm": {"yes"}}), http.StatusBadRequest,
		[]string{`id="user-error"`, "You cannot delete your own user"})
}

// TestCreateAndResizeDatabase (issue 37): a database created from the console's form is the
// domain's (provisioning, its page next); a refused input is the form again with the domain's
// reasons; an active database resizes from its page (resizing), and a resize that changes
// nothing is refused.
func TestCreateAndResizeDatabase(t *testing.T) {
	e := newEnv(t)
	b := e.browser(t)
	b.signIn("demo", demoPassword)
	expect(t, b.get("/console/databases"), http.StatusOK, []string{`id="database-form"`, `<option value="mysql/8.0.26"`, `<option value="us-east"`, `<option value="g6-nanode-1"`})
	r := b.post("/console/databases", url.Values{"label": {"from-console"}, "engine": {"mysql/8.0.26"}, "region": {"us-east"},
		"type": {"g6-nanode-1"}, "cluster_size": {"1"}, "allow_list": {"203.0.113.9, 127.0.0.1"}})
	if r.Status != http.StatusSeeOther || !strings.HasPrefix(r.Header.Get("Location"), "/console/databases/sqldb/") {
		t.Fatalf("create: %d %s\n%s", r.Status, r.Header.Get("Location"), r.Body)
	}
	expect(t, b.get(r.Header.Get("Location")), http.StatusOK, []string{"<h1>Database from-console</h1>", "provisioning", "203.0.113.9/32"})
	expect(t, b.post("/console/databases", url.Values{"label": {"x"}, "engine": {"mysql/8.0.26"}, "region": {"mars-1"}, "type": {"g6-nanode-1"}}),
		http.StatusBadRequest, []string{`id="create-database-error"`, "region"})

	orders := "/console/databases/sqldb/" + strconv.FormatUint(e.database(t, "orders-sql").ID, 10)
	expect(t, b.get(orders), http.StatusOK, []string{`id="resize-form"`, `<option value="g6-dedicated-2" selected>`})
	expect(t, b.post(orders+"/resize", url.Values{"type": {"g6-dedicated-2"}, "cluster_size": {"3"}}), http.StatusBadRequest,
		[]string{`id="database-error"`, "Choose another type"})
	r = b.post(orders+"/resize", url.Values{"type": {"g6-dedicated-4"}, "cluster_size": {"3"}})
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != orders+"?done=resize" {
		t.Fatalf("resize: %d %s\n%s", r.Status, r.Header.Get("Location"), r.Body)
	}
	expect(t, b.get(orders+"?done=resize"), http.StatusOK, []string{`id="resize-started"`, `data-testid="database-status">resizing`})
}

// TestEditGrants (issue 37): a restricted user's grants are a form on their page for an
// unrestricted user; what it sends is the domain's (GET …/grants shows it), including an entity
// permission taken away; a bad value is the page again with the domain's reason; the user's own
// session sees no form.
func TestEditGrants(t *testing.T) {
	e := newEnv(t)
	b := e.browser(t)
	b.signIn("demo", demoPassword)
	page := b.get("/console/users/carol")
	expect(t, page, http.StatusOK, []string{`id="grants-form"`, `name="g:account_access"`, `<option value="read_only" selected>`, `name="g:add_databases"`})
	web1 := regexp.MustCompile(`name="perm:instance:(\d+)" aria-label="instance web-1"`).FindStringSubmatch(page.Body)
	if web1 == nil {
		t.Fatalf("no select for web-1:\n%s", page.Body)
	}
	r := b.post("/console/users/carol/grants", url.Values{"g:account_access": {"read_write"}, "g:add_databases": {"no"}, "g:add_volumes": {"yes"},
		"perm:instance:" + web1[1]: {"none"}})
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/console/users/carol?saved=1" {
		t.Fatalf("save: %d %s\n%s", r.Status, r.Header.Get("Location"), r.Body)
	}
	u, _, err := e.cloud.Grants(e.database(t, "orders-sql").AccountID, "carol")
	if err != nil {
		t.Fatal(err)
	}
	id, _ := strconv.ParseUint(web1[1], 10, 64)
	if u.Grants.AccountAccess() != "read_write" || u.Grants.Global.AddDatabases || !u.Grants.Global.AddVolumes || u.Grants.Permission("instance", id) != "" {
		t.Fatalf("carol's grants after the save: %+v", u.Grants)
	}
	expect(t, b.get("/console/users/carol?saved=1"), http.StatusOK, []string{`id="grants-saved"`, `<option value="read_write" selected>`})
	expect(t, b.post("/console/users/carol/grants", url.Values{"g:account_access": {"everything"}}), http.StatusBadRequest,
		[]string{`id="user-error"`, "account_access"})
	expect(t, b.get("/console/users/demo"), http.StatusOK, []string{`id="grants-unrestricted"`}, `id="grants-form"`)
}

// TestAcceptTransfer (issue 37): dave, the partner account's owner, receives the transfer demo
// offered: the token's review shows what it moves, the accept goes through the domain as the
// API's does (the transfer is accepted, the list shows it received), the domain's refusals are
// the page again with their reasons, and the route's per-token limit answers 429 with
// Retry-After once spent.
func TestAcceptTransfer(t *testing.T) {
	e := newEnv(t)
	var worker uint64
	err := e.db.View(func(tx kv.Tx) error {
		acct, err := cloudstore.AccountByName(tx, "demo")
		if err != nil {
			return err
		}
		list, err := cloudstore.AccountInstances(tx, acct.ID)
		for _, in := range list {
			if in.Label == "worker-1" {
				worker = in.ID
			}
		}
		return err
	})
	if err != nil || worker == 0 {
		t.Fatalf("worker-1: %d %v", worker, err)
	}
	demo, err := e.cloud.Authenticate(e.token(t, "demo"))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := e.cloud.CreateTransfer(demo.User, cloudstore.TransferService, []uint64{worker}, nil)
	if err != nil {
		t.Fatal(err)
	}

	b := e.browser(t)
	b.signIn("dave", "dave-password")
	expect(t, b.get("/console/transfers"), http.StatusOK, []string{`id="review-form"`, "No transfers."}, tr.Token)
	expect(t, b.post("/console/transfers/review", url.Values{"token": {"0123456789abcdef"}}), http.StatusNotFound,
		[]string{`id="transfer-error"`, "No transfer your account may see has this token"})
	expect(t, b.post("/console/transfers/review", url.Values{"token": {" "}}), http.StatusBadRequest, []string{`id="transfer-error"`})
	r := b.post("/console/transfers/review", url.Values{"token": {tr.Token}})
	expect(t, r, http.StatusOK, []string{`id="transfer-review"`, `data-testid="review-status">pending<`,
		fmt.Sprintf(`data-testid="review-instances">%d<`, worker), `id="accept-transfer"`, `value="` + tr.Token + `"`})
	r = b.post("/console/transfers/accept", url.Values{"token": {tr.Token}})
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/console/transfers?accepted=1" {
		t.Fatalf("the accept: %d %s %s", r.Status, r.Header.Get("Location"), r.Body)
	}
	if got, err := e.cloud.Transfer(demo.User.AccountID, tr.Token); err != nil || got.Status != cloudstore.TransferAccepted {
		t.Fatalf("the transfer after the accept: %+v %v", got, err)
	}
	expect(t, b.get("/console/transfers?accepted=1"), http.StatusOK, []string{`id="transfer-accepted"`, tr.Token, "received", "accepted"})
	r = b.post("/console/transfers/accept", url.Values{"token": {tr.Token}})
	expect(t, r, http.StatusBadRequest, []string{`id="transfer-error"`, "This transfer has already been accepted"})
	r = b.post("/console/transfers/accept", url.Values{"token": {tr.Token}})
	expect(t, r, http.StatusTooManyRequests, []string{`id="transfer-error"`, "Too many accept attempts"})
	if r.Header.Get("Retry-After") != "30" {
		t.Fatalf("Retry-After %q", r.Header.Get("Retry-After"))
	}

	// The sender reviews its own transfer but has no accept button, and the domain refuses it.
	s := e.browser(t)
	s.signIn("demo", demoPassword)
	expect(t, s.post("/console/transfers/review", url.Values{"token": {tr.Token}}), http.StatusOK, []string{`id="transfer-review"`}, `id="accept-transfer"`)
	// A restricted user may not review or accept (the API's 403).
	c := e.browser(t)
	c.signIn("carol", carolPassword)
	expect(t, c.post("/console/transfers/accept", url.Values{"token": {tr.Token}}), http.StatusForbidden, nil)
}
