package buildsvc

import (
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The instance-wide documents Admin maintains — the configuration, the hosted distributions,
// the issue trackers — are read as one record or list (viewOne) and all change the same way:
// Admin only, then the document, then its content rules, then the store (writeInstance).

// ViewOne runs one store read in a read transaction and returns what it read: the read path
// of every operation that only fetches a record or a list.
func ViewOne[T any](s *Service, read func(tx kv.Tx) (T, error)) (T, error) {
	var v T
	err := s.db.View(func(tx kv.Tx) (err error) { v, err = read(tx); return err })
	return v, err
}

// viewNamed is viewOne for the record get finds under name.
func viewNamed[T any](s *Service, get func(tx kv.Tx, name string) (T, error), name string) (T, error) {
	return ViewOne(s, func(tx kv.Tx) (T, error) { return get(tx, name) })
}

// urlKey gives a document without its key (a distribution's id, a tracker's name) the URL's,
// and refuses one naming another than the URL with code: "<what> in xml data ('x') does not
// match resource path component ('y')".
func urlKey(key *string, url, code, what string) error {
	if *key == "" {
		*key = url
	}
	if *key != url {
		return BadRequest(code, "%s in xml data ('%s') does not match resource path component ('%s')", what, *key, url)
	}
	return nil
}

// writeInstance runs one change of an instance-wide document by who: refused unless who is
// Admin (what names the change), then decodeErr (what the handler found wrong with the
// document), then check (the content rules; nil: none), then store in one write
// transaction. store may run twice (group commit).
func (s *Service) writeInstance(who buildstore.Person, what string, decodeErr error, check func() error, store func(tx kv.Tx) error) error {
	if err := AdminOnly(who, what); err != nil {
		return err
	}
	if decodeErr != nil {
		return decodeErr
	}
	if check != nil {
		if err := check(); err != nil {
			return err
		}
	}
	return s.db.Write(store)
}
