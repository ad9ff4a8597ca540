package buildsvc

import (
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Token sign-in at /trigger: a webhook holds a token's secret and asks for the operation the
// token was made for on a package. The refusals and their codes are the real service's
// (TriggerController and Trigger::Errors); the HTTP layer decodes the Token header and
// answers a missing one itself.
//
// What a service run does here: the appliance has no source-service runner (no network, no
// service binaries), so it does what the user of the real service can observe of a run whose
// services produce nothing new: the backend's runservice commits a new revision of the
// package's current tree, by the token's owner, with the comment "runservice via trigger"
// (the comment the real trigger passes to the backend), which shows in `osc log` and starts
// the package's builds as any commit does. The token's triggered_at is set (the token list
// shows it).

// TriggerComment is the revision comment of a service run started by a token.
const TriggerComment = "runservice via trigger"

// RunService runs the services of a package for the token whose secret this is: the token's
// own package when it is bound to one (project and pkg may repeat it, not name another),
// else project and pkg. Refusals, in the order they are checked:
//
//	no token has this secret                         404 not_found "Token not found"
//	a token of another operation (rebuild, …)        403 permission_denied
//	no package on the token and none given           400 missing_parameter
//	another package than the token's                 400 bad_request "Token is setup with another project|package."
//	project or package missing                       404 unknown_project / unknown_package
//	owner locked, not a maintainer, package locked   403 no_permission "no permission for package K in project P"
//	no _service file in the package                  404 "404" "no source service defined!" (the backend's)
func (s *Service) RunService(secret, project, pkg string) error {
	now := s.clk.Now()
	return s.db.Write(func(tx kv.Tx) error {
		t, err := buildstore.TokenBySecret(tx, secret)
		if err != nil {
			return err
		}
		if t.Kind != buildstore.TokenRunService {
			return Forbidden("permission_denied", "No valid token found: this token is for the operation '%s', not runservice", t.Kind)
		}
		project, pkg, err := tokenTarget(t, project, pkg)
		if err != nil {
			return err
		}
		prj, k, err := LookupPackage(tx, project, pkg)
		if err != nil {
			return err
		}
		owner, err := buildstore.GetPerson(tx, t.Login)
		if err != nil {
			return err
		}
		if err := MayRunService(tx, owner, prj, k); err != nil {
			return err
		}
		r, _, err := buildstore.LatestRevision(tx, project, pkg)
		if err != nil {
			return err
		}
		if !hasServices(r.Files) {
			return noServices()
		}
		if _, err := CommitTree(tx, project, pkg, r.Files, owner.Login, now, CommitOptions{Comment: TriggerComment}); err != nil {
			return err
		}
		at := now.UTC()
		t.TriggeredAt = &at
		return buildstore.PutToken(tx, t)
	})
}

// tokenTarget is the package a trigger works on: the token's own when it is bound to one (the
// query may repeat it, not name another), else project and pkg as given.
func tokenTarget(t buildstore.Token, project, pkg string) (string, string, error) {
	if t.Project == "" {
		switch {
		case project == "":
			return "", "", BadRequest("missing_parameter", "Required Parameter project missing")
		case pkg == "":
			return "", "", BadRequest("missing_parameter", "Required Parameter package missing")
		}
		return project, pkg, nil
	}
	if project != "" && project != t.Project {
		return "", "", BadRequest("bad_request", "Token is setup with another project.")
	}
	if pkg != "" && pkg != t.Package {
		return "", "", BadRequest("bad_request", "Token is setup with another package.")
	}
	return t.Project, t.Package, nil
}

// MayRunService is the real service's check before a token acts on a package: the owner is
// active (not locked or deleted) and may change the package (a maintainer of it or its
// project, or Admin, and neither is locked). One answer for all of these, as the service gives.
func MayRunService(tx kv.Tx, owner buildstore.Person, prj buildstore.Project, k buildstore.Package) error {
	maintainer := Maintains(tx, owner, prj.Persons, prj.Groups) || Maintains(tx, owner, k.Persons, k.Groups)
	if !Active(owner) || !maintainer || prj.Locked || k.Locked {
		return Forbidden("no_permission", "no permission for package %s in project %s", k.Name, prj.Name)
	}
	return nil
}
