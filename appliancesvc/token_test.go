package appliancesvc

import (
	"errors"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/internal/ratelimit"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/appliance"
	"github.com/pocketforge/pocketforge/store/kv"
)

// TestCheckToken: the right token passes, a wrong one is ErrBadToken; the policy's tenth wrong
// token from one IP locks it for 30 s, the right token included, while another IP gets in.
func TestCheckToken(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "d.db"), store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const token = "eight-ch"
	if err := db.Exclusive(func(tx kv.Tx) error { _, err := appliance.EnsureCredentials(tx, token, "admin-pass"); return err }); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := New(db, Options{})
	// A Settable clock cannot be stopped, and the lock's length is checked to the nanosecond.
	s.guesses = ratelimit.NewGuesses(func() time.Time { return now }, tokenLockPolicy)
	if err := s.CheckToken(token, "ip1"); err != nil {
		t.Fatalf("right token: %v", err)
	}
	for i := range 10 {
		if err := s.CheckToken("guess-"+strconv.Itoa(i), "ip1"); !errors.Is(err, ErrBadToken) {
			t.Fatalf("wrong token %d: %v", i+1, err)
		}
	}
	var locked *ratelimit.LockedError
	if err := s.CheckToken(token, "ip1"); !errors.As(err, &locked) || locked.RetryAfter != 30*time.Second {
		t.Fatalf("right token from a locked IP: %v", err)
	}
	if err := s.CheckToken(token, "ip2"); err != nil {
		t.Fatalf("right token from another IP: %v", err)
	}
	now = now.Add(30 * time.Second)
	if err := s.CheckToken(token, "ip1"); err != nil {
		t.Fatalf("right token after the lock: %v", err)
	}
}
