package cloudsvc

import (
	"encoding/json"

	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// GlobalChange is the global grant flags a grants PUT sent, by their wire names
// (cloudstore.GlobalGrants' JSON names), each already read as its flag's type (a string or null
// for account_access, a boolean for the others). nil means global was not sent.
type GlobalChange map[string]json.RawMessage

// globalKeys are the names of the global flags; other keys a client sends (linodego sends the
// real service's add_linodes…) are not flags here.
var globalKeys = func() map[string]bool {
	raw, _ := json.Marshal(cloudstore.GlobalGrants{})
	var m map[string]json.RawMessage
	_ = json.Unmarshal(raw, &m)
	keys := map[string]bool{}
	for k := range m {
		keys[k] = true
	}
	return keys
}()

// IsGlobalGrant reports whether key names a global grant flag.
func IsGlobalGrant(key string) bool { return globalKeys[key] }

// over overlays the sent flags on the current ones; nil when none were sent. A PUT changes only
// the flags it names, so the rest must come from the user as stored.
func (g GlobalChange) over(cur *cloudstore.Grants) *cloudstore.GlobalGrants {
	if g == nil {
		return nil
	}
	var base cloudstore.GlobalGrants
	if cur != nil {
		base = cur.Global
	}
	current := map[string]json.RawMessage{}
	raw, _ := json.Marshal(base)
	_ = json.Unmarshal(raw, &current)
	for key, val := range g {
		if globalKeys[key] {
			current[key] = val
		}
	}
	raw, _ = json.Marshal(current)
	var out cloudstore.GlobalGrants
	_ = json.Unmarshal(raw, &out)
	return &out
}
