package signkey

import (
	"bytes"
	"crypto"
	"crypto/sha256"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
)

// Signer signs with one stored private key: detached OpenPGP signatures, binary (what an RPM's
// signature header holds) or armored (repomd.xml.asc), made at a given instant (the appliance
// clock's, never before the key's creation).
type Signer struct {
	e *openpgp.Entity
}

// signers keeps the keys read, by the SHA-256 of their stored bytes: reading a key is the
// costly part of a signature, and a farm signs every package of a build with one key.
var signers sync.Map // [32]byte → *Signer

// NewSigner reads a stored private key (Key.Private).
func NewSigner(private []byte) (*Signer, error) {
	sum := sha256.Sum256(private)
	if s, ok := signers.Load(sum); ok {
		return s.(*Signer), nil
	}
	e, err := openpgp.ReadEntity(packet.NewReader(bytes.NewReader(private)))
	if err != nil {
		return nil, fmt.Errorf("reading the signing key: %w", err)
	}
	if e.PrivateKey == nil {
		return nil, fmt.Errorf("the signing key has no private half")
	}
	s := &Signer{e: e}
	signers.Store(sum, s)
	return s, nil
}

// config is the signature's: SHA-256, made at now (or the key's creation, if later).
func (s *Signer) config(now time.Time) *packet.Config {
	if now.Before(s.e.PrimaryKey.CreationTime) {
		now = s.e.PrimaryKey.CreationTime
	}
	// as gpg makes them: no salt notation (go-crypto's default randomizes every signature; the
	// farm's output is then the same bytes for the same input and key), creation time not
	// critical
	return &packet.Config{DefaultHash: crypto.SHA256, Time: func() time.Time { return now },
		NonDeterministicSignaturesViaNotation: &no, InsecureGenerateNonCriticalSignatureCreationTime: true}
}

// Sign returns a binary detached signature of message.
func (s *Signer) Sign(message io.Reader, now time.Time) ([]byte, error) {
	var b bytes.Buffer
	if err := openpgp.DetachSign(&b, s.e, message, s.config(now)); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// SignArmored returns an ASCII-armored detached signature of message (a .asc file).
func (s *Signer) SignArmored(message io.Reader, now time.Time) (string, error) {
	var b strings.Builder
	if err := openpgp.ArmoredDetachSign(&b, s.e, message, s.config(now)); err != nil {
		return "", err
	}
	return b.String() + "\n", nil
}

// Verify checks a detached signature (binary or armored) of message against the armored public
// key publicKey.
func Verify(publicKey string, message io.Reader, signature []byte) error {
	keys, err := openpgp.ReadArmoredKeyRing(strings.NewReader(publicKey))
	if err != nil {
		return err
	}
	if bytes.HasPrefix(bytes.TrimSpace(signature), []byte("-----BEGIN")) {
		block, err := armor.Decode(bytes.NewReader(signature))
		if err != nil {
			return err
		}
		_, err = openpgp.CheckDetachedSignature(keys, message, block.Body, nil)
		return err
	}
	_, err = openpgp.CheckDetachedSignature(keys, message, bytes.NewReader(signature), nil)
	return err
}

// Check reports whether a stored key pair reads: the armored public key and the private key
// (a key a snapshot carries is checked before it replaces anything).
func Check(publicKey string, private []byte) error {
	if _, err := openpgp.ReadArmoredKeyRing(strings.NewReader(publicKey)); err != nil {
		return fmt.Errorf("public key: %w", err)
	}
	e, err := openpgp.ReadEntity(packet.NewReader(bytes.NewReader(private)))
	if err != nil {
		return fmt.Errorf("private key: %w", err)
	}
	if e.PrivateKey == nil {
		return fmt.Errorf("private key: no private half")
	}
	return nil
}
