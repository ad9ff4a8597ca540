package applianceweb

import (
	"strings"
	"testing"
	"time"
	"unsafe"
)

// TestSessionsOwnTheirIDs: valid keeps a live session alive by storing its expiry again, and a
// map assignment stores the key it is given — here the cookie value, a view of a buffer the
// next request overwrites. The session must still be found by its id after that buffer changed.
func TestSessionsOwnTheirIDs(t *testing.T) {
	s := newSessions(time.Now)
	id := s.start()
	buf := []byte(id)
	if !s.valid(unsafe.String(&buf[0], len(buf))) {
		t.Fatal("a session just started is not valid")
	}
	copy(buf, strings.Repeat("0", len(buf))) // the next request's cookie header
	if !s.valid(id) {
		t.Fatal("the session was lost when the request's cookie buffer changed")
	}
	for k := range s.m {
		if k != id {
			t.Fatalf("kept session id %q, want %q", k, id)
		}
	}
}
