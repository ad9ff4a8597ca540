package cloudsvc_test

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/fixtures"
	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
	"github.com/pocketforge/pocketforge/store/outbox"
)

var start = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// world is the cloud domain on its own copy of the demo world (fixtures/data/cloud.json): the
// demo account's unrestricted demo and restricted carol, the partner account's dave.
type world struct {
	t   *testing.T
	db  *store.DB
	clk *clock.Fixed
	svc *cloudsvc.Service
	// cas caches each sqldb instance's CA as the ssl view showed it while active (dial's trust).
	cas map[uint64][]byte
}

func newWorld(t *testing.T) *world {
	t.Helper()
	clk := clock.NewFixed(start)
	path := apitest.DataFile(t, "cloudsvc-demo", func(path string) error {
		db, err := store.Open(path, store.Options{Durability: store.NoSync})
		if err != nil {
			return err
		}
		defer db.Close()
		_, err = fixtures.Ensure(db, false, start)
		return err
	})
	db, err := store.Open(path, store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	svc := cloudsvc.New(db, clk, nil, cloudsvc.Options{ExternalURL: func() string { return "http://pocketforge.test" }})
	return &world{t: t, db: db, clk: clk, svc: svc}
}

// TestMain removes the seeded template data file after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	apitest.RemoveTemplates()
	os.Exit(code)
}

// user reads a user as stored.
func (w *world) user(name string) cloudstore.User {
	w.t.Helper()
	var u cloudstore.User
	if err := w.db.View(func(tx kv.Tx) (err error) { u, err = cloudstore.GetUser(tx, name); return }); err != nil {
		w.t.Fatalf("user %s: %v", name, err)
	}
	return u
}

// exists reports whether a user named name is stored.
func (w *world) exists(name string) bool {
	w.t.Helper()
	err := w.db.View(func(tx kv.Tx) error { _, err := cloudstore.GetUser(tx, name); return err })
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		w.t.Fatal(err)
	}
	return err == nil
}

// mails lists the mails sent to address, newest first.
func (w *world) mails(address string) []outbox.Mail {
	w.t.Helper()
	var list []outbox.Mail
	if err := w.db.View(func(tx kv.Tx) (err error) { list, err = outbox.List(tx, address, 0); return }); err != nil {
		w.t.Fatal(err)
	}
	return list
}

// actions lists the actions of account's events, newest first.
func (w *world) actions(account uint64) []string {
	w.t.Helper()
	var events []cloudstore.Event
	if err := w.db.View(func(tx kv.Tx) (err error) { events, err = cloudstore.AccountEvents(tx, account); return }); err != nil {
		w.t.Fatal(err)
	}
	out := make([]string, len(events))
	for i, e := range events {
		out[i] = e.Action
	}
	return out
}

// count counts the occurrences of action in actions.
func count(actions []string, action string) int {
	n := 0
	for _, a := range actions {
		if a == action {
			n++
		}
	}
	return n
}

// problems is the "field: reason" list of an error made of store.Problems ("" for another
// error).
func problems(err error) string {
	var p store.Problems
	if !errors.As(err, &p) {
		return ""
	}
	var out []string
	for _, x := range p {
		out = append(out, x.Field+": "+x.Reason)
	}
	return strings.Join(out, "; ")
}
