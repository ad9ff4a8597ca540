package buildsvc

import (
	"errors"
	"sync"
	"testing"

	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/internal/ratelimit"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// spoilPerson overwrites login's record with bytes no decode accepts, behind PutPerson's back
// (the persons' version does not move): a sign-in that still passes read nothing.
func spoilPerson(t *testing.T, s *Service, login string) {
	t.Helper()
	if err := s.db.Write(func(tx kv.Tx) error {
		return tx.Bucket([]byte(store.BuildPersons)).Put([]byte(login), []byte("not json"))
	}); err != nil {
		t.Fatal(err)
	}
}

func wantBad(t *testing.T, what string, err error) {
	t.Helper()
	if !errors.Is(err, ErrBadCredentials) {
		t.Fatalf("%s: %v, want ErrBadCredentials", what, err)
	}
}

// TestSignInMemoryRemembers: a verified credential signs in again without reading the record
// (nor running bcrypt), and so does a session's ActivePerson; a wrong password after the right
// one is still refused; the memory holds no password, only a keyed hash.
func TestSignInMemoryRemembers(t *testing.T) {
	s := peopleService(t, buildstore.Person{Login: "alice", State: buildstore.StateConfirmed})
	if _, err := s.Authenticate("alice", "alice-password", "ip"); err != nil {
		t.Fatal(err)
	}
	spoilPerson(t, s, "alice")
	if p, err := s.Authenticate("alice", "alice-password", "ip"); err != nil || p.Login != "alice" {
		t.Fatalf("remembered sign-in: %v %v", p.Login, err)
	}
	if p, err := s.ActivePerson("alice"); err != nil || p.Login != "alice" {
		t.Fatalf("remembered session: %v %v", p.Login, err)
	}
	wantBad(t, "a wrong password after the right one", func() error { _, err := s.Authenticate("alice", "alice-passwore", "ip"); return err }())
	other := newSignInMemory()
	if s.memory.credential("alice", "alice-password") == other.credential("alice", "alice-password") {
		t.Fatal("two processes remember a credential by the same hash")
	}
	if s.memory.credential("alice", "b\x00c") == s.memory.credential("alice\x00b", "c") {
		t.Fatal("login and password run together")
	}
}

// TestSignInMemoryForgets: every way a person's credentials change ends the memory at once —
// a new password (ChangePassword and PutPerson alike), a lock, a deletion, and a replacement of
// the data (reset, reseed, restore); the old password is refused on the next request.
func TestSignInMemoryForgets(t *testing.T) {
	admin := buildstore.Person{Login: "Admin", State: buildstore.StateConfirmed, GlobalRoles: []string{buildstore.RoleAdmin}}
	s := peopleService(t, admin,
		buildstore.Person{Login: "alice", State: buildstore.StateConfirmed},
		buildstore.Person{Login: "bob", State: buildstore.StateConfirmed},
		buildstore.Person{Login: "carol", State: buildstore.StateConfirmed},
		buildstore.Person{Login: "dave", State: buildstore.StateConfirmed})
	signIn := func(login, password string) error { _, err := s.Authenticate(login, password, ""); return err }
	for _, login := range []string{"Admin", "alice", "bob", "carol", "dave"} {
		if err := signIn(login, login+"-password"); err != nil {
			t.Fatalf("%s: %v", login, err)
		}
	}
	who, _ := s.ActivePerson("Admin")

	if err := s.ChangePassword(who, "alice", "new-alice-password"); err != nil {
		t.Fatal(err)
	}
	wantBad(t, "alice's old password", signIn("alice", "alice-password"))
	if err := signIn("alice", "new-alice-password"); err != nil {
		t.Fatalf("alice's new password: %v", err)
	}

	if err := s.LockPerson(who, "bob"); err != nil {
		t.Fatal(err)
	}
	if err := signIn("bob", "bob-password"); fault.Code(err) != "inactive_user" {
		t.Fatalf("locked bob: %v", err)
	}
	if _, err := s.ActivePerson("bob"); fault.Code(err) != "inactive_user" {
		t.Fatalf("locked bob's session: %v", err)
	}

	if err := s.DeletePerson(who, "carol"); err != nil {
		t.Fatal(err)
	}
	if err := signIn("carol", "carol-password"); fault.Code(err) != "inactive_user" {
		t.Fatalf("deleted carol: %v", err)
	}

	// A replacement writes persons behind PutPerson's back; Replaced makes the memory forget.
	if err := s.db.Write(func(tx kv.Tx) error {
		return tx.Bucket([]byte(store.BuildPersons)).Delete([]byte("dave"))
	}); err != nil {
		t.Fatal(err)
	}
	s.Replaced()
	wantBad(t, "dave after the data was replaced", signIn("dave", "dave-password"))
}

// TestSignInMemoryThrottle: a remembered credential is refused while its login (or IP) is
// locked, like any other; 64 sign-ins at once with the right password, none remembered yet,
// all pass.
func TestSignInMemoryThrottle(t *testing.T) {
	s := peopleService(t, buildstore.Person{Login: "alice", State: buildstore.StateConfirmed})
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := s.Authenticate("alice", "alice-password", "10.0.0.1"); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("right password at once: %v", err)
	}
	for range 5 {
		wantBad(t, "a guess", func() error { _, err := s.Authenticate("alice", "guess", "10.0.0.2"); return err }())
	}
	var locked *ratelimit.LockedError
	if _, err := s.Authenticate("alice", "alice-password", "10.0.0.2"); !errors.As(err, &locked) {
		t.Fatalf("remembered password while locked (at the guessing address): %v", err)
	}
	if c := s.SignInCounts(); c.Failed != 5 || c.Refused != 1 {
		t.Fatalf("counts %+v, want 5 failed, 1 refused", c)
	}
}
