package signkey

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
)

var t0 = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// readPublic parses an armored public key and returns its one entity.
func readPublic(t *testing.T, armored string) *openpgp.Entity {
	t.Helper()
	list, err := openpgp.ReadArmoredKeyRing(strings.NewReader(armored))
	if err != nil || len(list) != 1 {
		t.Fatalf("public key: %v (%d entities)\n%s", err, len(list), armored)
	}
	return list[0]
}

func TestNew(t *testing.T) {
	start := time.Now()
	k, err := New("home:alice OBS Project", "home:alice@build.pocketforge", t0, DefaultDays)
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 300*time.Millisecond {
		t.Errorf("generation took %v", d)
	}
	if !strings.HasPrefix(k.Public, "-----BEGIN PGP PUBLIC KEY BLOCK-----\n") || !strings.HasSuffix(k.Public, "-----END PGP PUBLIC KEY BLOCK-----\n") {
		t.Fatalf("not an armored public key:\n%s", k.Public)
	}
	if strings.Contains(k.Public, "PRIVATE") {
		t.Fatal("the public half holds a private key")
	}
	e := readPublic(t, k.Public)
	if _, ok := e.Identities["home:alice OBS Project <home:alice@build.pocketforge>"]; !ok {
		t.Fatalf("user ids: %v", e.Identities)
	}
	if e.PrimaryKey.PubKeyAlgo != packet.PubKeyAlgoEdDSA || len(e.Subkeys) != 0 {
		t.Fatalf("algorithm %v, %d subkeys", e.PrimaryKey.PubKeyAlgo, len(e.Subkeys))
	}
	if !k.Created.Equal(t0) || !k.Expires.Equal(t0.AddDate(0, 0, DefaultDays)) {
		t.Fatalf("created %v expires %v", k.Created, k.Expires)
	}
	// The private half signs, and the public half verifies that signature.
	priv, err := openpgp.ReadEntity(packet.NewReader(bytes.NewReader(k.Private)))
	if err != nil {
		t.Fatal(err)
	}
	var sig bytes.Buffer
	cfg := &packet.Config{Time: func() time.Time { return t0.Add(time.Hour) }}
	if err := openpgp.DetachSign(&sig, priv, strings.NewReader("payload"), cfg); err != nil {
		t.Fatal(err)
	}
	if _, err := openpgp.CheckDetachedSignature(openpgp.EntityList{e}, strings.NewReader("payload"), &sig, cfg); err != nil {
		t.Fatalf("signature does not verify: %v", err)
	}
}

func TestExtend(t *testing.T) {
	k, err := New("P OBS Project", "P@build.pocketforge", t0, DefaultDays)
	if err != nil {
		t.Fatal(err)
	}
	later := t0.AddDate(1, 0, 0)
	x, err := Extend(k, later, 30)
	if err != nil {
		t.Fatal(err)
	}
	if !x.Created.Equal(t0) || !x.Expires.Equal(later.AddDate(0, 0, 30)) {
		t.Fatalf("created %v expires %v", x.Created, x.Expires)
	}
	before, after := readPublic(t, k.Public), readPublic(t, x.Public)
	if before.PrimaryKey.Fingerprint == nil || !bytes.Equal(before.PrimaryKey.Fingerprint, after.PrimaryKey.Fingerprint) {
		t.Fatal("the key changed")
	}
	if _, err := Extend(Key{Private: []byte("junk")}, later, 30); err == nil {
		t.Fatal("junk extended")
	}
	for _, days := range []int{0, -1, MaxDays} {
		if _, err := Extend(k, later, days); err == nil {
			t.Errorf("days=%d accepted", days)
		}
	}
}

func BenchmarkNew(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := New("P OBS Project", "P@build.pocketforge", t0, DefaultDays); err != nil {
			b.Fatal(err)
		}
	}
}
