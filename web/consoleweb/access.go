package consoleweb

import (
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// errUnauthorized is the API's refusal (403 "Unauthorized"), worded for a page.
var errUnauthorized = fault.Forbidden("", "Unauthorized: your user's grants do not allow this.")

// allow refuses who a page whose API endpoint needs n. The need and the rule are the domain's
// (cloudsvc.NeedXxx, Need.Check), the same the API's route checks, so a restricted user is
// refused a page exactly when the API refuses them its data; only the words are the page's.
func allow(n cloudsvc.Need, who *cloudsvc.Caller) error {
	if n.Check(who) != nil {
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
