package kit

import (
	"crypto/rand"
	"encoding/hex"
	"strconv"
	"sync/atomic"

	"github.com/gofiber/fiber/v2"
)

// HeaderRequestID carries the request id in both directions.
const HeaderRequestID = "X-Request-Id"

// localRequestID is the fiber.Ctx Locals key of the request id.
const localRequestID = "pocketforge.request_id"

// idPrefix makes ids unique across restarts; idSeq orders them within one process. Cheaper than a
// random UUID per request and still unique.
var (
	idPrefix = func() string {
		b := make([]byte, 4)
		_, _ = rand.Read(b)
		return hex.EncodeToString(b)
	}()
	idSeq atomic.Uint64
)

// NewRequestID returns a fresh request id.
func NewRequestID() string {
	var b [32]byte
	return string(appendNewID(b[:0]))
}

// appendNewID appends a fresh request id to b.
func appendNewID(b []byte) []byte {
	b = append(append(b, idPrefix...), '-')
	return strconv.AppendUint(b, idSeq.Add(1), 36)
}

var headerRequestID = NewHeader(HeaderRequestID)

// SetRequestID gives the request its id: the client's X-Request-Id when it is a sane token (so a
// client can correlate its own logs), a fresh one otherwise; it is echoed in the response. One
// string is made per request: the id, which the journal and the log keep.
func SetRequestID(c *fiber.Ctx) string {
	var id string
	if v := c.Request().Header.Peek(HeaderRequestID); saneID(View(v)) {
		id = string(v) // fiber reuses header buffers
	} else {
		var b [32]byte
		id = string(appendNewID(b[:0]))
	}
	c.Locals(localRequestID, id)
	headerRequestID.Set(c, id)
	return id
}

// RequestID returns the id SetRequestID gave the request ("" before).
func RequestID(c *fiber.Ctx) string {
	id, _ := c.Locals(localRequestID).(string)
	return id
}

// saneID accepts 1–64 characters of letters, digits, '-', '_' and '.'.
func saneID(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}
