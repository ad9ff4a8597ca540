package resolve

import (
	"crypto/md5"
	"encoding/binary"
	"encoding/hex"
)

// StateHash returns the state of a build results answer (resultlist@state): 32 hex digits, an
// md5 like the build service's, of parts. osc results -w sends it back as oldstate= and the
// answer waits until the state differs, so parts must be everything a client sees, in the
// order it is shown: for each result its project, repository, arch, code, state, dirty flag,
// then for each package its name, code and details (and, with view=binarylist or summary, what
// those add). Then any visible change changes the hash, and nothing invisible does. (The build
// service hashes only the names and codes; hashing the details too also wakes a watcher when a
// blocked package's reason changes.) Each part is length-prefixed, so ("ab", "c") and
// ("a", "bc") differ.
func StateHash(parts ...string) string {
	h := md5.New()
	var n [binary.MaxVarintLen64]byte
	for _, p := range parts {
		h.Write(n[:binary.PutUvarint(n[:], uint64(len(p)))])
		h.Write([]byte(p))
	}
	return hex.EncodeToString(h.Sum(nil))
}
