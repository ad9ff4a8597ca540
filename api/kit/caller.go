package kit

import (
	"github.com/gofiber/fiber/v2"
)

// localCaller is the fiber.Ctx Locals key of the request's authenticated caller.
const localCaller = "pocketforge.caller"

// Caller is who a request authenticated as, for the request journal: the user name where the
// API knows one (the cloud token's user, the build service's Basic or session login), and for
// a token the cloud API's id and the prefix its token views show — never the secret.
type Caller struct {
	User        string
	TokenID     uint64
	TokenPrefix string
}

// SetCaller records who the request authenticated as; an API's authentication calls it once
// the credentials are good.
func SetCaller(c *fiber.Ctx, cl Caller) { c.Locals(localCaller, &cl) }

// CallerOf returns the caller SetCaller recorded (the zero Caller for an anonymous request).
func CallerOf(c *fiber.Ctx) Caller {
	if cl, ok := c.Locals(localCaller).(*Caller); ok {
		return *cl
	}
	return Caller{}
}
