package consoleweb

import (
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// guard is what the API endpoint a page mirrors asks of its caller: the scope area and level
// and who may call it (api/cloudapi's route table, which this package may not import). The
// rule itself is the domain's (cloudsvc.Caller.Allows); a page only names the endpoint's
// needs, so a restricted user is refused a page exactly when the API refuses them its data.
type guard struct {
	area, level string
	who         cloudsvc.Who
}

// The guards of the console's pages, each the one of the endpoint it reads or writes.
var (
	readAccount    = guard{"account", cloudstore.ReadOnly, cloudsvc.AccountGrant}        // GET /account, /account/invoices, /account/payments, /account/oauth-clients
	readUsers      = guard{"account", cloudstore.ReadOnly, cloudsvc.UnrestrictedOnly}    // GET /account/users, …/grants
	writeUsers     = guard{"account", cloudstore.ReadWrite, cloudsvc.UnrestrictedOnly}   // POST /account/users
	readTokens     = guard{"account", cloudstore.ReadOnly, cloudsvc.AnyUser}             // GET /profile/tokens
	writeTokens    = guard{"account", cloudstore.ReadWrite, cloudsvc.AnyUser}            // POST /profile/tokens
	readTransfers  = guard{"account", cloudstore.ReadOnly, cloudsvc.UnrestrictedOnly}    // GET /account/service-transfers
	readEvents     = guard{"events", cloudstore.ReadOnly, cloudsvc.AnyUser}              // GET /account/events
	readDatabases  = guard{"databases", cloudstore.ReadOnly, cloudsvc.AnyUser}           // GET /databases/…/instances, …/credentials
	resetDatabases = guard{"databases", cloudstore.ReadWrite, cloudsvc.UnrestrictedOnly} // POST …/credentials/reset
)

// errUnauthorized is the API's refusal (403 "Unauthorized"), as a page.
var errUnauthorized = fault.Forbidden("", "Unauthorized: your user's grants do not allow this.")

// check refuses who what g does not allow.
func (g guard) check(who *cloudsvc.Caller) error {
	if !who.Allows(g.area, g.level, g.who) {
		return errUnauthorized
	}
	return nil
}

// top is what every signed-in page shows above its content: who is signed in and which tab is
// open. Every page's data embeds it.
type top struct {
	User cloudstore.User
	Tab  string
}

// tabs are the console's tabs in their order: path under /console and name.
var tabs = []struct{ Path, Name string }{
	{"account", "Account"}, {"users", "Users"}, {"tokens", "Tokens"}, {"oauth-clients", "OAuth clients"},
	{"databases", "Databases"}, {"events", "Events"}, {"billing", "Billing"}, {"transfers", "Transfers"},
}

// Tabs lists the console's tabs for the page's navigation.
func (top) Tabs() []struct{ Path, Name string } { return tabs }

// newTop is the top of a page of tab for who.
func newTop(who *cloudsvc.Caller, tab string) top { return top{User: who.User, Tab: tab} }
