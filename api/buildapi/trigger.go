package buildapi

import (
	"net/http"
	"regexp"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
)

// Token sign-in: POST /trigger/runservice (osc token --trigger SECRET [P K]) and the bare
// POST /trigger of later service versions, which a webhook calls with
// "Authorization: Token <secret>". The codes and summaries are the real service's
// (src/api/app/controllers/trigger_controller.rb of the 2.7/2.8 era, Trigger::Errors and
// TriggerController#validate_parameters_by_token of later versions):
//
//	no "Token <secret>" header (Basic included)     403 permission_denied "No valid token found 'Authorization' header"
//	no token has this secret                         404 not_found "Token not found"
//	a token of another operation (rebuild, …)        403 permission_denied
//	no package on the token and none in the query    400 missing_parameter
//	query names another package than the token's    400 bad_request "Token is setup with another project|package."
//	project or package missing                       404 unknown_project / unknown_package
//	owner locked, not a maintainer, package locked   403 no_permission "no permission for package K in project P"
//	no _service file in the package                  404 "404" "no source service defined!" (the backend's)
//
// The HTTP layer answers the first line (the header) here; every other refusal, and what a
// service run does, is buildsvc.RunService's.

// errNoTokenHeader is the answer to a request without a usable Token header. It is a 403
// without a Basic challenge on purpose: a challenge would make osc resend the request with the
// person's password, and a password never signs in here.
var errNoTokenHeader = &kit.Error{Status: http.StatusForbidden, Code: "permission_denied",
	Reason: "No valid token found 'Authorization' header"}

// tokenSecret is the character set the real service accepts in a token (its check before any
// lookup); our secrets are hex, a subset.
var tokenSecret = regexp.MustCompile(`^[A-Za-z0-9+/]+$`)

// bindTrigger registers the token routes. They do not go through a.authenticated: a token is
// their only credential, and a session cookie or Basic header is ignored.
func (a *api) bindTrigger(r fiber.Router) {
	r.Post("/trigger/runservice", a.triggerService)
	r.Post("/trigger", a.triggerService)
}

// tokenFromHeader reads "Authorization: Token <secret>" (the scheme as the real service
// compares it: exactly "Token").
func tokenFromHeader(header string) (string, bool) {
	scheme, secret, _ := strings.Cut(header, " ")
	secret = strings.TrimSpace(secret)
	return secret, scheme == "Token" && tokenSecret.MatchString(secret)
}

// triggerService runs the service of the token's package (see the top of this file).
func (a *api) triggerService(c *fiber.Ctx) error {
	c.Set("X-Opensuse-APIVersion", APIVersion)
	secret, ok := tokenFromHeader(c.Get(fiber.HeaderAuthorization))
	if !ok {
		return errNoTokenHeader
	}
	project, pkg := strings.Clone(c.Query("project")), strings.Clone(c.Query("package"))
	if err := a.Svc.RunService(secret, project, pkg); err != nil {
		return err
	}
	return sendOK(c)
}
