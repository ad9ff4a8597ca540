package cloudsvc_test

import (
	"errors"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// TestConsoleSignIn: the console's sign-in is the login server's (a wrong password fails and
// counts towards the lock), its token authenticates as the user with every scope for two
// hours, is not among the user's personal access tokens, and SignOut ends it (and nothing
// that is not a console token).
func TestConsoleSignIn(t *testing.T) {
	w := newWorld(t)
	if _, err := w.svc.SignIn("carol", "guess", "10.0.0.1"); !errors.Is(err, cloudsvc.ErrLoginFailed) {
		t.Fatalf("a wrong password: %v", err)
	}
	token, err := w.svc.SignIn("carol", "carol-password", "10.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	who, err := w.svc.Authenticate(token)
	if err != nil || who.User.Username != "carol" || who.Token.Scopes != cloudstore.AllScopes || who.Token.Label != cloudsvc.ConsoleLabel {
		t.Fatalf("authenticate: %v %+v", err, who)
	}
	if exp := who.Token.Expiry; exp == nil || !exp.Equal(w.clk.Now().Add(2*time.Hour)) {
		t.Fatalf("expiry %v", exp)
	}
	pats, err := w.svc.OwnTokens("carol")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pats {
		if p.Label == cloudsvc.ConsoleLabel {
			t.Fatal("the console token is listed among the personal access tokens")
		}
	}
	if err := w.svc.SignOut("pfdemo-carol-0000000000000000000000000000000000000000000000000000"); err != nil {
		t.Fatal(err)
	}
	if _, err := w.svc.Authenticate("pfdemo-carol-0000000000000000000000000000000000000000000000000000"); err != nil {
		t.Fatal("SignOut ended a personal access token")
	}
	if err := w.svc.SignOut(token); err != nil {
		t.Fatal(err)
	}
	if _, err := w.svc.Authenticate(token); err == nil {
		t.Fatal("the token works after SignOut")
	}
	if err := w.svc.SignOut(token); err != nil {
		t.Fatalf("a second SignOut: %v", err)
	}
}
