package buildstore

import (
	"sync/atomic"

	"github.com/pocketforge/pocketforge/store/kv"
)

// personsVersion counts the committed writes of person records in this process (of every data
// file it has open: a test process with many counts a few writes too many, which only costs a
// memory a miss). Memories of persons and of the passwords verified against them
// (buildsvc's sign-in memory) are valid for one value and forgotten when it moves.
var personsVersion atomic.Uint64

// PersonsVersion is the persons' version (see personsVersion). It moves after the commit, so a
// value read before a read transaction begins is never newer than what that transaction sees;
// a write has moved it by the time it returns to its caller.
func PersonsVersion() uint64 { return personsVersion.Load() }

// PersonsReplaced moves the persons' version for a write that bypasses PutPerson: a reset,
// reseed or restore that replaces the data wholesale.
func PersonsReplaced() { personsVersion.Add(1) }

// personWritten moves the persons' version once tx commits (a transaction that rolls back, or
// a group commit's member run again, leaves it alone).
func personWritten(tx kv.Tx) { tx.OnCommit(PersonsReplaced) }
