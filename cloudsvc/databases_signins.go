package cloudsvc

import (
	"time"

	"github.com/pocketforge/pocketforge/internal/ratelimit"
	"github.com/pocketforge/pocketforge/sqlengine"
)

// The managed databases' sign-ins are throttled as the login server's are (issue 32: twelve
// wrong passwords and then the right one used to connect): wrong passwords lock the user at the
// guessing host (loginLockPolicy), a host over any users after ipLockPolicy's failures, and a
// user's failures from every host together only slow. Each instance's listener has a throttle
// of its own, timed by the appliance clock, forgotten when the listener restarts.
func (s *Service) sqlThrottle() sqlengine.Throttle {
	return sqlThrottle{ratelimit.NewSignIns(s.clk.Now, loginLockPolicy, ipLockPolicy)}
}

// sqlThrottle is ratelimit.SignIns as sqlengine asks for it.
type sqlThrottle struct{ s *ratelimit.SignIns }

func (t sqlThrottle) Begin(user, host string) (func(ok bool), time.Duration) {
	a, err := t.s.Begin(user, host)
	if err != nil {
		if locked, ok := err.(*ratelimit.LockedError); ok {
			return nil, locked.RetryAfter
		}
		return nil, time.Second
	}
	return a.End, 0
}
