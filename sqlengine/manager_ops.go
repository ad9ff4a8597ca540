package sqlengine

import (
	"fmt"
	"net/netip"
	"sync"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/sirupsen/logrus"
)

// get returns id's running instance, or nil.
func (m *Manager) get(id uint64) (*instance, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	return m.running[id], nil
}

// Stop suspends id: its listener and open connections close, its data stays in the Store.
// Stopping an instance that is not running does nothing.
func (m *Manager) Stop(id uint64) error {
	m.mu.Lock()
	in := m.running[id]
	if in != nil {
		delete(m.running, id)
		m.reserved -= in.limit
	}
	m.mu.Unlock()
	if in != nil {
		in.stop()
	}
	return nil
}

// Remove stops id and deletes its data (Store.Delete if the Store has it, else an empty save).
func (m *Manager) Remove(id uint64) error {
	if err := m.Stop(id); err != nil {
		return err
	}
	if d, ok := m.store.(Deleter); ok {
		return d.Delete(id)
	}
	return m.store.Save(id, nil)
}

// SetPassword makes pw the root password for id's new connections; the old one fails from now
// on (open sessions go on, as after MySQL's ALTER USER).
func (m *Manager) SetPassword(id uint64, pw string) error {
	in, err := m.get(id)
	if err != nil || in == nil {
		return orNotRunning(err)
	}
	in.acct.pw.Store(&pw)
	return nil
}

// SetAllowList replaces the prefixes id's new connections must come from (the rule is in
// allowlist.go; empty: nobody).
func (m *Manager) SetAllowList(id uint64, prefixes []netip.Prefix) error {
	in, err := m.get(id)
	if err != nil || in == nil {
		return orNotRunning(err)
	}
	list := append([]netip.Prefix(nil), prefixes...)
	in.allow.Store(&list)
	return nil
}

func orNotRunning(err error) error {
	if err != nil {
		return err
	}
	return ErrNotRunning
}

// Dump returns id's data as SQL text (see dump.go): from the engine if it runs, else from the
// Store, whose state is a dump already. An instance never started dumps as empty.
func (m *Manager) Dump(id uint64) ([]byte, error) {
	in, err := m.get(id)
	if err != nil {
		return nil, err
	}
	if in == nil {
		state, err := m.store.Load(id)
		return orEmpty(state), err
	}
	in.mu.RLock()
	defer in.mu.RUnlock()
	return in.eng.dump()
}

// Restore replaces all of id's data with dump's, running or not, and saves it before
// returning. A dump that does not load leaves the data as it was. Open sessions see the new
// data from their next statement.
func (m *Manager) Restore(id uint64, dump []byte) error {
	in, err := m.get(id)
	if err != nil {
		return err
	}
	if in == nil {
		return m.restoreStopped(id, dump)
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.stopped {
		return m.restoreStopped(id, dump)
	}
	if in.limit > 0 && int64(len(dump)) > in.limit {
		return fmt.Errorf("%w: a %d-byte dump does not fit instance %d's %d-byte memory bound", ErrCapacity, len(dump), id, in.limit)
	}
	prev, err := m.store.Load(id)
	if err != nil {
		return err
	}
	if err := in.eng.replace(dump, orEmpty(prev)); err != nil {
		return err
	}
	return in.persist()
}

// restoreStopped checks that dump loads, in an engine of its own, and saves what it holds.
func (m *Manager) restoreStopped(id uint64, dump []byte) error {
	e := newEngine()
	defer e.eng.Close()
	if err := e.load(dump); err != nil {
		return err
	}
	state, err := e.dump()
	if err != nil {
		return err
	}
	return m.store.Save(id, state)
}

// Close stops every instance; the Manager refuses all calls after it.
func (m *Manager) Close() error {
	m.mu.Lock()
	m.closed = true
	all := m.running
	m.running = map[uint64]*instance{}
	m.reserved = 0
	m.mu.Unlock()
	for _, in := range all {
		in.stop()
	}
	return nil
}

var quietOnce sync.Once

// quietEngine sets go-mysql-server's process-wide settings once: its logrus logging off but for
// fatal errors (it logs every connection, failed query and client hang-up, at levels up to
// error, all of them the clients' business; the Manager logs failed saves and recovered panics
// itself), and secure_file_priv to a directory that does not exist,
// so LOAD DATA INFILE, SELECT … INTO OUTFILE and LOAD_FILE() cannot touch the appliance's files.
func quietEngine() {
	quietOnce.Do(func() {
		logrus.SetLevel(logrus.FatalLevel)
		// AssignValues, not SetGlobal: secure_file_priv is read-only to SET, as in MySQL.
		if err := sql.SystemVariables.AssignValues(map[string]any{"secure_file_priv": noFileDir}); err != nil {
			panic("sqlengine: cannot fence off files: " + err.Error())
		}
	})
}

// noFileDir is secure_file_priv: no file lies in it.
const noFileDir = "/nonexistent/pocketforge-sqlengine-no-file-access"
