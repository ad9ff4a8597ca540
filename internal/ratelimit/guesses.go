package ratelimit

import "time"

// Guesses throttles guesses at one secret that belongs to no user — the appliance's bootstrap
// token — by client IP, under one LockPolicy. A guess is checked first and then recorded
// together with its outcome in one step (Guess): the check of such a secret takes no time worth
// counting, so no attempts are left running in between. A right guess forgets the IP's failures
// (whoever holds the secret is not guessing it). Safe for concurrent use.
type Guesses struct {
	ips    *lockout
	counts counts
}

// Counts returns the wrong and refused guesses so far.
func (g *Guesses) Counts() Counts { return g.counts.load() }

// NewGuesses returns a throttle reading time from now (the appliance clock) under policy p.
func NewGuesses(now func() time.Time, p LockPolicy) *Guesses {
	return &Guesses{ips: newLockout(now, p)}
}

// Guess records one guess from ip that was right or wrong, or refuses it with a *LockedError
// while ip is locked — whether it was right or not, so the answer tells a guesser nothing until
// the lock has passed; a refused guess is not recorded.
func (g *Guesses) Guess(ip string, right bool) error {
	if wait := g.ips.settle(ip, !right); wait > 0 {
		g.counts.refused.Add(1)
		return &LockedError{RetryAfter: wait}
	}
	if !right {
		g.counts.failed.Add(1)
	}
	return nil
}

// settle is begin and end of one attempt of key in one step: how long key stays locked (the
// attempt is then not counted), or 0 after counting a failure (locking the key when the policy
// says so) or forgetting key after a success.
func (l *lockout) settle(key string, failed bool) time.Duration {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	st := l.keys[key]
	if st == nil {
		if !failed {
			return 0 // nothing to forget
		}
		st = l.add(key, now)
	}
	if st.stale(now, l.policy.Forget) {
		st.failures = 0
	}
	if w := st.wait(now); w > 0 {
		return w
	}
	if !failed {
		delete(l.keys, key)
		return 0
	}
	st.failures++
	st.last = now
	if d := l.policy.lockFor(st.failures); d > 0 {
		st.from, st.until = now, now.Add(d)
	}
	return 0
}
