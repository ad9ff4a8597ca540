package cloudsvc

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"slices"
	"strconv"
	"time"

	"github.com/pocketforge/pocketforge/sqlengine"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// start serves t's instance: with a CA key (made now for a record from before instances were
// connectable), a server certificate for the host names clients use, on the port the record
// keeps (a new one, recorded, when it is taken or there is none yet).
func (e *engines) start(t sqlTarget) error {
	d := t.d
	sec, err := e.ensureCAKey(d, t.sec)
	if err != nil {
		return err
	}
	prefixes, err := sqlengine.ParseAllowList(d.AllowList)
	if err != nil {
		return e.refuse(d.ID, err)
	}
	// The certificate's validity is the real time's, not the appliance clock's: the clients
	// that check it read their own clock, and a demo may have moved the appliance's by days.
	cert, err := sqlengine.ServerCert(sec.CACert, sec.CAKey, e.certHosts(), time.Now())
	if err != nil {
		return err
	}
	inst := sqlengine.Instance{ID: d.ID, Version: d.Version, RootUser: d.RootUsername(), RootPassword: sec.Password, AllowList: prefixes,
		TLS: &tls.Config{Certificates: []tls.Certificate{cert}}, RequireTLS: d.SSLConnection}
	addr, err := e.startOnPort(inst, d.SQLPort)
	if err != nil && d.SQLPort != 0 && !errors.Is(err, sqlengine.ErrCapacity) {
		e.s.log.Warn("sqldb: the instance's port is taken; it gets a new one", "database", d.ID, "port", d.SQLPort, "err", err)
		addr, err = e.startOnPort(inst, 0)
	}
	if err != nil {
		return e.refuse(d.ID, err)
	}
	port := addr.(*net.TCPAddr).Port
	e.mu.Lock()
	e.running[d.ID] = &runningInstance{port: port, password: sec.Password, allow: slices.Clone(d.AllowList)}
	delete(e.refused, d.ID)
	e.mu.Unlock()
	if port != d.SQLPort {
		return e.s.db.Write(func(tx kv.Tx) error { return recordSQLPort(tx, d.ID, port) })
	}
	return nil
}

// refuse logs, once per instance until it starts, why it could not; a capacity shortage is no
// error of the reconcile (the record stays, its view shows no endpoint), anything else is.
func (e *engines) refuse(id uint64, err error) error {
	e.mu.Lock()
	first := !e.refused[id]
	e.refused[id] = true
	e.mu.Unlock()
	if errors.Is(err, sqlengine.ErrCapacity) {
		if first {
			e.s.log.Warn("sqldb: an active instance does not listen for lack of capacity (see --sqldb-max-instances, --sqldb-max-memory, --sqldb-ports)", "database", id, "err", err)
		}
		return nil
	}
	if !first {
		return nil
	}
	return err
}

// recordSQLPort keeps the port an instance listens on in its record.
func recordSQLPort(tx kv.Tx, id uint64, port int) error {
	d, err := cloudstore.GetDatabase(tx, id)
	if err != nil {
		return err
	}
	d.SQLPort = port
	return cloudstore.PutDatabase(tx, &d)
}

// ensureCAKey returns sec with a CA key: an instance made before keys were kept gets a new CA
// and key, stored, so its ssl view shows from now on the CA its certificate is signed by.
func (e *engines) ensureCAKey(d cloudstore.Database, sec cloudstore.DatabaseSecrets) (cloudstore.DatabaseSecrets, error) {
	if len(sec.CAKey) > 0 {
		return sec, nil
	}
	fresh, err := cloudstore.NewDatabaseSecrets(d.Label, time.Now()) // the one CA maker; its password is not used
	if err != nil {
		return sec, err
	}
	cert, key := fresh.CACert, fresh.CAKey
	err = e.s.db.Write(func(tx kv.Tx) error {
		cur, err := cloudstore.DatabaseSecretsOf(tx, d.ID)
		if err != nil {
			return err
		}
		if len(cur.CAKey) > 0 { // made meanwhile: keep that one
			sec = cur
			return nil
		}
		cur.CACert, cur.CAKey = cert, key
		sec = cur
		return cloudstore.PutDatabaseSecrets(tx, d.ID, cur)
	})
	return sec, err
}

// certHosts are the names a server certificate holds: --external-url's host (the one the
// view's hosts.primary shows), the listen address, and the loopback names a local client uses.
func (e *engines) certHosts() []string {
	hosts := []string{e.s.sqlHost()}
	for _, h := range []string{e.listen, "127.0.0.1", "::1", "localhost"} {
		if ip := net.ParseIP(h); ip != nil && ip.IsUnspecified() {
			continue
		}
		if !slices.Contains(hosts, h) {
			hosts = append(hosts, h)
		}
	}
	return hosts
}

// startOnPort starts inst on port, or when port is 0 on a new one: the first free port of
// --sqldb-ports that no running instance holds (issue 32: a container publishes that range), or
// any port the system picks when there is no range. A port outside the range (an old record's)
// is not kept: it could not be reached from outside a container.
func (e *engines) startOnPort(inst sqlengine.Instance, port int) (net.Addr, error) {
	lo, hi := e.s.opts.SQLPorts[0], e.s.opts.SQLPorts[1]
	if lo == 0 || port != 0 && port >= lo && port <= hi {
		inst.Addr = net.JoinHostPort(e.listen, strconv.Itoa(port))
		return e.mgr.Start(inst)
	}
	taken := map[int]bool{}
	e.mu.Lock()
	for _, r := range e.running {
		taken[r.port] = true
	}
	e.mu.Unlock()
	var last error
	for p := lo; p <= hi; p++ {
		if taken[p] {
			continue
		}
		inst.Addr = net.JoinHostPort(e.listen, strconv.Itoa(p))
		addr, err := e.mgr.Start(inst)
		if err == nil || errors.Is(err, sqlengine.ErrCapacity) {
			return addr, err
		}
		last = err // taken by another program: the next
	}
	return nil, fmt.Errorf("no free port in --sqldb-ports %d-%d: %w", lo, hi, errors.Join(sqlengine.ErrCapacity, last))
}
