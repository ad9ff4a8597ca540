package appliance

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

func TestCredentials(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "d.db"), store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ensure := func(token, pw string) Credentials {
		var cr Credentials
		if err := db.Exclusive(func(tx kv.Tx) (err error) { cr, err = EnsureCredentials(tx, token, pw); return }); err != nil {
			t.Fatal(err)
		}
		return cr
	}
	check := func(token, pw string) (bool, bool) {
		var a, b bool
		db.View(func(tx kv.Tx) error {
			a, b = CheckBootstrapToken(tx, token), CheckAdminPassword(tx, pw)
			return nil
		})
		return a, b
	}

	first := ensure("", "")
	if first.TokenSource != "generated" || len(first.BootstrapToken) != 64 || first.PasswordSource != "generated" || first.AdminPassword == "" {
		t.Fatalf("first start: %+v", first)
	}
	if tok, pw := check(first.BootstrapToken, first.AdminPassword); !tok || !pw {
		t.Fatal("generated secrets do not check")
	}
	again := ensure("", "")
	if again.TokenSource != "stored" || again.BootstrapToken != "" || again.AdminPassword != "" {
		t.Fatalf("second start must keep and not show the secrets: %+v", again)
	}
	set := ensure("my-dev-root-token", "s3cret-pass")
	if set.TokenSource != "flag" || set.PasswordSource != "flag" {
		t.Fatalf("flags: %+v", set)
	}
	if tok, pw := check("my-dev-root-token", "s3cret-pass"); !tok || !pw {
		t.Fatal("configured secrets do not check")
	}
	if tok, pw := check(first.BootstrapToken, first.AdminPassword); tok || pw {
		t.Fatal("replaced secrets still check")
	}
	if tok, _ := check("", ""); tok {
		t.Fatal("empty token accepted")
	}
}

func TestClockOffset(t *testing.T) {
	db, _ := store.Open(filepath.Join(t.TempDir(), "d.db"), store.Options{})
	defer db.Close()
	db.Write(func(tx kv.Tx) error { return SetClockOffset(tx, 36*time.Hour) })
	db.View(func(tx kv.Tx) error {
		if d, err := ClockOffset(tx); err != nil || d != 36*time.Hour {
			t.Fatalf("offset %v %v", d, err)
		}
		return nil
	})
}
