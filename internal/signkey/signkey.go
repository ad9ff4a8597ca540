// Package signkey makes and renews the OpenPGP signing keys of build projects: what the real
// service's signer (signd's `sign -g` and `sign -x`) does for cmd=createkey and cmd=extendkey.
//
// Keys are EdDSA over Ed25519 (OpenPGP v4, algorithm 22, the form gpg ≥ 2.1 and rpm ≥ 4.16
// verify). The real signer defaults to RSA 4096, which takes seconds to generate and RSA 2048
// still up to several hundred milliseconds; an Ed25519 key takes well under a millisecond, so
// cmd=createkey answers at once. A key is sign-only (no encryption subkey), like a project
// signing key of the real service.
package signkey

import (
	"bytes"
	"crypto"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
)

// DefaultDays is how long a new or extended key is valid: the real signer's default expiry.
const DefaultDays = 800

// MaxDays is the longest extension the real backend accepts ("too far in the future" beyond).
const MaxDays = 100000

// Key is a generated key pair.
type Key struct {
	Public  string // ASCII-armored public key
	Private []byte // serialized private key (binary OpenPGP packets)
	Created time.Time
	Expires time.Time
}

func config(now time.Time, lifetime uint32) *packet.Config {
	return &packet.Config{
		Algorithm:       packet.PubKeyAlgoEdDSA,
		Curve:           packet.Curve25519,
		DefaultHash:     crypto.SHA256,
		KeyLifetimeSecs: lifetime,
		Time:            func() time.Time { return now },
		// rpm (4.18) refuses a key whose self-signature holds critical subpackets it does not
		// read, and go-crypto marks some critical and adds a salt notation by default: the
		// packets are made as gpg makes them, which rpm --import, gpg and zypper all take.
		NonDeterministicSignaturesViaNotation:            &no,
		InsecureGenerateNonCriticalSignatureCreationTime: true,
		InsecureGenerateNonCriticalKeyFlags:              true,
	}
}

var no = false

// lifetime is the key lifetime (seconds from creation) that makes a key created at created
// expire days after now.
func lifetime(created, now time.Time, days int) (uint32, error) {
	if days <= 0 || days >= MaxDays {
		return 0, fmt.Errorf("days must be between 1 and %d", MaxDays-1)
	}
	secs := now.Add(time.Duration(days)*24*time.Hour).Unix() - created.Unix()
	if secs <= 0 || secs > int64(^uint32(0)) {
		return 0, errors.New("too far in the future")
	}
	return uint32(secs), nil
}

// New makes a key pair with the user id "name <email>", created at now and expiring days
// later. name and email must not hold any of "()<>" (project names cannot).
func New(name, email string, now time.Time, days int) (Key, error) {
	return NewFrom(nil, name, email, now, days)
}

// NewFrom is New with the key's randomness read from random (nil: crypto/rand): the same reader
// gives the same key, for data built ahead of time that must be the same bytes each time.
func NewFrom(random io.Reader, name, email string, now time.Time, days int) (Key, error) {
	now = now.Truncate(time.Second)
	life, err := lifetime(now, now, days)
	if err != nil {
		return Key{}, err
	}
	cfg := config(now, life)
	cfg.Rand = random
	e, err := openpgp.NewEntity(name, "", email, cfg)
	if err != nil {
		return Key{}, err
	}
	e.Subkeys = nil
	if err := selfSign(e, now, life); err != nil {
		return Key{}, err
	}
	return encode(e)
}

// Extend renews a key's self-signatures so that it expires days after now, keeping the key
// itself (and so its fingerprint), as `sign -x` does.
func Extend(k Key, now time.Time, days int) (Key, error) {
	now = now.Truncate(time.Second)
	e, err := openpgp.ReadEntity(packet.NewReader(bytes.NewReader(k.Private)))
	if err != nil {
		return Key{}, fmt.Errorf("reading the stored key: %w", err)
	}
	life, err := lifetime(e.PrimaryKey.CreationTime, now, days)
	if err != nil {
		return Key{}, err
	}
	if now.Before(e.PrimaryKey.CreationTime) {
		now = e.PrimaryKey.CreationTime
	}
	if err := selfSign(e, now, life); err != nil {
		return Key{}, err
	}
	return encode(e)
}

// encode serializes both halves and reads the validity back from the primary self-signature.
func encode(e *openpgp.Entity) (Key, error) {
	var priv bytes.Buffer
	if err := e.SerializePrivateWithoutSigning(&priv, nil); err != nil {
		return Key{}, err
	}
	var pub strings.Builder
	w, err := armor.Encode(&pub, openpgp.PublicKeyType, nil)
	if err != nil {
		return Key{}, err
	}
	if err := e.Serialize(w); err != nil {
		return Key{}, err
	}
	if err := w.Close(); err != nil {
		return Key{}, err
	}
	k := Key{Public: pub.String() + "\n", Private: priv.Bytes(), Created: e.PrimaryKey.CreationTime}
	if sig, _ := e.PrimarySelfSignature(); sig != nil && sig.KeyLifetimeSecs != nil && *sig.KeyLifetimeSecs > 0 {
		k.Expires = k.Created.Add(time.Duration(*sig.KeyLifetimeSecs) * time.Second)
	}
	return k, nil
}
