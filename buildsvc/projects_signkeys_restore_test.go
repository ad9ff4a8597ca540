package buildsvc

import (
	"bytes"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/internal/signkey"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// TestRestoreRefusesUnreadableSignKeys (issue 34): a snapshot whose signing key does not parse
// is refused at restore (the farm could not sign with it), the data left as it was; one whose
// keys parse restores, private halves included.
func TestRestoreRefusesUnreadableSignKeys(t *testing.T) {
	open := func() *store.DB {
		db, err := store.Open(filepath.Join(t.TempDir(), "d.db"), store.Options{Durability: store.NoSync})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	k, err := signkey.New("P OBS Project", "P@build.pocketforge", time.Now(), signkey.DefaultDays)
	if err != nil {
		t.Fatal(err)
	}
	good := buildstore.SignKey{Public: k.Public, Private: k.Private, Created: k.Created, Expires: k.Expires}
	snapshot := func(keys map[string]buildstore.SignKey) []byte {
		src := open()
		if err := src.Exclusive(func(tx kv.Tx) error {
			for name, k := range keys {
				if err := buildstore.PutSignKey(tx, name, k); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if _, _, err := src.Snapshot(&b); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	dst := open()
	if _, err := dst.Restore(bytes.NewReader(snapshot(map[string]buildstore.SignKey{"P": good, buildstore.GlobalKeyName: good})), 1<<30); err != nil {
		t.Fatalf("a snapshot with sound keys: %v", err)
	}
	broken := good
	broken.Private = []byte("not a key")
	if _, err := dst.Restore(bytes.NewReader(snapshot(map[string]buildstore.SignKey{"Q": broken})), 1<<30); !errors.Is(err, store.ErrNotPocketforge) {
		t.Fatalf("a snapshot with a broken private key: %v", err)
	}
	badPublic := good
	badPublic.Public = "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nnope\n-----END PGP PUBLIC KEY BLOCK-----\n"
	if _, err := dst.Restore(bytes.NewReader(snapshot(map[string]buildstore.SignKey{"Q": badPublic})), 1<<30); !errors.Is(err, store.ErrNotPocketforge) {
		t.Fatalf("a snapshot with a broken public key: %v", err)
	}
	dst.View(func(tx kv.Tx) error {
		if k, ok, _ := buildstore.GetSignKey(tx, "P"); !ok || !bytes.Equal(k.Private, good.Private) {
			t.Error("the refused restores changed the data")
		}
		return nil
	})
}
