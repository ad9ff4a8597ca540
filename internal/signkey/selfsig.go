package signkey

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"math/big"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/eddsa"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
)

// rpm (4.18) refuses to import a key whose self-signature holds a critical subpacket, and
// go-crypto always marks the key expiration time critical (and by default the creation time, the
// key flags, and adds a salt notation). So the user id self-signatures are made here, as gpg
// makes them: a v4 positive certification (0x13) with the creation time, the key expiration,
// the key flags (certify and sign), SHA-256 preferred and the issuer fingerprint, none of them
// critical; the issuer key id unhashed. rpm --import, gpg, zypper and dnf all read it.

// selfSign replaces the self-signature of every identity of e with one made at now that lets
// the key live lifetime seconds after its creation.
func selfSign(e *openpgp.Entity, now time.Time, lifetime uint32) error {
	priv, ok := e.PrivateKey.PrivateKey.(*eddsa.PrivateKey)
	if !ok {
		return errors.New("signkey: not an EdDSA key")
	}
	pub := e.PrimaryKey
	for _, id := range e.Identities {
		var hashed []byte
		hashed = subpacket(hashed, 2, binary.BigEndian.AppendUint32(nil, uint32(now.Unix()))) // creation time
		if lifetime > 0 {
			hashed = subpacket(hashed, 9, binary.BigEndian.AppendUint32(nil, lifetime)) // key expiration
		}
		hashed = subpacket(hashed, 27, []byte{0x03}) // key flags: certify, sign
		hashed = subpacket(hashed, 21, []byte{8})    // preferred hash: SHA-256
		hashed = subpacket(hashed, 30, []byte{0x01}) // features: modification detection
		hashed = subpacket(hashed, 33, append([]byte{4}, pub.Fingerprint...))
		head := []byte{4, 0x13, byte(packet.PubKeyAlgoEdDSA), 8}
		head = binary.BigEndian.AppendUint16(head, uint16(len(hashed)))
		head = append(head, hashed...)

		h := sha256.New()
		if err := pub.SerializeForHash(h); err != nil {
			return err
		}
		uid := []byte(id.UserId.Id)
		h.Write(append([]byte{0xb4}, binary.BigEndian.AppendUint32(nil, uint32(len(uid)))...))
		h.Write(uid)
		h.Write(head)
		h.Write(append([]byte{4, 0xff}, binary.BigEndian.AppendUint32(nil, uint32(len(head)))...))
		digest := h.Sum(nil)
		r, s, err := eddsa.Sign(priv, digest)
		if err != nil {
			return err
		}
		unhashed := subpacket(nil, 16, binary.BigEndian.AppendUint64(nil, pub.KeyId))
		body := append(head, binary.BigEndian.AppendUint16(nil, uint16(len(unhashed)))...)
		body = append(body, unhashed...)
		body = append(body, digest[:2]...)
		body = appendMPI(appendMPI(body, r), s)
		p, err := packet.Read(bytes.NewReader(newPacket(2, body)))
		if err != nil {
			return err
		}
		sig, ok := p.(*packet.Signature)
		if !ok {
			return errors.New("signkey: the self-signature did not read back")
		}
		if err := pub.VerifyUserIdSignature(id.UserId.Id, pub, sig); err != nil {
			return err
		}
		id.SelfSignature, id.Signatures = sig, []*packet.Signature{sig}
	}
	return nil
}

// subpacket appends a (non-critical) signature subpacket.
func subpacket(b []byte, typ byte, data []byte) []byte {
	n := len(data) + 1
	if n < 192 {
		b = append(b, byte(n))
	} else {
		n -= 192
		b = append(b, byte(n>>8)+192, byte(n))
	}
	b = append(b, typ)
	return append(b, data...)
}

// appendMPI appends an OpenPGP multiprecision integer.
func appendMPI(b, v []byte) []byte {
	v = new(big.Int).SetBytes(v).Bytes() // without leading zeros
	b = binary.BigEndian.AppendUint16(b, uint16(new(big.Int).SetBytes(v).BitLen()))
	return append(b, v...)
}

// newPacket frames a packet body in the new format.
func newPacket(tag byte, body []byte) []byte {
	out := []byte{0xc0 | tag}
	switch n := len(body); {
	case n < 192:
		out = append(out, byte(n))
	case n < 8384:
		n -= 192
		out = append(out, byte(n>>8)+192, byte(n))
	default:
		out = append(out, 0xff)
		out = binary.BigEndian.AppendUint32(out, uint32(n))
	}
	return append(out, body...)
}
