package ratelimit

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/crypto/bcrypt"
)

// LockPolicy is how a key (a user, a client IP) is throttled after failed sign-ins: Free
// failures in a row are answered as wrong passwords; the Free-th locks the key for First, and
// every failure after a lock has passed locks it for twice as long as the one before, up to Max.
// A key with no failure for Forget starts afresh, and a successful sign-in of a user forgets
// that user's failures. The domains own the numbers (buildsvc, cloudsvc); this package only
// counts.
type LockPolicy struct {
	Free   int
	First  time.Duration
	Max    time.Duration
	Forget time.Duration
}

// lockFor returns how long the failures-th failure in a row locks the key: 0 below Free, then
// First doubled once per failure past Free, at most Max.
func (p LockPolicy) lockFor(failures int) time.Duration {
	if failures < p.Free || p.Free <= 0 {
		return 0
	}
	d := p.First
	for i := p.Free; i < failures && d < p.Max; i++ {
		d *= 2
	}
	return min(d, p.Max)
}

// LockedError refuses a sign-in of a locked user or from a locked client IP, whatever the
// password: an API answers it with 429 and Retry-After.
type LockedError struct {
	// RetryAfter is the time until the lock passes, > 0.
	RetryAfter time.Duration
}

func (e *LockedError) Error() string {
	return fmt.Sprintf("Too many failed sign-ins. Try again in %d seconds.", e.Seconds())
}

// Seconds is RetryAfter rounded up to whole seconds (at least 1), the Retry-After header's value.
func (e *LockedError) Seconds() int {
	return max(int((e.RetryAfter+time.Second-1)/time.Second), 1)
}

// maxLockKeys bounds the keys a lockout remembers; see lockout.add.
const maxLockKeys = 100_000

// maxQueue is how long an attempt waits for a turn (see SignIns) before it is refused as if
// locked for a second. Turns pass as checks end, so it bounds only a wait behind checks that
// all run slow: a burst of a hundred right passwords passes, five bcrypt runs at a time, even
// on a busy machine under the race detector, and a client is always answered.
const maxQueue = time.Minute

// SignIns throttles password sign-ins by user at a client address and by client address, in
// memory (a restart forgets the failures, as it forgets the rate-limit windows). A user's
// failures lock that user at that address only: five wrong passwords from a guesser's machine
// do not lock the user out of every other one, Admin included (issue 32). A user's failures
// from every address together only slow their sign-ins (userSlow: past 20 in a row, each
// attempt waits a second first), never refuse them, so a guesser spread over many addresses
// gets little more than one guess a second at a user, and the user still signs in. A sign-in is Begun (refused with a
// *LockedError while either key is locked), then Ended with its outcome; one whose password
// was verified before and is remembered by the caller is Admitted instead. Only failures
// count: a key may have as many password checks running at once as it has failures left
// before its next lock (one once it has been locked), and an attempt past that WAITS for a
// running one to end rather than being refused — a success frees the waiters (it ends the
// user's count), a failure may lock the key and refuse them. So a client sending many sign-ins
// at once with the right password gets them all through, while a guesser who sends many at
// once gets no more bcrypt runs than one who waits for each answer. Safe for concurrent use.
type SignIns struct {
	// pairs lock a user at one address (the domain's user policy), ips an address, users
	// only slow (userSlow).
	pairs, ips, users *lockout
	counts            counts
	// queue bounds an attempt's wait for a turn (maxQueue; tests shorten it).
	queue time.Duration
	// sleep waits out userSlow (tests count instead).
	sleep func(time.Duration)
}

// Counts are a throttle's totals since it was made, for the metrics: neither Reset nor a
// restore clears them, as a Prometheus counter never goes back.
type Counts struct {
	// Failed are sign-ins (or guesses) that were tried and wrong.
	Failed uint64
	// Refused are attempts turned away unchecked because the user or client IP was locked.
	Refused uint64
}

// counts are the atomics behind Counts.
type counts struct{ failed, refused atomic.Uint64 }

func (c *counts) load() Counts { return Counts{Failed: c.failed.Load(), Refused: c.refused.Load()} }

// Counts returns the failed and refused sign-ins so far.
func (s *SignIns) Counts() Counts { return s.counts.load() }

// NewSignIns returns a throttle reading time from now (the appliance clock, so moving the dev
// clock ends a lock), with one policy per user and one per client IP.
func NewSignIns(now func() time.Time, users, ips LockPolicy) *SignIns {
	return &SignIns{pairs: newLockout(now, users), ips: newLockout(now, ips), users: newLockout(now, userSlow),
		queue: maxQueue, sleep: time.Sleep}
}

// userSlow is how a user's failures from every address together slow their sign-ins: from the
// Free-th failure in a row on, each attempt waits First (at most maxSlow of it) before its check.
var userSlow = LockPolicy{Free: 20, First: time.Second, Max: time.Second, Forget: 15 * time.Minute}

// maxSlow bounds the wait userSlow puts before one attempt.
const maxSlow = time.Second

// pairKey is the key of user at ip ("" ip: the user alone, for a caller that has no address).
func pairKey(user, ip string) string {
	if ip == "" {
		return user
	}
	return user + "\x00" + ip
}

// Attempt is one sign-in under way; End it exactly once.
type Attempt struct {
	s              *SignIns
	user, ip, pair string
}

// Begin starts a sign-in of user from ip, or refuses it with a *LockedError when the user or
// the IP is locked. While the user or the IP has as many checks running as it has failures
// left, Begin waits for one of them to end (see maxQueue; past it, it refuses with Retry-After
// 1 s).
// user is compared as given; a domain whose logins ignore case passes it lowered. An empty ip
// is not throttled by IP (a caller that has none).
func (s *SignIns) Begin(user, ip string) (*Attempt, error) {
	give := time.Now().Add(s.queue)
	pair := pairKey(user, ip)
	if wait := s.pairs.begin(pair, give); wait > 0 {
		s.counts.refused.Add(1)
		return nil, &LockedError{RetryAfter: wait}
	}
	if ip != "" {
		if wait := s.ips.begin(ip, give); wait > 0 {
			s.pairs.end(pair, outcomeNone)
			s.counts.refused.Add(1)
			return nil, &LockedError{RetryAfter: wait}
		}
	}
	if wait := s.users.locked(user); wait > 0 { // slowed, never refused
		s.sleep(min(wait, maxSlow))
	}
	return &Attempt{s: s, user: user, ip: ip, pair: pair}, nil
}

// Admit lets in a sign-in of user from ip whose password the caller verified before and
// remembers (no check runs, so it takes no turn): refused with a *LockedError while the user
// or the IP is locked, exactly as Begin is; otherwise a success, which ends the user's count.
func (s *SignIns) Admit(user, ip string) error {
	wait := s.pairs.locked(pairKey(user, ip))
	if wait == 0 && ip != "" {
		wait = s.ips.locked(ip)
	}
	if wait > 0 {
		s.counts.refused.Add(1)
		return &LockedError{RetryAfter: wait}
	}
	s.pairs.forgive(pairKey(user, ip))
	s.users.forgive(user)
	return nil
}

// End records the outcome: a failure counts against the user and the IP; a success forgives
// the user's failures but not the IP's, so a guesser cannot wipe their IP's record by signing
// in to an account of their own between guesses.
func (a *Attempt) End(ok bool) {
	if !ok {
		a.s.counts.failed.Add(1)
		a.s.pairs.end(a.pair, outcomeFailed)
		a.s.users.count(a.user, outcomeFailed)
	} else {
		a.s.pairs.end(a.pair, outcomeForgiven)
		a.s.users.forgive(a.user)
	}
	if a.ip != "" {
		if ok {
			a.s.ips.end(a.ip, outcomeNone)
		} else {
			a.s.ips.end(a.ip, outcomeFailed)
		}
	}
}

// Reset forgets every failure and lock (attempts waiting for a turn look again).
func (s *SignIns) Reset() {
	s.pairs.reset()
	s.ips.reset()
	s.users.reset()
}

// lockout counts the failures of keys under one policy.
type lockout struct {
	now    func() time.Time
	policy LockPolicy
	mu     sync.Mutex
	keys   map[string]*strikes
}

// strikes is one key's record.
type strikes struct {
	failures int       // failures in a row
	running  int       // attempts begun and not ended
	last     time.Time // the last failure
	from     time.Time // the current lock's start
	until    time.Time // the current lock's end (zero: never locked)
	// turn is closed when a running attempt ends or the failures are forgiven, waking the
	// attempts waiting for a turn; nil while nobody waits.
	turn chan struct{}
}

func newLockout(now func() time.Time, p LockPolicy) *lockout {
	return &lockout{now: now, policy: p, keys: map[string]*strikes{}}
}

// wait returns how long st stays locked at now: 0 when not locked. A lock whose start lies
// after now (the clock was set back) is over, as the rate-limit windows are.
func (st *strikes) wait(now time.Time) time.Duration {
	if now.Before(st.from) || !now.Before(st.until) {
		return 0
	}
	return st.until.Sub(now)
}

// stale reports whether st can be forgotten at now: nothing running, not locked, and its last
// failure Forget ago (or in the future, after a clock set back).
func (st *strikes) stale(now time.Time, forget time.Duration) bool {
	return st.running == 0 && st.wait(now) == 0 && (now.Sub(st.last) >= forget || now.Before(st.last))
}

// wake lets the attempts waiting on st look again.
func (st *strikes) wake() {
	if st.turn != nil {
		close(st.turn)
		st.turn = nil
	}
}

// begin counts a running attempt of key once it may run: at once when key has fewer checks
// running than failures left before its next lock (at least one), else after waiting for a
// running one to end. It returns how long key is locked (0: it runs); a wait that reaches give
// answers 1 s.
func (l *lockout) begin(key string, give time.Time) time.Duration {
	for {
		now := l.now()
		l.mu.Lock()
		st := l.keys[key]
		if st == nil {
			st = l.add(key, now)
		}
		if st.stale(now, l.policy.Forget) {
			st.failures = 0
		}
		if w := st.wait(now); w > 0 {
			l.mu.Unlock()
			return w
		}
		if l.policy.Free <= 0 || st.running < max(l.policy.Free-st.failures, 1) {
			st.running++
			l.mu.Unlock()
			return 0
		}
		if st.turn == nil {
			st.turn = make(chan struct{})
		}
		turn := st.turn
		l.mu.Unlock()
		left := time.Until(give)
		if left <= 0 {
			return time.Second
		}
		timer := time.NewTimer(left)
		select {
		case <-turn:
			timer.Stop()
		case <-timer.C:
			return time.Second
		}
	}
}

// locked returns how long key is locked (0: not locked), counting nothing.
func (l *lockout) locked(key string) time.Duration {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if st := l.keys[key]; st != nil {
		return st.wait(now)
	}
	return 0
}

// outcome is what end records of an attempt.
type outcome int

const (
	outcomeNone     outcome = iota // no check ran (refused by the other key), or a success that forgives nothing (an IP)
	outcomeFailed                  // a wrong password: counts, and may lock
	outcomeForgiven                // a success that ends the key's count (a user)
)

// end ends a running attempt of key with its outcome, locking the key when the policy says so,
// and wakes the attempts waiting for a turn.
func (l *lockout) end(key string, o outcome) {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	st := l.keys[key]
	if st == nil {
		return
	}
	if st.running > 0 {
		st.running--
	}
	st.wake()
	switch o {
	case outcomeForgiven:
		st.failures, st.from, st.until = 0, time.Time{}, time.Time{}
	case outcomeFailed:
		st.failures++
		st.last = now
		if d := l.policy.lockFor(st.failures); d > 0 {
			st.from, st.until = now, now.Add(d)
		}
	}
}

// count records an outcome of key that ran no attempt through begin (a user's failures from
// every address, which only slow).
func (l *lockout) count(key string, o outcome) {
	l.mu.Lock()
	if l.keys[key] == nil {
		l.add(key, l.now())
	}
	st := l.keys[key]
	if st.stale(l.now(), l.policy.Forget) {
		st.failures = 0
	}
	st.running++ // end takes it back
	l.mu.Unlock()
	l.end(key, o)
}

// forgive drops key's failures after a successful sign-in, and wakes the attempts waiting for
// a turn: the key has its free failures again.
func (l *lockout) forgive(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if st := l.keys[key]; st != nil {
		st.failures, st.from, st.until = 0, time.Time{}, time.Time{}
		st.wake()
	}
}

// add remembers a new key. At maxLockKeys it first drops the stale keys, then, if a flood of
// distinct names or addresses still fills the map, every key that is not locked (their counts
// restart; locks stand), and as a last resort everything: memory stays bounded, and a guesser
// must spend a bcrypt run per entry to get there. A key dropped with attempts waiting wakes
// them: they look again and find a fresh record.
func (l *lockout) add(key string, now time.Time) *strikes {
	if len(l.keys) >= maxLockKeys {
		l.drop(func(st *strikes) bool { return st.stale(now, l.policy.Forget) })
	}
	if len(l.keys) >= maxLockKeys {
		l.drop(func(st *strikes) bool { return st.running == 0 && st.wait(now) == 0 })
	}
	if len(l.keys) >= maxLockKeys {
		l.drop(func(*strikes) bool { return true })
	}
	st := &strikes{}
	l.keys[strings.Clone(key)] = st
	return st
}

// drop deletes the keys gone says so of, waking their waiters.
func (l *lockout) drop(gone func(*strikes) bool) {
	for k, st := range l.keys {
		if gone(st) {
			st.wake()
			delete(l.keys, k)
		}
	}
}

func (l *lockout) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.drop(func(*strikes) bool { return true })
}

// dummyHash is a bcrypt hash, at the cost every stored password uses (bcrypt.DefaultCost), of
// a password nobody types.
var dummyHash = []byte("$2a$10$Fb9PsOLHwshz3f2jUsXJBO5jbmcVoYDHqYwhKljVQGHOeXIT7Bjpq")

// WastePasswordCheck runs bcrypt on password against a fixed hash and throws the answer away.
// A domain calls it for a login that names nobody (or a user with no password yet), so that
// the answer takes as long as a wrong password does and its timing does not tell which users
// exist.
func WastePasswordCheck(password string) {
	_ = bcrypt.CompareHashAndPassword(dummyHash, []byte(password))
}
