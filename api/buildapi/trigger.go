package buildapi

import (
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"go.etcd.io/bbolt"
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
// What a service run does here: the appliance has no source-service runner (no network, no
// service binaries), so it does what the user of the real service can observe of a run whose
// services produce nothing new: the backend's runservice commits a new revision of the
// package's current tree, by the token's owner, with the comment "runservice via trigger"
// (the comment the real trigger passes to the backend), which shows in `osc log` and starts
// the package's builds as any commit does. The token's triggered_at is set (the token list
// shows it) and the answer is <status code="ok">.

// errNoTokenHeader is the answer to a request without a usable Token header. It is a 403
// without a Basic challenge on purpose: a challenge would make osc resend the request with the
// person's password, and a password never signs in here.
var errNoTokenHeader = &kit.Error{Status: http.StatusForbidden, Code: "permission_denied",
	Reason: "No valid token found 'Authorization' header"}

// tokenSecret is the character set the real service accepts in a token (its check before any
// lookup); our secrets are hex, a subset.
var tokenSecret = regexp.MustCompile(`^[A-Za-z0-9+/]+$`)

// triggerComment is the revision comment of a service run started by a token.
const triggerComment = "runservice via trigger"

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
	now := a.Clock.Now()
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		t, err := buildstore.TokenBySecret(tx, secret)
		if err != nil {
			return err
		}
		if t.Kind != buildstore.TokenRunService {
			return &kit.Error{Status: http.StatusForbidden, Code: "permission_denied",
				Reason: "No valid token found: this token is for the operation '" + t.Kind + "', not runservice"}
		}
		prj, k, err := tokenTarget(t, project, pkg)
		if err != nil {
			return err
		}
		return runService(tx, t, prj, k, now)
	})
	if err != nil {
		return err
	}
	return sendOK(c)
}

// tokenTarget is the package a trigger works on: the token's own when it is bound to one (the
// query may repeat it, not name another), else project= and package= from the query.
func tokenTarget(t buildstore.Token, project, pkg string) (string, string, error) {
	if t.Project == "" {
		switch {
		case project == "":
			return "", "", buildsvc.BadRequest("missing_parameter", "Required Parameter project missing")
		case pkg == "":
			return "", "", buildsvc.BadRequest("missing_parameter", "Required Parameter package missing")
		}
		return project, pkg, nil
	}
	if project != "" && project != t.Project {
		return "", "", buildsvc.BadRequest("bad_request", "Token is setup with another project.")
	}
	if pkg != "" && pkg != t.Package {
		return "", "", buildsvc.BadRequest("bad_request", "Token is setup with another package.")
	}
	return t.Project, t.Package, nil
}

// runService checks the token owner's rights on the package and "runs" its services: a new
// revision of the current tree (see the top of this file), and the token's triggered_at.
func runService(tx *bbolt.Tx, t buildstore.Token, project, pkg string, now time.Time) error {
	prj, k, err := buildsvc.LookupPackage(tx, project, pkg)
	if err != nil {
		return err
	}
	owner, err := buildstore.GetPerson(tx, t.Login)
	if err != nil {
		return err
	}
	if err := mayRunService(tx, owner, prj, k); err != nil {
		return err
	}
	r, _, err := buildstore.LatestRevision(tx, project, pkg)
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(r.Files, func(f buildstore.FileEntry) bool { return f.Name == "_service" }) {
		return &kit.Error{Status: http.StatusNotFound, Code: "404", Reason: "no source service defined!"}
	}
	if _, err := buildstore.Commit(tx, project, pkg, r.Files, owner.Login, triggerComment, now); err != nil {
		return err
	}
	at := now.UTC()
	t.TriggeredAt = &at
	return buildstore.PutToken(tx, t)
}

// mayRunService is the real service's check before a token acts on a package: the owner is
// active (not locked or deleted) and may change the package (a maintainer of it or its
// project, or Admin, and neither is locked). One answer for all of these, as the service gives.
func mayRunService(tx *bbolt.Tx, owner buildstore.Person, prj buildstore.Project, k buildstore.Package) error {
	active := owner.State == buildstore.StateConfirmed
	maintainer := buildsvc.Maintains(tx, owner, prj.Persons, prj.Groups) || buildsvc.Maintains(tx, owner, k.Persons, k.Groups)
	if !active || !maintainer || prj.Locked || k.Locked {
		return buildsvc.Forbidden("no_permission", "no permission for package %s in project %s", k.Name, prj.Name)
	}
	return nil
}
