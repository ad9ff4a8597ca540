package explorerapi

import (
	"fmt"
	"sync"

	"github.com/valyala/fasthttp"
)

// Backend answers the build-service requests the proxy forwards, the way fasthttp.Client.Do
// does: it fills resp from req, or fails when no answer came. The appliance's own build API
// is InProcess; a remote build service (--explorer-backend URL) is explorersvc/remote's
// Client, a fasthttp.HostClient behind the same interface, so the proxy's rules, credentials and response
// handling are one code path for both.
type Backend interface {
	Do(req *fasthttp.Request, resp *fasthttp.Response) error
}

// InProcess is the appliance's build API reached in memory: each request runs through the
// build API's own fiber handler (its routing, authentication, read protection and error
// rendering) on a RequestCtx of its own, with no listener and no network in between — the same
// request a remote client would send, answered by the same code.
type InProcess struct {
	once    sync.Once
	build   func() fasthttp.RequestHandler
	handler fasthttp.RequestHandler
}

// NewInProcess is a backend over the handler build returns; build runs on the first request,
// so an appliance (or a test) that never uses the proxy never builds the second app.
func NewInProcess(build func() fasthttp.RequestHandler) *InProcess {
	return &InProcess{build: build}
}

// Do runs req through the build API. A streamed answer (a running job's build log) stays a
// stream: resp reads it as the job writes it. A panic in the build API is an error here (the
// build API runs without the front middleware that would otherwise catch it).
func (b *InProcess) Do(req *fasthttp.Request, resp *fasthttp.Response) (err error) {
	b.once.Do(func() { b.handler = b.build() })
	ctx := new(fasthttp.RequestCtx)
	ctx.Init(req, nil, nil)
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the build API failed: %v", p)
		}
	}()
	b.handler(ctx)
	ctx.Response.CopyTo(resp)
	if ctx.Response.IsBodyStream() {
		resp.SetBodyStream(ctx.Response.BodyStream(), -1)
	}
	return nil
}
