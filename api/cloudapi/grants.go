package cloudapi

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// grantEntry is one entity in a grants array: every entity of the account is listed, with
// permissions null where the user holds none (as the real service answers).
type grantEntry struct {
	ID          uint64  `json:"id"`
	Label       string  `json:"label"`
	Permissions *string `json:"permissions"`
}

// viewGrants renders a restricted user's grants as {"global": {…}, "<kind>": [...], …}.
func viewGrants(u cloudstore.User, owned cloudstore.Entities) map[string]any {
	out := map[string]any{}
	var global cloudstore.GlobalGrants
	if u.Grants != nil {
		global = u.Grants.Global
	}
	out["global"] = global
	for _, kind := range cloudstore.EntityKinds {
		list := []grantEntry{}
		for _, e := range owned[kind] {
			entry := grantEntry{ID: e.ID, Label: e.Label}
			if p := u.Grants.Permission(kind, e.ID); p != "" {
				entry.Permissions = &p
			}
			list = append(list, entry)
		}
		out[kind] = list
	}
	return out
}

// getGrants answers 204 with no body for an unrestricted user: there are no grants to show.
func (a *api) getGrants(c *fiber.Ctx) error {
	u, owned, err := a.Cloud.Grants(callerOf(c).User.AccountID, c.Params("username"))
	if err != nil {
		return err
	}
	if !u.Restricted {
		return c.SendStatus(http.StatusNoContent)
	}
	return c.JSON(viewGrants(u, owned))
}

// putGrants changes what the body sends: the global flags given (others unchanged) and the
// entity permissions listed (entities not listed unchanged).
func (a *api) putGrants(c *fiber.Ctx) error {
	b, err := parseBody(c)
	if err != nil {
		return err
	}
	changes := grantChanges(b)
	global := globalChange(b)
	u, owned, err := a.Cloud.SetGrants(callerOf(c).User, c.Params("username"), global, changes, b.problems)
	if err != nil {
		return err
	}
	return c.JSON(viewGrants(u, owned))
}

// globalChange reads the global flags the body sends, each checked for its type; nil when
// global was not sent. Keys of other names (linodego sends the real service's add_linodes…)
// are ignored.
func globalChange(b *body) cloudsvc.GlobalChange {
	var sent map[string]json.RawMessage
	if !b.decode("global", "an object", &sent) {
		return nil
	}
	out := cloudsvc.GlobalChange{}
	for key, val := range sent {
		if !cloudsvc.IsGlobalGrant(key) {
			continue
		}
		var probe any
		if key == "account_access" {
			probe = new(*string)
		} else {
			probe = new(bool)
		}
		if json.Unmarshal(val, probe) != nil || key != "account_access" && string(val) == "null" {
			b.problems.Add("global."+key, map[bool]string{true: "Must be a string or null", false: "Must be a boolean"}[key == "account_access"])
			continue
		}
		out[key] = val
	}
	return out
}

// grantChanges reads the entity arrays the body sends.
func grantChanges(b *body) []cloudstore.GrantChange {
	var out []cloudstore.GrantChange
	for _, kind := range cloudstore.EntityKinds {
		var list []struct {
			ID          *uint64 `json:"id"`
			Permissions *string `json:"permissions"`
		}
		if !b.decode(kind, "an array of {id, permissions}", &list) {
			continue
		}
		for i, e := range list {
			field := fmt.Sprintf("%s[%d]", kind, i)
			if e.ID == nil {
				b.problems.Add(field+".id", "id is required")
				continue
			}
			out = append(out, cloudstore.GrantChange{Kind: kind, ID: *e.ID, Permissions: e.Permissions, Field: field})
		}
	}
	return out
}
