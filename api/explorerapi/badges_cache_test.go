package explorerapi

import (
	"testing"
	"unsafe"
)

// TestBadgeCacheOwnsItsKeys: a badge's cache key is made of the request's path and query,
// which may view a buffer the next request reuses; the kept key must not change with it.
func TestBadgeCacheOwnsItsKeys(t *testing.T) {
	var bc badgeCache
	buf := []byte("/badge/Pocket:1.0.svg")
	bc.put(unsafe.String(&buf[0], len(buf)), drawn{version: 1, svg: []byte("<svg/>")})
	copy(buf, "/badge/Pocket:2.0.svg")
	if _, ok := bc.get("/badge/Pocket:1.0.svg", 1); !ok {
		t.Fatal("the drawing kept for /badge/Pocket:1.0.svg is gone: its key changed with the request's buffer")
	}
	for k := range bc.m {
		if k != "/badge/Pocket:1.0.svg" {
			t.Fatalf("kept key %q", k)
		}
	}
}
