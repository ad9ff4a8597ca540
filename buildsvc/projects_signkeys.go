package buildsvc

import (
	"fmt"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/internal/signkey"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Project signing keys. Keys are real OpenPGP key pairs (see internal/signkey for the key
// type); the private half stays in the store for the build farm's signer and is never served.
// A key pair is made before the transaction that stores it: a batched transaction may run
// twice, and must do the same both times.

// keyDomain is the instance name in key user ids, where the real service puts its obsname
// ("P OBS Project <P@build.opensuse.org>").
const keyDomain = "build.pocketforge"

// projectKeyUID is the user id the real signer gives a project key: "P OBS Project <P@obsname>".
func projectKeyUID(project string) (name, email string) {
	return project + " OBS Project", project + "@" + keyDomain
}

func init() { store.OnRestore(CheckSignKeys) }

// CheckSignKeys checks that every stored signing key parses, both halves: a restore refuses a
// snapshot whose keys the farm could not sign with (registered with the store's restore).
func CheckSignKeys(tx kv.Tx) error {
	return buildstore.EachSignKey(tx, func(name string, k buildstore.SignKey) error {
		if err := signkey.Check(k.Public, k.Private); err != nil {
			return fmt.Errorf("the signing key of %s: %w", name, err)
		}
		return nil
	})
}

func toStored(k signkey.Key) buildstore.SignKey {
	return buildstore.SignKey{Public: k.Public, Private: k.Private, Created: k.Created, Expires: k.Expires}
}

// PublicKey is the public key that signs the project's packages: its own, else the first
// existing project's up the namespace (home:alice:branches:x, home:alice:branches,
// home:alice, home) with a key of its own, and at last the instance's global key, made on
// first need. (The real backend answers 404 where a project has no key of its own and osc
// walks up itself; the seed has the service walk, so osc signkey and plain GETs both get a
// key.)
func (s *Service) PublicKey(name string) (string, error) {
	var pub string
	err := s.db.View(func(tx kv.Tx) error {
		if err := buildstore.CheckProject(tx, name); err != nil {
			return NotFoundAs(err, "unknown_project")
		}
		k, _, err := signingKey(tx, name)
		pub = k.Public
		return err
	})
	if err == nil && pub == "" {
		pub, err = s.GlobalKey()
	}
	return pub, err
}

// signingKey is the key that signs project's packages (see PublicKey); ok is false when there
// is none yet, not even the global one.
func signingKey(tx kv.Tx, project string) (buildstore.SignKey, bool, error) {
	for candidate := project; candidate != ""; {
		if err := buildstore.CheckProject(tx, candidate); err == nil {
			k, ok, err := buildstore.GetSignKey(tx, candidate)
			if err != nil || ok {
				return k, ok, err
			}
		}
		i := strings.LastIndex(candidate, ":")
		candidate = candidate[:max(i, 0)]
	}
	return buildstore.GetSignKey(tx, buildstore.GlobalKeyName)
}

// keyTime is when a new key is made: the appliance clock's now, but never later than the wall
// clock's. gpg, and so zypper and dnf, hold a key created in the future invalid ("created …
// seconds in the future"), and a dev clock moved ahead (--dev-clock) would make every key made
// meanwhile unusable to them until the world caught up.
func (s *Service) keyTime() time.Time {
	now := s.clk.Now()
	if wall := time.Now(); now.After(wall) {
		return wall
	}
	return now
}

// GlobalKey returns the instance's own public key, creating the key pair once; an existing key
// wins when another request stored one first.
func (s *Service) GlobalKey() (string, error) {
	k, err := signkey.NewFrom(s.opts.KeyRand, "pocketforge OBS Instance", "signkey@"+keyDomain, s.keyTime(), signkey.DefaultDays)
	if err != nil {
		return "", err
	}
	var pub string
	err = s.db.Write(func(tx kv.Tx) error {
		old, ok, err := buildstore.GetSignKey(tx, buildstore.GlobalKeyName)
		if err != nil || ok {
			pub = old.Public
			return err
		}
		pub = k.Public
		return buildstore.PutSignKey(tx, buildstore.GlobalKeyName, toStored(k))
	})
	return pub, err
}

// DeleteSignKey removes the project's own key (none is fine); its maintainers or Admin may.
// Afterwards PublicKey answers the key of a parent or the global one.
func (s *Service) DeleteSignKey(who buildstore.Person, name string) error {
	return s.db.Write(func(tx kv.Tx) error {
		_, err := ProjectOfMaintainer(tx, who, name, true,
			Forbidden("delete_project_pubkey_no_permission", "No permission to delete public key for project '%s'", name))
		if err != nil {
			return err
		}
		return buildstore.DeleteSignKey(tx, name)
	})
}

// CreateSignKey makes a new key pair for the project, replacing its key if it had one (the old
// key cannot be restored, as osc warns); its maintainers or Admin may.
func (s *Service) CreateSignKey(who buildstore.Person, name string) error {
	if !buildstore.ValidProjectName(name) { // the user id cannot hold what a project name cannot
		return BadRequest("invalid_project_name", "invalid project name '%s'", name)
	}
	uid, email := projectKeyUID(name)
	k, err := signkey.New(uid, email, s.keyTime(), signkey.DefaultDays)
	if err != nil {
		return err
	}
	return s.db.Write(func(tx kv.Tx) error {
		if _, err := MaintainedProject(tx, who, name, "createkey", true); err != nil {
			return err
		}
		return buildstore.PutSignKey(tx, name, toStored(k))
	})
}

// ExtendSignKey renews the project's own key to expire days from now (0: the signer's default,
// signkey.DefaultDays); the key, and so its fingerprint, stays. Without a key of its own the
// backend's 400 "project does not have a key" is answered.
func (s *Service) ExtendSignKey(who buildstore.Person, name string, days int) error {
	if days == 0 {
		days = signkey.DefaultDays
	}
	if days >= signkey.MaxDays {
		return BadRequest("invalid_parameter", "too far in the future")
	}
	now := s.clk.Now()
	return s.db.Write(func(tx kv.Tx) error {
		if _, err := MaintainedProject(tx, who, name, "extendkey", true); err != nil {
			return err
		}
		old, ok, err := buildstore.GetSignKey(tx, name)
		if err != nil {
			return err
		}
		if !ok {
			return fault.Invalid("400", "project does not have a key")
		}
		k, err := signkey.Extend(signkey.Key{Public: old.Public, Private: old.Private, Created: old.Created, Expires: old.Expires}, now, days)
		if err != nil {
			return BadRequest("invalid_parameter", "extending the key of project '%s': %v", name, err)
		}
		return buildstore.PutSignKey(tx, name, toStored(k))
	})
}
