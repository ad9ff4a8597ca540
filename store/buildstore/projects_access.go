package buildstore

import (
	"bytes"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// ProjectMayHide reports whether the stored record of project name holds an access flag at all,
// without decoding it: only such a project can be hidden from anyone. Most projects hold none,
// so a reader that checks many projects for read protection (a request collection names
// hundreds) decodes only the few that do. A record that mentions "access" elsewhere answers
// true and costs its reader a decode, never a wrong answer; a missing project answers false.
func ProjectMayHide(tx kv.Tx, name string) bool {
	b := tx.Bucket([]byte(store.BuildProjects))
	if b == nil {
		return false
	}
	raw := b.Get([]byte(name))
	return raw != nil && bytes.Contains(raw, []byte(`"access"`))
}
