package listing

import (
	"math"
	"math/bits"
	"net/http"
	"strconv"
	"strings"

	"github.com/pocketforge/pocketforge/api/kit"
)

// Page-size limits of the cloud API (spec "Limits").
const (
	// DefaultSize is the page size when the request gives none.
	DefaultSize = 100
	// MinSize is the smallest page size a client may ask for.
	MinSize = 25
	// MaxSize is the largest page size a client may ask for.
	MaxSize = 500
)

// Page is a validated page request: Page >= 1 and Size within MinSize..MaxSize. It is a plain
// value so handlers can build one for internal lists, and Paginate re-checks what it needs.
//
// Page is the requested page number. A page above 2^64/Size — which the spec says returns the
// last possible page — is kept as math.MaxInt when it does not fit an int; Paginate answers any
// page above that bound with the last page, so the rule holds however the Page was made.
type Page struct {
	Page int
	Size int
}

// Reasons of the page errors, in the cloud API's "Must be …" validation style.
const (
	reasonPage     = "Must be an integer of at least 1"
	reasonPageSize = "Must be an integer from 25 to 500"
)

// ParsePage validates the `page` and `page_size` query values ("" means the default: page 1,
// size 100) so a handler can reject a bad request before it touches the store.
//
// page is an unbounded decimal integer >= 1 ("99999999999999999999999" is valid and means "the
// last page"); page_size is an integer from 25 to 500. Both problems give a 400 *kit.Error whose
// Field names the query parameter; when both are wrong, only the page error is reported (kit
// carries one field per error, and the client sees the second one after fixing the first —
// the spec allows errors to surface on resubmission).
func ParsePage(page, size string) (Page, error) {
	n, huge, pageOK := parsePageNumber(page)
	sz, sizeOK := parsePageSize(size)
	if !pageOK {
		return Page{}, fieldError("page", reasonPage)
	}
	if !sizeOK {
		return Page{}, fieldError("page_size", reasonPageSize)
	}
	if huge || n > uint64(math.MaxInt) {
		return Page{Page: math.MaxInt, Size: sz}, nil
	}
	return Page{Page: int(n), Size: sz}, nil
}

// parsePageNumber reads an unsigned decimal of any length. huge reports a value above
// MaxUint64; ok is false for anything that is not an integer of at least 1.
func parsePageNumber(s string) (n uint64, huge, ok bool) {
	if s == "" {
		return 1, false, true
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false, false
		}
	}
	s = strings.TrimLeft(s, "0")
	if s == "" {
		return 0, false, false // all zeros
	}
	if len(s) > 20 {
		return 0, true, true
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, true, true // only a range error is possible here
	}
	return n, false, true
}

// parsePageSize reads page_size; ok is false outside MinSize..MaxSize.
func parsePageSize(s string) (int, bool) {
	if s == "" {
		return DefaultSize, true
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < MinSize || n > MaxSize {
		return 0, false
	}
	return n, true
}

// fieldError is the 400 every validation problem of this package returns.
func fieldError(field, reason string) *kit.Error {
	e := kit.Errorf(http.StatusBadRequest, "%s", reason)
	e.Field = field
	return e
}

// overflowBound is floor(2^64 / size): a page above it asks for items past 2^64, which the spec
// answers with the last page.
func overflowBound(size int) uint64 {
	if size <= 1 {
		return math.MaxUint64
	}
	q, _ := bits.Div64(1, 0, uint64(size))
	return q
}
