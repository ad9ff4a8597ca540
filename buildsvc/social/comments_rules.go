package social

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pocketforge/pocketforge/buildsvc"

	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// commented is the object a comment route resolved to: a project, a package (with its
// project) or a request.
type commented struct {
	obj     CommentObject
	project buildstore.Project
	pkg     *buildstore.Package
	request *buildstore.Request
}

// resolveCommented reads the object for who: 404 unknown_project (missing or hidden),
// unknown_package, or not_found for a request that is missing or whose target project is
// hidden from who. Only the request's lookup lives here; the request rules are requests'.
func resolveCommented(tx kv.Tx, who buildstore.Person, obj CommentObject) (commented, error) {
	t := commented{obj: obj}
	switch obj.Kind {
	case buildstore.CommentOnProject, buildstore.CommentOnPackage:
		if err := buildsvc.VisibleProject(tx, who, obj.Project); err != nil {
			return t, err
		}
		if obj.Kind == buildstore.CommentOnProject {
			p, err := buildstore.GetProject(tx, obj.Project)
			t.project = p
			return t, buildsvc.NotFoundAs(err, "unknown_project")
		}
		p, k, err := buildsvc.LookupPackage(tx, obj.Project, obj.Package)
		t.project, t.pkg = p, &k
		return t, err
	case buildstore.CommentOnRequest:
		n, err := strconv.ParseUint(obj.Request, 10, 64)
		if err != nil {
			return t, requestNotFoundForComment(obj.Request)
		}
		r, err := buildstore.GetRequest(tx, n)
		if err != nil {
			return t, requestNotFoundForComment(obj.Request)
		}
		if len(r.Actions) > 0 && r.Actions[0].Target != nil && buildsvc.VisibleProject(tx, who, r.Actions[0].Target.Project) != nil {
			return t, requestNotFoundForComment(obj.Request)
		}
		t.obj.Request, t.request = strconv.FormatUint(n, 10), &r
		return t, nil
	}
	return t, buildsvc.BadRequest("invalid_parameter", "comments are on a project, a package or a request, not on '%s'", obj.Kind)
}

// requestNotFoundForComment is the 404 of a comment route naming an unknown request.
func requestNotFoundForComment(id string) error {
	return fault.NotFound("not_found", "Couldn't find Request with id %s", id)
}

// moderates reports whether who may delete anyone's comment on t: Admin, and whoever may
// change the object. For a request, the service's is_target_maintainer?: who may change
// every existing target (the package when it exists, else the project) of its actions, and
// there is at least one.
func moderates(tx kv.Tx, who buildstore.Person, t commented) bool {
	switch {
	case who.IsAdmin():
		return true
	case t.request != nil:
		found := false
		for _, a := range t.request.Actions {
			if a.Target == nil || a.Target.Project == "" {
				continue
			}
			p, err := buildstore.GetProject(tx, a.Target.Project)
			if err != nil {
				continue
			}
			found = true
			if !buildsvc.Maintains(tx, who, p.Persons, p.Groups) && !maintainsPackage(tx, who, a.Target.Project, a.Target.Package) {
				return false
			}
		}
		return found
	case t.pkg != nil:
		return buildsvc.Maintains(tx, who, t.project.Persons, t.project.Groups) || buildsvc.Maintains(tx, who, t.pkg.Persons, t.pkg.Groups)
	}
	return buildsvc.Maintains(tx, who, t.project.Persons, t.project.Groups)
}

// maintainsPackage reports whether who maintains the package itself (false for none).
func maintainsPackage(tx kv.Tx, who buildstore.Person, project, pkg string) bool {
	if pkg == "" {
		return false
	}
	k, err := buildstore.GetPackage(tx, project, pkg)
	return err == nil && buildsvc.Maintains(tx, who, k.Persons, k.Groups)
}

// mailComment writes the service's comment notification to the outbox: one mail to the
// maintainers of the project (and of the package), or to a request's creator and reviewers —
// not to the author. Simplified: the service lets each person choose which events mail them;
// here these always do, and earlier commenters are not added.
func mailComment(tx kv.Tx, t commented, c buildstore.Comment) error {
	to := buildsvc.NewRecipients(tx, c.Who)
	var subject string
	switch {
	case t.request != nil:
		subject = fmt.Sprintf("Request %s commented by %s", t.obj.Request, c.Who)
		to.Person(t.request.Creator)
		for _, r := range t.request.Reviews {
			to.Reviewer(buildsvc.ReviewerOf(r))
		}
	case t.pkg != nil:
		subject = fmt.Sprintf("New comment in package %s/%s by %s", t.project.Name, t.pkg.Name, c.Who)
		to.Maintainers(t.pkg.Persons, t.pkg.Groups)
		to.Maintainers(t.project.Persons, t.project.Groups)
	default:
		subject = fmt.Sprintf("New comment in project %s by %s", t.project.Name, c.Who)
		to.Maintainers(t.project.Persons, t.project.Groups)
	}
	return to.Send(c.When, subject, fmt.Sprintf("%s wrote:\n\n%s\n", c.Who, strings.TrimRight(c.Body, "\n")))
}
