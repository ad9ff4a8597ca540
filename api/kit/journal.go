package kit

import (
	"strings"
	"sync"
	"time"
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
}

// Journal is a bounded in-memory ring of the latest requests (WireMock's request journal, for
// "what did my client just send?"). It is not persisted: it describes this process's traffic.
type Journal struct {
	mu      sync.Mutex
	entries []Entry
	next    int // index of the slot the next entry goes to
	full    bool
}

// NewJournal returns a journal that keeps the last size requests; size 0 keeps none.
func NewJournal(size int) *Journal { return &Journal{entries: make([]Entry, size)} }

// Add records e, dropping the oldest entry when full.
func (j *Journal) Add(e Entry) {
	if len(j.entries) == 0 {
		return
	}
	j.mu.Lock()
	j.entries[j.next] = e
	j.next++
	if j.next == len(j.entries) {
		j.next, j.full = 0, true
	}
	j.mu.Unlock()
}

// Filter selects journal entries; zero values match everything.
type Filter struct {
	API    string // "cloud", "build", "explorer", …
	Method string
	// PathPrefix keeps entries whose path starts with it.
	PathPrefix string
	// Status keeps one status (404) or one class (4 for 4xx) when below 10.
	Status int
	Limit  int
}

func (f Filter) match(e *Entry) bool {
	switch {
	case f.API != "" && f.API != e.API,
		f.Method != "" && !strings.EqualFold(f.Method, e.Method),
		f.PathPrefix != "" && !strings.HasPrefix(e.Path, f.PathPrefix),
		f.Status >= 10 && f.Status != e.Status,
		f.Status > 0 && f.Status < 10 && e.Status/100 != f.Status:
		return false
	}
	return true
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
		if e := &j.entries[idx]; f.match(e) {
			out = append(out, *e)
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

// Cap returns how many entries the journal keeps.
func (j *Journal) Cap() int { return len(j.entries) }
