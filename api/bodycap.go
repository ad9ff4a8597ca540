package api

import (
	"strconv"

	"github.com/pocketforge/pocketforge/api/kit"
)

// bodyCap is the largest body a request to path may carry, decided on its head (issue 32): the
// bound of its area when the area does not authenticate (a form, or a document on the paths
// that take one), else limit (--body-limit: those APIs read a body only once the credentials
// are good). harden refuses a declared length over it with 413 before anything of the body is
// read, and guarded reads a chunked body no further than it; a route that takes no body never
// reads one.
func (d *Deps) bodyCap(path string, limit int64) int64 {
	if b := d.bodyBound(path); b > 0 {
		return min(b, limit)
	}
	return limit
}

// bodyBound is the bound of path's area when it does not authenticate, else 0.
func (d *Deps) bodyBound(path string) int64 {
	for len(path) > 1 && path[1] == '/' { // routed as one slash (front)
		path = path[1:]
	}
	ar := d.areaOf(path)
	bound := ar.maxBody
	for _, p := range ar.documents {
		if under(path, p) {
			bound = max(bound, kit.DocumentBody)
		}
	}
	return bound
}

// sizeText writes a bound as people read it: "64 KiB", "1 MiB".
func sizeText(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return strconv.FormatInt(n>>20, 10) + " MiB"
	}
	return strconv.FormatInt(n>>10, 10) + " KiB"
}
