package api

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/chaos"
	"github.com/pocketforge/pocketforge/api/kit"
)

// localFault is the fiber.Ctx Locals key of the fault a request got, for its access-log line
// and journal entry.
const localFault = "pocketforge.fault"

// errDropped says the connection was dropped on purpose: nothing is to be answered.
var errDropped = errors.New("connection dropped by a chaos rule")

// injectFault applies the chaos rule that fires for the request, if any (/_appliance/chaos):
// it waits the rule's latency, then answers its error status in the API's own format (returned
// as the error), or drops the connection without an answer (errDropped), or lets the request
// through. Without rules it costs one atomic load. The operator's endpoints (/_appliance and
// the appliance page) are never faulted: a rule must not lock the operator out of removing it.
func injectFault(c *fiber.Ctx, d Deps, ar *area) error {
	if d.chaos == nil || ar.name == "appliance" || ar == &other && under(c.Path(), "/appliance") {
		return nil
	}
	f, ok := d.chaos.Pick(ar.name, c.Method(), c.Path())
	if !ok {
		return nil
	}
	c.Locals(localFault, describe(f))
	if f.Latency > 0 {
		time.Sleep(f.Latency)
	}
	switch {
	case f.Reset:
		drop(c)
		return errDropped
	case f.Status != 0:
		return kit.Errorf(f.Status, "fault injected by pocketforge: chaos rule %d answers %d %s (see /_appliance/chaos)",
			f.Rule, f.Status, http.StatusText(f.Status))
	}
	return nil
}

// describe is the fault as the access log and the journal show it ("rule 2: 503 after 150ms").
func describe(f chaos.Fault) string {
	s := fmt.Sprintf("rule %d: ", f.Rule)
	switch {
	case f.Reset:
		s += "reset"
	case f.Status != 0:
		s += fmt.Sprint(f.Status)
	default:
		s += "latency"
	}
	if f.Latency > 0 {
		s += " after " + f.Latency.String()
	}
	return s
}

// drop closes the request's connection without an answer: fasthttp hands the connection over
// (no response written) and closes it once the hijack handler returns. On TCP the close is
// an RST (linger 0), as a crashed server or a cut network would give: the client sees
// "connection reset by peer" rather than a clean end of stream.
func drop(c *fiber.Ctx) {
	fctx := c.Context()
	fctx.HijackSetNoResponse(true)
	fctx.Hijack(func(conn net.Conn) {
		if hc, ok := conn.(interface{ UnsafeConn() net.Conn }); ok { // fasthttp's wrapper
			conn = hc.UnsafeConn()
		}
		if cc, ok := conn.(*countedConn); ok { // api.Listener's
			conn = cc.Conn
		}
		if tc, ok := conn.(*net.TCPConn); ok {
			_ = tc.SetLinger(0)
		}
	})
}

// faultOf returns the fault injectFault described for the request ("" for none).
func faultOf(c *fiber.Ctx) string {
	s, _ := c.Locals(localFault).(string)
	return s
}
