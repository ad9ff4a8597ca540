package cloudsvc

import (
	"errors"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// ConsoleLabel is the label of the access tokens the appliance's web console signs users in
// with (the label an OAuth token otherwise takes from its client).
const ConsoleLabel = "pocketforge web console"

// consoleClient is the web console as the login server's grant names it: no registered client
// (no id, no secret, nothing in the store), because the console is the appliance itself, not an
// application acting for the user. Its tokens are filed under no client, so no client's
// revocation or deletion reaches them; SignOut ends them.
var consoleClient = cloudstore.Client{Label: ConsoleLabel}

// SignIn signs username in to the web console with password from ip. It is the login server's
// own sign-in (Authorize): the same password check, the same throttle (ErrLoginFailed for a
// wrong username or password, a *ratelimit.LockedError while the username or ip is locked), the
// same login record; what it issues is an access token with every scope, living
// cloudstore.OAuthTokenLifetime like any OAuth token, as the implicit flow would. The console
// keeps it on the server and authenticates each page with it (Authenticate), exactly as the API
// authenticates each request, so the user's grants limit what the pages show and a deleted
// user's session ends at once.
func (s *Service) SignIn(username, password, ip string) (access string, err error) {
	_, access, err = s.Authorize(username, password, ip,
		AuthGrant{Client: consoleClient, Implicit: true, Scopes: cloudstore.AllScopes})
	return access, err
}

// SignOut ends a console token (SignIn's) at once. An unknown or ended token is not an error,
// and a token that is not a console token (a PAT, another client's) is left alone: the console
// only ever holds its own.
func (s *Service) SignOut(access string) error {
	return s.db.Write(func(tx kv.Tx) error {
		t, err := cloudstore.TokenByPlain(tx, access)
		if errors.Is(err, store.ErrNotFound) || err == nil && (t.Kind != cloudstore.KindOAuth || t.ClientID != "") {
			return nil
		}
		if err != nil {
			return err
		}
		return cloudstore.RevokeToken(tx, t)
	})
}
