package cloudsvc_test

import (
	"errors"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// TestAuthenticateExpiry: a token expires by the clock alone, though its caller is cached; an
// unknown token is refused alike.
func TestAuthenticateExpiry(t *testing.T) {
	w := newWorld(t)
	until := start.Add(time.Hour)
	_, plain, err := w.svc.CreatePAT(w.user("demo"), "*", cloudstore.NewPAT{Label: "short", Expiry: &until})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.svc.Authenticate(plain); err != nil {
		t.Fatalf("before expiry: %v", err)
	}
	w.clk.Set(until)
	if _, err := w.svc.Authenticate(plain); !errors.Is(err, cloudstore.ErrBadToken) {
		t.Errorf("at expiry: %v, want ErrBadToken", err)
	}
	if _, err := w.svc.Authenticate("no-such-token"); !errors.Is(err, cloudstore.ErrBadToken) {
		t.Errorf("unknown: %v, want ErrBadToken", err)
	}
}

// TestCallerAllows: the token's scopes bound everyone; a restricted user is further bound by
// who may call and their account grant (carol's is read_only).
func TestCallerAllows(t *testing.T) {
	w := newWorld(t)
	demo, carol := w.user("demo"), w.user("carol")
	cases := []struct {
		name        string
		user        cloudstore.User
		scopes      string
		area, level string
		who         cloudsvc.Who
		want        bool
	}{
		{"all scopes", demo, "*", "account", cloudstore.ReadWrite, cloudsvc.UnrestrictedOnly, true},
		{"scope too low", demo, "account:read_only", "account", cloudstore.ReadWrite, cloudsvc.AnyUser, false},
		{"scope of another area", demo, "events:read_write", "account", cloudstore.ReadOnly, cloudsvc.AnyUser, false},
		{"any token for the profile", demo, "events:read_only", "", cloudstore.ReadWrite, cloudsvc.AnyUser, true},
		{"restricted, unrestricted only", carol, "*", "account", cloudstore.ReadOnly, cloudsvc.UnrestrictedOnly, false},
		{"restricted, read with a read_only grant", carol, "*", "account", cloudstore.ReadOnly, cloudsvc.AccountGrant, true},
		{"restricted, write with a read_only grant", carol, "*", "account", cloudstore.ReadWrite, cloudsvc.AccountGrant, false},
		{"restricted, any user", carol, "*", "databases", cloudstore.ReadWrite, cloudsvc.AnyUser, true},
		{"restricted, scopes still bound", carol, "account:read_only", "databases", cloudstore.ReadOnly, cloudsvc.AnyUser, false},
	}
	for _, c := range cases {
		cl := &cloudsvc.Caller{Token: cloudstore.Token{Scopes: c.scopes}, User: c.user}
		if got := cl.Allows(c.area, c.level, c.who); got != c.want {
			t.Errorf("%s: Allows = %v", c.name, got)
		}
	}
}
