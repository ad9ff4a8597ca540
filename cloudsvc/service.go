// Package cloudsvc is the cloud API's domain: the operations on users, grants, tokens, OAuth
// clients, databases, transfers and billing, each in the one transaction that makes it whole
// (the record, its e-mails and its event), the rules that say yes or no to them, and the
// clock-driven jobs that move databases, transfers and invoices along. Handlers in api/cloudapi,
// fixtures, CLI commands and workers call it; it knows nothing of HTTP. Key layout and the typed
// accessors stay in store/cloudstore.
package cloudsvc

import (
	"crypto/sha256"
	"log/slog"
	"time"

	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/internal/ratelimit"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// DefaultTransferDelay is how long after acceptance a transfer's instances move when
// Options.TransferDelay is not set: a few seconds, so a demo sees it happen (the real service
// takes up to three hours).
const DefaultTransferDelay = 5 * time.Second

// DefaultDatabaseProvisionTime is how long a new database provisions when
// Options.DatabaseProvisionTime is not set: half a minute, so a demo sees it happen (the real
// service: 15 to 30 minutes).
const DefaultDatabaseProvisionTime = 30 * time.Second

// Options are the settings of the cloud domain that come from the appliance's configuration.
type Options struct {
	// TransferDelay is how long after acceptance a service transfer completes (0: the default).
	TransferDelay time.Duration
	// DatabaseProvisionTime is how long a new managed database stays provisioning (0: the
	// default).
	DatabaseProvisionTime time.Duration
	// ExternalURL is the base of every absolute URL the domain writes (the password-setup link
	// of a welcome e-mail); nil means none is known and links are relative.
	ExternalURL func() string
	// SQLListen is the IP address connectable sqldb (mysql) instances bind ("" keeps every
	// instance a simulated record, as tests and a domain nobody closes want); SQLMaxInstances
	// and SQLMaxMemory bound them (see databases_engines.go).
	SQLListen       string
	SQLMaxInstances int
	SQLMaxMemory    int64
	// SQLPorts is the lowest and highest port instances take (--sqldb-ports); zero: any free
	// port the system picks.
	SQLPorts [2]int
	// Leads says whether this node runs the sqldb listeners (on a shared store, the node holding
	// the singletons' lease; nil: always). A node that does not lead stops its listeners at its
	// next reconcile, and shows the leader's endpoints (LeaderEndpoints).
	Leads func() bool
	// LeaderEndpoints are the ports the leading node's instances listen on and the host its
	// clients reach them at, for a node that does not lead (nil: none known).
	LeaderEndpoints func() (host string, ports map[uint64]int)
}

// Service runs the cloud domain's operations on one store, reading the time from one clock
// (so the dev clock moves tokens, transfers and databases along).
type Service struct {
	db   *store.DB
	clk  clock.Clock
	log  *slog.Logger
	opts Options
	// accountUsers caches each account's users until the next committed write (store.Memo).
	accountUsers *store.Memo[uint64, []cloudstore.User]
	// dbLists caches an account's databases per family, dbCatalog the database catalogue (both
	// until the next committed write).
	dbLists   *store.Memo[dbListKey, []cloudstore.Database]
	dbCatalog *store.Memo[struct{}, cloudstore.DatabaseCatalog]
	// callers caches the caller behind each token hash (Authenticate) until the next committed
	// write.
	callers *store.Memo[[sha256.Size]byte, *Caller]
	// signIns throttles the login server's failed sign-ins (oauth_codes.go's policy).
	signIns *ratelimit.SignIns
	// records and notices cache each account's record and notifications until a committed
	// write or the clock moves them (clockCache).
	records *clockCache[uint64, *AccountRecord]
	notices *clockCache[uint64, []accountNotice]
	// codec keeps accounts decoded by their stored bytes for the settings write (accountCodec).
	codec *accountCodec
	// sql runs the connectable sqldb instances (nil: off).
	sql *engines
}

// New returns the cloud domain on db.
func New(db *store.DB, clk clock.Clock, log *slog.Logger, opts Options) *Service {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Service{db: db, clk: clk, log: log, opts: opts,
		accountUsers: store.NewMemo[uint64, []cloudstore.User](db),
		dbLists:      store.NewMemo[dbListKey, []cloudstore.Database](db),
		dbCatalog:    store.NewMemo[struct{}, cloudstore.DatabaseCatalog](db),
		callers:      store.NewMemo[[sha256.Size]byte, *Caller](db),
		signIns:      ratelimit.NewSignIns(clk.Now, loginLockPolicy, ipLockPolicy),
		records:      newClockCache[uint64, *AccountRecord](db),
		notices:      newClockCache[uint64, []accountNotice](db),
		codec:        newAccountCodec(),
	}
	s.sql = newEngines(s)
	return s
}

// Close stops what the domain runs besides the store: the sqldb instances' listeners. serve
// calls it after the HTTP app has stopped and before the store closes.
func (s *Service) Close() error {
	if s.sql == nil {
		return nil
	}
	return s.sql.mgr.Close()
}

// Now is the domain's present time (the appliance clock).
func (s *Service) Now() time.Time { return s.clk.Now() }

// transferDelay is the configured completion delay of an accepted transfer.
func (s *Service) transferDelay() time.Duration {
	if s.opts.TransferDelay <= 0 {
		return DefaultTransferDelay
	}
	return s.opts.TransferDelay
}

// provisionTime is the configured provisioning time of a new database.
func (s *Service) provisionTime() time.Duration {
	if s.opts.DatabaseProvisionTime <= 0 {
		return DefaultDatabaseProvisionTime
	}
	return s.opts.DatabaseProvisionTime
}

// externalURL is the base of absolute URLs ("" when none is configured).
func (s *Service) externalURL() string {
	if s.opts.ExternalURL == nil {
		return ""
	}
	return s.opts.ExternalURL()
}
