package buildsvc

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// peopleService is a service over an empty data file holding the persons given (each with the
// password "<login>-password").
func peopleService(t *testing.T, persons ...buildstore.Person) *Service {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "data.db"), store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for i := range persons {
		if err := persons[i].SetPassword(persons[i].Login + "-password"); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Write(func(tx kv.Tx) error {
		for _, p := range persons {
			if err := buildstore.PutPerson(tx, p); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return New(db, clock.NewFixed(time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)), nil, Options{})
}

// TestAuthenticate: only the right password of an active person signs in; the right password
// of a locked person is told so, everything else is the same refusal.
func TestAuthenticate(t *testing.T) {
	s := peopleService(t,
		buildstore.Person{Login: "alice", State: buildstore.StateConfirmed},
		buildstore.Person{Login: "lars", State: buildstore.StateLocked},
		buildstore.Person{Login: "una", State: buildstore.StateUnconfirmed})
	if p, err := s.Authenticate("alice", "alice-password", ""); err != nil || p.Login != "alice" {
		t.Errorf("alice: %v %v", p.Login, err)
	}
	for _, c := range [][2]string{{"alice", "nope"}, {"nobody", "nobody-password"}, {"lars", "nope"}} {
		if _, err := s.Authenticate(c[0], c[1], ""); !errors.Is(err, ErrBadCredentials) {
			t.Errorf("%s/%s: %v, want ErrBadCredentials", c[0], c[1], err)
		}
	}
	for _, login := range []string{"lars", "una"} {
		_, err := s.Authenticate(login, login+"-password", "")
		if !errors.Is(err, store.ErrForbidden) || fault.Code(err) != "inactive_user" {
			t.Errorf("%s: %v, want inactive_user", login, err)
		}
	}
	if _, err := s.ActivePerson("lars"); fault.Code(err) != "inactive_user" {
		t.Errorf("session of a locked person: %v", err)
	}
	if p, err := s.ActivePerson("alice"); err != nil || p.Login != "alice" {
		t.Errorf("session of alice: %v", err)
	}
}

// TestNewPassword: the first line, 6 to 128 characters, at most 72 bytes.
func TestNewPassword(t *testing.T) {
	for in, want := range map[string]string{
		"secret-pw":                "secret-pw",
		"secret-pw\r\nignored":     "secret-pw",
		"short":                    "",
		strings.Repeat("x", 73):    "",
		strings.Repeat("é", 37):    "", // 74 bytes
		"\xff\xfe\xfd\xfc\xfb\xfa": "",
	} {
		got, err := NewPassword(in)
		if got != want || (want == "") != (fault.Code(err) == "invalid_password") {
			t.Errorf("NewPassword(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}
