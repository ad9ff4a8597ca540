package cloudsvc_test

import (
	"errors"
	"testing"

	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// TestNeedCheck: a need refuses with the API's answer (forbidden, "Unauthorized") whom Allows
// refuses, and lets the others through; carol is restricted with a read_only account grant.
func TestNeedCheck(t *testing.T) {
	w := newWorld(t)
	demo := &cloudsvc.Caller{Token: cloudstore.Token{Scopes: "*"}, User: w.user("demo")}
	carol := &cloudsvc.Caller{Token: cloudstore.Token{Scopes: "*"}, User: w.user("carol")}
	if err := cloudsvc.NeedCreateUser.Check(demo); err != nil {
		t.Errorf("demo creating a user: %v", err)
	}
	if err := cloudsvc.NeedGetAccount.Check(carol); err != nil {
		t.Errorf("carol reading the account: %v", err)
	}
	err := cloudsvc.NeedListUsers.Check(carol)
	if !errors.Is(err, store.ErrForbidden) || err.Error() != "Unauthorized" || fault.Code(err) != "" {
		t.Errorf("carol listing users: %v, want forbidden %q", err, "Unauthorized")
	}
}
