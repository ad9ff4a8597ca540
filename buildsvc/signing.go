package buildsvc

import (
	"bytes"
	"fmt"
	"io"
	"time"

	"github.com/pocketforge/pocketforge/internal/signkey"
	"github.com/pocketforge/pocketforge/packaging/rpmout"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The farm signs what it writes with the key GET /source/<project>/_pubkey answers for the
// project (issue 34): every RPM it builds, and each published repository's repomd.xml. The
// key is read in the writing transaction, so a createkey that commits first signs the next
// build; nothing already written is signed again (OBS does not re-sign either).

// RPMSigner signs with project's key at now (nil: no key exists yet — the farm makes the
// global key before its first pass, so this is a data file without one).
func RPMSigner(tx kv.Tx, project string, now time.Time) (rpmout.Signer, error) {
	s, err := ProjectSigner(tx, project)
	if err != nil || s == nil {
		return nil, err
	}
	return func(m io.Reader) ([]byte, error) { return s.Sign(m, now) }, nil
}

// ProjectSigner reads project's signing key (nil when there is none).
func ProjectSigner(tx kv.Tx, project string) (*signkey.Signer, error) {
	k, ok, err := signingKey(tx, project)
	if err != nil || !ok {
		return nil, err
	}
	s, err := signkey.NewSigner(k.Private)
	if err != nil {
		return nil, fmt.Errorf("the signing key of %s: %w", project, err)
	}
	return s, nil
}

// SignRPM signs an RPM file with sign (unchanged when sign is nil).
func SignRPM(data []byte, sign rpmout.Signer) ([]byte, error) {
	if sign == nil {
		return data, nil
	}
	return rpmout.Sign(data, sign)
}

// SignRepomd adds repomd.xml.asc (an armored detached signature of the repomd.xml at at in
// files) and repomd.xml.key (the public key) beside it, as OBS publishes them: zypper refuses an
// unsigned repository, and imports the key from there on first use.
func SignRepomd(tx kv.Tx, project string, signer *signkey.Signer, files map[string][]byte, at string, now time.Time) error {
	repomd, ok := files[at]
	if !ok || signer == nil {
		return nil
	}
	k, _, err := signingKey(tx, project)
	if err != nil {
		return err
	}
	asc, err := signer.SignArmored(bytes.NewReader(repomd), now)
	if err != nil {
		return err
	}
	files[at+".asc"] = []byte(asc)
	files[at+".key"] = []byte(k.Public)
	return nil
}
