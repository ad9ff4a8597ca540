// Package consoleweb is the cloud console of the web interface: a cloud user signs in with
// their username and password (the login server's own sign-in, see signin.go) and then reads
// their account through the same cloud domain functions, with the same identity and grants, as
// the cloud API: what the API would refuse them is a page with the API's status (403, 404).
// A few writes a console user expects go through the domain functions the API's handlers call.
//
// Routes (all under /console, every POST checked by web.CheckCSRF; every page but the sign-in
// page needs a session and redirects to it otherwise):
//
//	GET  /console                                   the account record (also /console/account)
//	GET  /console/signin                            the sign-in form
//	POST /console/signin                            sign in (username, password, next)
//	POST /console/signout                           sign out (ends the session's token)
//	GET  /console/users                             the account's users (unrestricted only)
//	POST /console/users                             create a user (username, email, restricted)
//	GET  /console/users/:username                   one user and their grants
//	POST /console/users/:username/delete            delete them (after a confirm step)
//	POST /console/users/:username/grants            change a restricted user's grants
//	GET  /console/tokens                            the user's personal access tokens
//	POST /console/tokens                            create one (label, scopes, expiry_days); its secret is shown once
//	GET  /console/oauth-clients                     the account's OAuth clients
//	POST /console/oauth-clients                     register one (label, redirect_uri, public); its secret is shown once
//	GET  /console/databases                         the managed databases the user may see
//	POST /console/databases                         create one (label, engine, region, type, cluster_size, allow_list)
//	GET  /console/databases/:family/:id             one database
//	POST /console/databases/:family/:id/credentials        reveal its root credentials (after a confirm step)
//	POST /console/databases/:family/:id/credentials/reset  reset them (after a confirm step)
//	GET  /console/databases/:family/:id/ca.pem      its CA certificate
//	POST /console/databases/:family/:id/resize      resize it (type, cluster_size)
//	POST /console/databases/:family/:id/backups     back it up now (label)
//	POST /console/databases/:family/:id/backups/:backup/restore  restore a backup (after a confirm step)
//	GET  /console/events                            the events the user may see (paged)
//	GET  /console/billing                           invoices and payments
//	GET  /console/transfers                         service and entity transfers (unrestricted only)
//	POST /console/transfers/review                  a transfer by its token, before accepting it
//	POST /console/transfers/accept                  accept it
package consoleweb

import (
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/web"
)

// Deps is what the console works on.
type Deps struct {
	Site  *web.Site
	Cloud *cloudsvc.Service
	// ClientIP names the client of a request as the login server's throttle counts it (the
	// API's reading of --trusted-proxies); nil: the peer address.
	ClientIP func(*fiber.Ctx) string
	// Secure marks the session cookie Secure even on plain HTTP (behind a TLS-terminating
	// proxy); a request that arrives over HTTPS always gets it.
	Secure bool
	// AcceptLimit counts a transfer accept of the session's token against the API's per-token
	// limit of the accept route (cloudapi.TransferAcceptLimit) and answers how long to wait when
	// it is spent (0: go ahead); nil: no limit.
	AcceptLimit func(tokenID uint64) time.Duration
}

// console carries Deps and the sessions to the handlers.
type console struct {
	Deps
	sessions *sessions
}

// Bind registers the console's routes on app, in a group behind web.CheckCSRF.
func Bind(app fiber.Router, d Deps) {
	if d.ClientIP == nil {
		d.ClientIP = func(c *fiber.Ctx) string { return c.IP() }
	}
	con := &console{Deps: d, sessions: newSessions(d.Cloud.Now)}
	g := app.Group("/console", web.CheckCSRF)
	g.Get("/signin", con.signinPage)
	g.Post("/signin", con.signin)
	g.Post("/signout", con.signout)
	in := func(h handler) fiber.Handler { return con.signedIn(h) }
	g.Get("/", in(con.account))
	g.Get("/account", in(con.account))
	g.Get("/users", in(con.users))
	g.Post("/users", in(con.createUser))
	g.Get("/users/:username", in(con.user))
	g.Post("/users/:username/delete", in(con.deleteUser))
	g.Post("/users/:username/grants", in(con.saveGrants))
	g.Get("/tokens", in(con.tokens))
	g.Post("/tokens", in(con.createToken))
	g.Get("/oauth-clients", in(con.clients))
	g.Post("/oauth-clients", in(con.createClient))
	g.Get("/databases", in(con.databases))
	g.Post("/databases", in(con.createDatabase))
	g.Get("/databases/:family/:id", in(con.database))
	g.Post("/databases/:family/:id/credentials", in(con.revealCredentials))
	g.Post("/databases/:family/:id/credentials/reset", in(con.resetCredentials))
	g.Get("/databases/:family/:id/ca.pem", in(con.databaseCA))
	g.Post("/databases/:family/:id/backups", in(con.backUp))
	g.Post("/databases/:family/:id/resize", in(con.resizeDatabase))
	g.Post("/databases/:family/:id/backups/:backup/restore", in(con.restoreBackup))
	g.Get("/events", in(con.events))
	g.Get("/billing", in(con.billing))
	g.Get("/transfers", in(con.transfers))
	g.Post("/transfers/review", in(con.reviewTransfer))
	g.Post("/transfers/accept", in(con.acceptTransfer))
}

// render draws a console page with title in the frame's title.
func (con *console) render(c *fiber.Ctx, status int, title string, page web.Page) error {
	return con.Site.Render(c, status, title, web.SectionConsole, page)
}
