package cloudsvc_test

import (
	"errors"
	"testing"

	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// TestCreatePATNarrowing: a token mints only tokens within its own scopes, so a narrow token
// handed to a script cannot be traded for a wide one; a refusal stores nothing.
func TestCreatePATNarrowing(t *testing.T) {
	cases := []struct {
		name, have string
		want       *string // nil: all scopes
		ok         bool
	}{
		{name: "all scopes mint anything", have: "*", want: ptr("account:read_write"), ok: true},
		{name: "all scopes mint all", have: "*", ok: true},
		{name: "a lower level", have: "account:read_write", want: ptr("account:read_only"), ok: true},
		{name: "a subset", have: "account:read_write events:read_only", want: ptr("account:read_only events:read_only"), ok: true},
		{name: "a higher level", have: "account:read_only", want: ptr("account:read_write")},
		{name: "all scopes from a narrow token", have: "account:read_only"},
		{name: "another area", have: "account:read_write events:read_only", want: ptr("events:read_write")},
		{name: "one scope too many", have: "account:read_write", want: ptr("account:read_write databases:read_only")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			demo := w.user("demo")
			mine, err := w.svc.OwnTokens("demo")
			if err != nil {
				t.Fatal(err)
			}
			events := count(w.actions(demo.AccountID), "token_create")
			tok, plain, err := w.svc.CreatePAT(demo, c.have, cloudstore.NewPAT{Label: "script", Scopes: c.want})
			after, _ := w.svc.OwnTokens("demo")
			if !c.ok {
				if !errors.Is(err, store.ErrInvalid) || fault.Field(err) != "scopes" {
					t.Fatalf("err %v (field %q), want invalid scopes", err, fault.Field(err))
				}
				if len(after) != len(mine) || count(w.actions(demo.AccountID), "token_create") != events {
					t.Error("a refused token was stored or recorded")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(after) != len(mine)+1 || count(w.actions(demo.AccountID), "token_create") != events+1 {
				t.Errorf("tokens %d → %d, events %d → %d", len(mine), len(after), events, count(w.actions(demo.AccountID), "token_create"))
			}
			cl, err := w.svc.Authenticate(plain)
			if err != nil || cl.Token.ID != tok.ID || cl.User.Username != "demo" {
				t.Errorf("the new token authenticates as %+v, %v", cl, err)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }
