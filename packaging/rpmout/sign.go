package rpmout

import (
	"bytes"
	"fmt"
	"io"
)

// Signer makes a detached binary OpenPGP signature of what it reads.
type Signer func(message io.Reader) ([]byte, error)

// Sign signs an RPM file as rpmsign --addsign does: the signature header gets a signature of
// the main header (RPMSIGTAG_RSA) and one of the header and payload (RPMSIGTAG_PGP), replacing
// any it held, so signing again with another key (copy with resign) leaves one signature of each
// kind. The main header and payload are not touched, so every digest stays valid.
func Sign(file []byte, sign Signer) ([]byte, error) {
	l, err := layout(file)
	if err != nil {
		return nil, err
	}
	sig, err := parseHeader(l.sig)
	if err != nil {
		return nil, fmt.Errorf("signature header: %w", err)
	}
	hs, err := sign(bytes.NewReader(l.hdr))
	if err != nil {
		return nil, fmt.Errorf("signing the header: %w", err)
	}
	ps, err := sign(io.MultiReader(bytes.NewReader(l.hdr), bytes.NewReader(l.payload)))
	if err != nil {
		return nil, fmt.Errorf("signing the header and payload: %w", err)
	}
	sig = setEntry(sig, hdrEntry{tag: sigRSA, typ: typeBin, count: uint32(len(hs)), data: hs})
	sig = setEntry(sig, hdrEntry{tag: sigPGP, typ: typeBin, count: uint32(len(ps)), data: ps})
	newSig := encodeHeader(regionSignatures, sig)
	out := make([]byte, 0, leadSize+len(newSig)+8+len(l.hdr)+len(l.payload))
	out = append(out, l.lead...)
	out = append(out, newSig...)
	out = append(out, make([]byte, (8-len(newSig)%8)%8)...)
	out = append(out, l.hdr...)
	return append(out, l.payload...), nil
}

// Signed reports whether an RPM file's signature header holds an OpenPGP signature.
func Signed(file []byte) bool {
	l, err := layout(file)
	if err != nil {
		return false
	}
	sig, err := parseHeader(l.sig)
	if err != nil {
		return false
	}
	for _, e := range sig {
		if e.tag == sigRSA || e.tag == sigPGP {
			return true
		}
	}
	return false
}

// IsRPM reports whether file looks like an RPM: a lead, a signature header and a main header.
func IsRPM(file []byte) bool {
	_, err := layout(file)
	return err == nil
}
