package buildsvc

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"sync"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// signInMemory remembers, per process, the person records read for sign-ins and the
// credentials verified against them, so a repeated Basic sign-in (osc, a CI bot, the /obs
// proxy's explorer user) costs a hash and a map lookup: no bcrypt run, no record decode.
// Everything in it belongs to one value of buildstore.PersonsVersion and is forgotten when it
// moves — any committed person write (a password, a state, a role: PutPerson is the one writer)
// and every reset, reseed or restore (Service.Replaced) — so a password change, a lock or a
// deletion takes effect on the next request. A credential is remembered by a SHA-256 of a
// per-process random secret, the login's length, the login, a NUL and the password: the
// password itself is never kept, and the hash is of no use outside this process.
type signInMemory struct {
	secret  [32]byte
	mu      sync.RWMutex
	version uint64                       // the persons' version everything below was read at
	people  map[string]buildstore.Person // login → record
	creds   map[[32]byte]string          // verified credential → its login
}

// maxRemembered bounds each map: past it, the memory starts afresh.
const maxRemembered = 10_000

func newSignInMemory() *signInMemory {
	m := &signInMemory{people: map[string]buildstore.Person{}, creds: map[[32]byte]string{}}
	_, _ = rand.Read(m.secret[:]) // never fails (crypto/rand panics rather)
	return m
}

// credential is what a login and password are remembered by.
func (m *signInMemory) credential(login, password string) [32]byte {
	var buf [160]byte // most credentials fit: no allocation
	b := binary.AppendUvarint(append(buf[:0], m.secret[:]...), uint64(len(login)))
	b = append(append(append(b, login...), 0), password...)
	return sha256.Sum256(b)
}

// verified returns the record of the person whose credential cred is, when it was verified at
// the current persons' version.
func (m *signInMemory) verified(cred [32]byte, login string) (buildstore.Person, bool) {
	v := buildstore.PersonsVersion()
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.version != v || m.creds[cred] != login {
		return buildstore.Person{}, false
	}
	p, ok := m.people[login]
	return p, ok
}

// person reads login's record, from memory when it was read at the current persons' version;
// it returns the version the record is valid for.
func (m *signInMemory) person(db *store.DB, login string) (buildstore.Person, uint64, error) {
	v := buildstore.PersonsVersion()
	m.mu.RLock()
	p, ok := m.people[login]
	fresh := m.version == v
	m.mu.RUnlock()
	if ok && fresh {
		return p, v, nil
	}
	err := db.View(func(tx kv.Tx) (err error) { p, err = buildstore.GetPerson(tx, login); return })
	if err != nil {
		return p, v, err // a login that names nobody is not remembered: guesses must not fill memory
	}
	m.remember(v, p, nil)
	return p, v, nil
}

// remember keeps p (and cred, when not nil, as verified for p) as read at version v: a memory
// already at a newer version keeps its own, an older one is forgotten first.
func (m *signInMemory) remember(v uint64, p buildstore.Person, cred *[32]byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.version != v {
		if m.version > v {
			return
		}
		m.forget(v)
	}
	if len(m.people) >= maxRemembered || len(m.creds) >= maxRemembered {
		m.forget(v)
	}
	m.people[p.Login] = p
	if cred != nil {
		m.creds[*cred] = p.Login
	}
}

// forget empties the memory for version v; m.mu is held.
func (m *signInMemory) forget(v uint64) {
	clear(m.people)
	clear(m.creds)
	m.version = v
}
