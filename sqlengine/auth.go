package sqlengine

import (
	"crypto/subtle"
	"crypto/x509"
	"net"
	"sync/atomic"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"
)

// account is an instance's one user: its root user and current password. The password is read
// at each handshake, so SetPassword takes effect for the next connection and the old password
// fails from then on; sessions already open are not cut (MySQL's ALTER USER does the same).
//
// It replaces go-mysql-server's own user table (mysql.user, left disabled) because the
// credentials are the API's, not the database's: they must not travel in dumps, a restore must
// not bring back an old password, and no SQL statement may change them behind the API's back.
// With that table disabled the engine checks no privileges: the root user may do everything.
//
// Its sign-ins go through the manager's Throttle when it has one (issue 32: the appliance
// throttles them as its other password sign-ins): while it says the user at that host, or the
// host, is locked, every attempt, the right password too, is refused with MySQL's
// ER_HOST_IS_BLOCKED (1129) and when to try again, without a check.
type account struct {
	user     string
	pw       atomic.Pointer[string]
	throttle Throttle // nil: none
}

// Throttle counts an instance's sign-ins (cloudsvc gives one over ratelimit.SignIns, with the
// appliance's policy).
type Throttle interface {
	// Begin starts a sign-in of user from host: locked > 0 refuses it (try again after
	// locked), else end must be called with whether the credentials were right.
	Begin(user, host string) (end func(ok bool), locked time.Duration)
}

// newAccount is user's account with password pw, throttled by t (nil: not throttled).
func newAccount(user, pw string, t Throttle) *account {
	a := &account{user: user, throttle: t}
	a.pw.Store(&pw)
	return a
}

// check runs one sign-in of user from addr through the throttle: ok says whether the
// credentials were right (called only when nothing is locked). It returns the refusal to send,
// or nil.
func (a *account) check(user string, addr net.Addr, ok func() bool) error {
	if a.throttle == nil {
		if !ok() {
			return denied(user, addr)
		}
		return nil
	}
	host := hostOf(addr)
	end, locked := a.throttle.Begin(user, host)
	if locked > 0 {
		return mysql.NewSQLError(mysql.ERHostIsBlocked, mysql.SSUnknownSQLState,
			"Host '%s' is blocked because of many connection errors; try again in %d seconds", host,
			max(int((locked+time.Second-1)/time.Second), 1))
	}
	right := ok()
	end(right)
	if !right {
		return denied(user, addr)
	}
	return nil
}

// hostOf is the address's host.
func hostOf(addr net.Addr) string {
	host, _, err := net.SplitHostPort(addr.String())
	if err != nil {
		return addr.String()
	}
	return host
}

// authServer serves mysql_native_password (the default, which every client speaks) and
// caching_sha2_password (MySQL 8's default; vitess offers it only over TLS).
type authServer struct {
	methods []mysql.AuthMethod
}

func newAuthServer(acct *account) *authServer {
	v := anyUser{}
	return &authServer{methods: []mysql.AuthMethod{
		mysql.NewMysqlNativeAuthMethod(nativeCheck{acct}, v),
		mysql.NewSha2CachingAuthMethod(sha2Check{acct}, plainCheck{acct}, v),
	}}
}

func (a *authServer) AuthMethods() []mysql.AuthMethod { return a.methods }

func (a *authServer) DefaultAuthMethodDescription() mysql.AuthMethodDescription {
	return mysql.MysqlNativePassword
}

// anyUser lets every user name reach the password check, so an unknown user gets the same
// "Access denied" as a wrong password instead of a method negotiation error.
type anyUser struct{}

func (anyUser) HandleUser(string, net.Addr) bool { return true }

// denied is MySQL's ER_ACCESS_DENIED_ERROR, worded as MySQL words it.
func denied(user string, addr net.Addr) error {
	host, _, _ := net.SplitHostPort(addr.String())
	return mysql.NewSQLError(mysql.ERAccessDeniedError, mysql.SSAccessDeniedError,
		"Access denied for user '%s'@'%s' (using password: YES)", user, host)
}

// who is the engine's record of the connected user.
func who(user string, addr net.Addr) mysql.Getter {
	host, _, _ := net.SplitHostPort(addr.String())
	return sql.MysqlConnectionUser{User: user, Host: host}
}

// match compares user and password in constant time (for the password).
func (a *account) match(user string, pw []byte) bool {
	cur := *a.pw.Load()
	return user == a.user && subtle.ConstantTimeCompare(pw, []byte(cur)) == 1
}

type nativeCheck struct{ a *account }

func (c nativeCheck) UserEntryWithHash(_ []*x509.Certificate, salt []byte, user string, resp []byte, addr net.Addr) (mysql.Getter, error) {
	if err := c.a.check(user, addr, func() bool {
		want := mysql.ScrambleMysqlNativePassword(salt, []byte(*c.a.pw.Load()))
		return user == c.a.user && subtle.ConstantTimeCompare(resp, want) == 1
	}); err != nil {
		return nil, err
	}
	return who(user, addr), nil
}

type sha2Check struct{ a *account }

func (c sha2Check) UserEntryWithCacheHash(_ []*x509.Certificate, salt []byte, user string, resp []byte, addr net.Addr) (mysql.Getter, mysql.CacheState, error) {
	if err := c.a.check(user, addr, func() bool {
		want := mysql.ScrambleCachingSha2Password(salt, []byte(*c.a.pw.Load()))
		return user == c.a.user && subtle.ConstantTimeCompare(resp, want) == 1
	}); err != nil {
		return nil, mysql.AuthRejected, err
	}
	return who(user, addr), mysql.AuthAccepted, nil
}

type plainCheck struct{ a *account }

func (c plainCheck) UserEntryWithPassword(_ []*x509.Certificate, user, pw string, addr net.Addr) (mysql.Getter, error) {
	if err := c.a.check(user, addr, func() bool { return c.a.match(user, []byte(pw)) }); err != nil {
		return nil, err
	}
	return who(user, addr), nil
}
