package appliancesvc

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
	"github.com/pocketforge/pocketforge/store/outbox"
)

// World is the demo world Reset and Reseed write: Empty empties the data, Reseed empties it and
// loads the demo world at now, naming the sets it applied. The wiring hands the fixtures'
// (domains.DemoWorld): the demo world is loaded through the domains, a floor above this one.
type World struct {
	Empty  func(kv.Tx) error
	Reseed func(tx kv.Tx, now time.Time) ([]string, error)
}

// errNoWorld refuses a reset or reseed of an appliance given no demo world (a test's).
var errNoWorld = errors.New("no demo world to reset or reseed with")

// Reset empties the data (a restart keeps it empty), then runs the replace hook. Appliance
// state — the bootstrap token, the admin password, the clock — is kept.
func (s *Service) Reset() error {
	if s.world.Empty == nil {
		return errNoWorld
	}
	if err := s.db.Exclusive(s.world.Empty); err != nil {
		return fmt.Errorf("reset: %w", err)
	}
	s.onReplace()
	return nil
}

// Reseed empties the data and loads the demo world again at the appliance's time, then runs
// the replace hook; it returns the fixture sets applied.
func (s *Service) Reseed() ([]string, error) {
	if s.world.Reseed == nil {
		return nil, errNoWorld
	}
	var applied []string
	err := s.db.Exclusive(func(tx kv.Tx) (err error) {
		applied, err = s.world.Reseed(tx, s.now())
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("reseed: %w", err)
	}
	s.onReplace()
	return applied, nil
}

// Restore replaces the data with the snapshot read from r (at most limit bytes; store.DB.Restore
// checks it whole first and leaves the data untouched when it is refused), then runs the
// replace hook.
func (s *Service) Restore(r io.Reader, limit int64) (store.RestoreInfo, error) {
	info, err := s.db.Restore(r, limit)
	if err != nil {
		return info, err
	}
	s.onReplace()
	return info, nil
}

// Snapshot writes a consistent copy of the live data file to w while writes go on; it is a data
// file itself (--data, import, restore).
func (s *Service) Snapshot(w io.Writer) error {
	_, _, err := s.db.Snapshot(w)
	return err
}

// SnapshotName is the file name a snapshot taken now is offered under.
func (s *Service) SnapshotName() string {
	return "pocketforge-" + s.now().Format("20060102-150405") + ".db"
}

// SchemaVersion is the schema version a snapshot carries (the X-Pocketforge-Schema-Version
// header of a download).
func SchemaVersion() string { return strconv.FormatUint(store.SchemaVersion(), 10) }

// Outbox returns the e-mails the APIs sent to address (all when empty), newest first, at most
// limit (all when 0).
func (s *Service) Outbox(address string, limit int) ([]outbox.Mail, error) {
	var mails []outbox.Mail
	err := s.db.View(func(tx kv.Tx) (err error) {
		mails, err = outbox.List(tx, address, limit)
		return err
	})
	return mails, err
}

// Mail returns one sent e-mail by id; a NotFound fault when there is none (never sent, or the
// outbox was cleared or the data replaced since).
func (s *Service) Mail(id uint64) (outbox.Mail, error) {
	var m outbox.Mail
	err := s.db.View(func(tx kv.Tx) (err error) {
		m, err = store.Get[outbox.Mail](tx, store.BucketOutbox, store.Itob(id))
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return m, fault.NotFound("", "no e-mail %d in the outbox", id)
	}
	return m, err
}

// ClearOutbox deletes every e-mail (ids are never reused).
func (s *Service) ClearOutbox() error { return s.db.Write(outbox.Clear) }
