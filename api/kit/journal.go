package kit

import (
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"
)

// Entry is one request in the journal. Bodies and headers other than the user agent are not
// kept: they may hold passwords and tokens.
type Entry struct {
	ID         string    `json:"id"`
	Time       time.Time `json:"time"`
	API        string    `json:"api"`
	Method     string    `json:"method"`
	Path       string    `json:"path"`
	Query      string    `json:"query,omitempty"`
	Status     int       `json:"status"`
	DurationMS float64   `json:"duration_ms"`
	RemoteIP   string    `json:"remote_ip"`
	UserAgent  string    `json:"user_agent,omitempty"`
	BytesIn    int       `json:"bytes_in"`
	BytesOut   int       `json:"bytes_out"`
	// User, TokenID and TokenPrefix say who the request authenticated as (Caller); empty for
	// an anonymous request or a refused credential.
	User        string `json:"user,omitempty"`
	TokenID     uint64 `json:"token_id,omitempty"`
	TokenPrefix string `json:"token_prefix,omitempty"`
	// Fault is the chaos rule that hit the request ("rule 0: 503 after 100ms"), if any.
	Fault string `json:"fault,omitempty"`
	// Curl is a command line that sends the request again (List fills it from Replay),
	// credentials masked.
	Curl string `json:"curl"`
	// Replay is what of the request's head the curl line needs, credentials reduced to their
	// form (ReplayOf); not shown itself.
	Replay Replay `json:"-"`
}

// Journal is a bounded in-memory ring of the latest requests (WireMock's request journal, for
// "what did my client just send?"). It is not persisted: it describes this process's traffic.
//
// Every request adds an entry, so adding one costs no allocation once the ring has gone round:
// each slot keeps the bytes of its entry's strings in a buffer of its own, which the next entry
// in that slot overwrites; List, which is rare, hands out copies.
type Journal struct {
	mu      sync.Mutex
	base    string // the external URL the curl lines address (SetExternalURL)
	entries []slot
	next    int // index of the slot the next entry goes to
	full    bool
}

// slot is one entry of the ring; the entry's strings view buf.
type slot struct {
	e   Entry
	buf []byte
}

// NewJournal returns a journal that keeps the last size requests; size 0 keeps none.
func NewJournal(size int) *Journal { return &Journal{entries: make([]slot, size)} }

// Add records e, dropping the oldest entry when full. Its strings are copied: they may view
// buffers of the request that the server reuses once the request is answered.
func (j *Journal) Add(e Entry) {
	if len(j.entries) == 0 {
		return
	}
	r := &e.Replay
	n := len(e.ID) + len(e.API) + len(e.Method) + len(e.Path) + len(e.Query) + len(e.RemoteIP) + len(e.UserAgent) +
		len(e.User) + len(e.TokenPrefix) + len(e.Fault) + len(e.Curl) +
		len(r.Auth) + len(r.BasicUser) + len(r.ContentType) + len(r.Accept) + len(r.XFilter)
	j.mu.Lock()
	s := &j.entries[j.next]
	if cap(s.buf) < n || cap(s.buf) > 4<<10 && cap(s.buf) > 4*n { // no growth while copying; a huge one is not kept
		s.buf = make([]byte, 0, max(n, 256))
	}
	s.buf = s.buf[:0]
	keep := func(v *string) {
		if len(*v) == 0 {
			*v = ""
			return
		}
		at := len(s.buf)
		s.buf = append(s.buf, *v...)
		*v = unsafe.String(&s.buf[at], len(*v))
	}
	for _, v := range []*string{&e.ID, &e.API, &e.Method, &e.Path, &e.Query, &e.RemoteIP, &e.UserAgent, &e.User,
		&e.TokenPrefix, &e.Fault, &e.Curl, &r.Auth, &r.BasicUser, &r.ContentType, &r.Accept, &r.XFilter} {
		keep(v)
	}
	s.e = e
	j.next++
	if j.next == len(j.entries) {
		j.next, j.full = 0, true
	}
	j.mu.Unlock()
}

// cloned is e with strings of their own (a slot's view its buffer).
func (e Entry) cloned() Entry {
	r := &e.Replay
	for _, v := range []*string{&e.ID, &e.API, &e.Method, &e.Path, &e.Query, &e.RemoteIP, &e.UserAgent, &e.User,
		&e.TokenPrefix, &e.Fault, &e.Curl, &r.Auth, &r.BasicUser, &r.ContentType, &r.Accept, &r.XFilter} {
		*v = strings.Clone(*v)
	}
	return e
}

// Filter selects journal entries; zero values match everything.
type Filter struct {
	API    string // "cloud", "build", "explorer", …
	Method string
	// PathPrefix keeps entries whose path starts with it.
	PathPrefix string
	// Status keeps one status (404) or one class (4 for 4xx) when below 10.
	Status int
	// User keeps the requests of one authenticated user (Entry.User, exact).
	User string
	// Token keeps the requests of one cloud token: its id ("42"), or the start of its prefix
	// as the token views show it, at least 6 characters ("pfdemo-carol").
	Token string
	Limit int
}

func (f Filter) match(e *Entry) bool {
	switch {
	case f.API != "" && f.API != e.API,
		f.Method != "" && !strings.EqualFold(f.Method, e.Method),
		f.PathPrefix != "" && !strings.HasPrefix(e.Path, f.PathPrefix),
		f.Status >= 10 && f.Status != e.Status,
		f.Status > 0 && f.Status < 10 && e.Status/100 != f.Status,
		f.User != "" && f.User != e.User,
		f.Token != "" && !e.hasToken(f.Token):
		return false
	}
	return true
}

// minTokenPrefix is how much of a token's prefix the token filter needs: shorter values would
// mistake token ids for prefixes.
const minTokenPrefix = 6

// hasToken reports whether the entry's token is t: its id, or its prefix starting with t.
func (e *Entry) hasToken(t string) bool {
	if e.TokenID != 0 && t == strconv.FormatUint(e.TokenID, 10) {
		return true
	}
	return len(t) >= minTokenPrefix && e.TokenPrefix != "" && strings.HasPrefix(e.TokenPrefix, t)
}

// List returns the matching entries, newest first, at most f.Limit of them (all when 0).
func (j *Journal) List(f Filter) []Entry {
	j.mu.Lock()
	defer j.mu.Unlock()
	n := j.next
	if j.full {
		n = len(j.entries)
	}
	out := []Entry{}
	for i := 0; i < n && (f.Limit <= 0 || len(out) < f.Limit); i++ {
		idx := (j.next - 1 - i + len(j.entries)) % len(j.entries)
		if e := &j.entries[idx].e; f.match(e) {
			out = append(out, e.cloned())
			out[len(out)-1].Curl = e.Replay.Curl(j.base, e.Method, e.Path, e.Query, e.User)
		}
	}
	return out
}

// Clear drops every entry.
func (j *Journal) Clear() {
	j.mu.Lock()
	defer j.mu.Unlock()
	clear(j.entries)
	j.next, j.full = 0, false
}

// SetExternalURL sets the base URL (--external-url) the entries' curl lines address.
func (j *Journal) SetExternalURL(u string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.base = strings.TrimRight(u, "/")
}

// Cap returns how many entries the journal keeps.
func (j *Journal) Cap() int { return len(j.entries) }
