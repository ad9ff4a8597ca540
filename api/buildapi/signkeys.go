package buildapi

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/internal/signkey"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"go.etcd.io/bbolt"
)

// Project signing keys: GET/DELETE /source/P/_pubkey and cmd=createkey / cmd=extendkey. Keys are
// real OpenPGP key pairs (see internal/signkey for the key type); the private half stays in the
// store for the build farm's signer and is never served.

// keyDomain is the instance name in key user ids, where the real service puts its obsname
// ("P OBS Project <P@build.opensuse.org>").
const keyDomain = "build.pocketforge"

// projectKeyUID is the user id the real signer gives a project key: "P OBS Project <P@obsname>".
func projectKeyUID(project string) (name, email string) {
	return project + " OBS Project", project + "@" + keyDomain
}

func toStored(k signkey.Key) buildstore.SignKey {
	return buildstore.SignKey{Public: k.Public, Private: k.Private, Created: k.Created, Expires: k.Expires}
}

// getPubkey answers the project's public key as text, falling back up the namespace
// (home:alice:branches:x, home:alice:branches, home:alice, home) to the first existing project
// with a key of its own, and at last to the instance's global key, made on first need. (The
// real backend answers 404 where a project has no key of its own and osc walks up itself; the
// seed has the service walk, so osc signkey and plain GETs both get a key.)
func (a *api) getPubkey(c *fiber.Ctx) error {
	name := pathParam(c, "project")
	var pub string
	err := a.Store.View(func(tx *bbolt.Tx) error {
		if _, err := buildstore.GetProject(tx, name); err != nil {
			return buildsvc.NotFoundAs(err, "unknown_project")
		}
		for candidate := name; candidate != ""; {
			if _, err := buildstore.GetProject(tx, candidate); err == nil {
				k, ok, err := buildstore.GetSignKey(tx, candidate)
				if err != nil || ok {
					pub = k.Public
					return err
				}
			}
			i := strings.LastIndex(candidate, ":")
			candidate = candidate[:max(i, 0)]
		}
		k, _, err := buildstore.GetSignKey(tx, buildstore.GlobalKeyName)
		pub = k.Public
		return err
	})
	if err == nil && pub == "" {
		pub, err = a.globalKey()
	}
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "text/plain; charset=utf-8")
	return c.SendString(pub)
}

// globalKey returns the instance's own public key, creating the key pair once. The key is made
// outside the transaction, which keeps an existing key when another request stored one first,
// so a batched (repeated) transaction stays idempotent.
func (a *api) globalKey() (string, error) {
	k, err := signkey.New("pocketforge OBS Instance", "signkey@"+keyDomain, a.Clock.Now(), signkey.DefaultDays)
	if err != nil {
		return "", err
	}
	var pub string
	err = a.Store.Write(func(tx *bbolt.Tx) error {
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

// deletePubkey removes the project's own key (none is fine); its maintainers or Admin may.
// Afterwards _pubkey answers the key of a parent or the global one.
func (a *api) deletePubkey(c *fiber.Ctx) error {
	name, who := pathParam(c, "project"), personOf(c)
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		_, err := buildsvc.ProjectOfMaintainer(tx, who, name, true,
			buildsvc.Forbidden("delete_project_pubkey_no_permission", "No permission to delete public key for project '%s'", name))
		if err != nil {
			return err
		}
		return buildstore.DeleteSignKey(tx, name)
	})
	if err != nil {
		return err
	}
	return sendOK(c)
}

// createKey makes a new key pair for the project, replacing its key if it had one (the old key
// cannot be restored, as osc warns). The pair is made before the transaction, which may run
// twice when batched.
func (a *api) createKey(c *fiber.Ctx) error {
	name, who := pathParam(c, "project"), personOf(c)
	if !buildstore.ValidProjectName(name) { // the user id cannot hold what a project name cannot
		return buildsvc.BadRequest("invalid_project_name", "invalid project name '%s'", name)
	}
	uid, email := projectKeyUID(name)
	k, err := signkey.New(uid, email, a.Clock.Now(), signkey.DefaultDays)
	if err != nil {
		return err
	}
	err = a.Store.Write(func(tx *bbolt.Tx) error {
		if _, err := buildsvc.MaintainedProject(tx, who, name, "createkey", true); err != nil {
			return err
		}
		return buildstore.PutSignKey(tx, name, toStored(k))
	})
	if err != nil {
		return err
	}
	return sendOK(c)
}

// extendKey renews the project's own key to expire ?days= (default 800, the signer's) from now;
// the key, and so its fingerprint, stays. Without a key of its own the backend's 400 "project
// does not have a key" is answered.
func (a *api) extendKey(c *fiber.Ctx) error {
	name, who := pathParam(c, "project"), personOf(c)
	days := signkey.DefaultDays
	if v := c.Query("days"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return buildsvc.BadRequest("invalid_parameter", "days must be a positive number of days, not '%s'", v)
		}
		if n >= signkey.MaxDays {
			return buildsvc.BadRequest("invalid_parameter", "too far in the future")
		}
		days = n
	}
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		if _, err := buildsvc.MaintainedProject(tx, who, name, "extendkey", true); err != nil {
			return err
		}
		old, ok, err := buildstore.GetSignKey(tx, name)
		if err != nil {
			return err
		}
		if !ok {
			return &kit.Error{Status: http.StatusBadRequest, Code: "400", Reason: "project does not have a key"}
		}
		k, err := signkey.Extend(signkey.Key{Public: old.Public, Private: old.Private, Created: old.Created, Expires: old.Expires}, a.Clock.Now(), days)
		if err != nil {
			return buildsvc.BadRequest("invalid_parameter", "extending the key of project '%s': %v", name, err)
		}
		return buildstore.PutSignKey(tx, name, toStored(k))
	})
	if err != nil {
		return err
	}
	return sendOK(c)
}
