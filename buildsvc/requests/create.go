package requests

import (
	"slices"
	"strconv"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"

	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Creating a request (POST /request?cmd=create): every action is checked against what it names
// and completed with the service's defaults, submits without a change are dropped, and the
// default reviewers are added:
//   - persons and groups with the reviewer role in the target package and the target project;
//   - for a submit into a package developed elsewhere (<devel>), a review by the devel package,
//     unless the source is that package;
//   - for a submit or change_devel whose creator cannot change the source package, a review by
//     the source package's maintainers (by_project + by_package).
// A submit without rev takes the source's newest revision when it is accepted; addrevision pins
// it to the newest revision at creation (OBS's parameter). A submit from
// home:<creator>:branches:<target project> defaults to sourceupdate cleanup, visible in the
// request. Options on a submit need the creator to maintain the source (OBS's
// lacking_maintainership).

// CreateRequest creates the request r describes (its actions, description, priority and the
// reviews it asks for) by who and returns it as stored.
func (s *Service) CreateRequest(who buildstore.Person, r buildstore.Request, addRevision bool) (buildstore.Request, error) {
	now := s.clk.Now()
	err := s.db.Write(func(tx kv.Tx) error {
		var err error
		if r, err = createRequest(tx, who, r, addRevision, now); err != nil {
			return err
		}
		return s.mailCreated(tx, r, now)
	})
	return r, err
}

// createRequest is CreateRequest inside tx at now, without the e-mail (the demo world creates
// its requests through it: see CreateRequestTx).
func createRequest(tx kv.Tx, who buildstore.Person, r buildstore.Request, addRevision bool, now time.Time) (buildstore.Request, error) {
	var actions []buildstore.RequestAction
	for i := range r.Actions {
		a := r.Actions[i]
		keep, err := completeAction(tx, who, &a, addRevision)
		if err != nil {
			return r, err
		}
		if keep {
			actions = append(actions, a)
		}
	}
	if len(actions) == 0 {
		return r, buildsvc.BadRequest("missing_action", "The request contains no actions. Submit requests without source changes may have skipped!")
	}
	r.Actions = actions
	for _, v := range r.Reviews {
		if err := checkReviewer(tx, buildsvc.ReviewerOf(v)); err != nil {
			return r, err
		}
	}
	id, err := buildstore.NewRequestID(tx)
	if err != nil {
		return r, err
	}
	r.ID, r.Creator = id, who.Login
	r.State = buildstore.RequestState{Name: buildstore.RequestNew, Who: who.Login, When: now, Created: now}
	r.History = nil
	addHistory(&r, who.Login, now, "Request created", r.Description)
	for i := range r.Reviews {
		r.Reviews[i].State, r.Reviews[i].When, r.Reviews[i].Who = buildstore.RequestNew, now, ""
	}
	for _, v := range defaultReviews(tx, who, r) {
		addReviewOnce(&r, v, now)
	}
	if openReviews(r) {
		r.State.Name = buildstore.RequestReview
	}
	return r, buildstore.PutRequest(tx, r)
}

// completeAction checks action a of a new request and fills in its defaults; keep is false for
// a submit that changes nothing.
func completeAction(tx kv.Tx, who buildstore.Person, a *buildstore.RequestAction, addRevision bool) (keep bool, err error) {
	needs := func(what string) error {
		return buildsvc.Invalid("request", "%s action needs %s", a.Type, what)
	}
	if a.Target == nil && a.Type != "group" {
		return false, needs("a target")
	}
	if a.Target != nil {
		if err := buildsvc.VisibleProject(tx, who, a.Target.Project); err != nil {
			return false, err
		}
		if err := buildstore.CheckProject(tx, a.Target.Project); err != nil {
			return false, buildsvc.NotFoundAs(err, "unknown_project")
		}
	}
	switch a.Type {
	case "submit":
		return completeSubmit(tx, who, a, addRevision)
	case "delete":
		return true, checkDeleteTarget(tx, a.Target)
	case "add_role", "set_bugowner":
		return true, checkRoleAction(tx, a)
	case "change_devel":
		if a.Source == nil || a.Source.Package == "" || a.Target.Package == "" {
			return false, needs("a source package and a target package")
		}
		if _, _, err := buildsvc.LookupVisiblePackage(tx, who, a.Source.Project, a.Source.Package); err != nil {
			return false, err
		}
		_, _, err := buildsvc.LookupVisiblePackage(tx, who, a.Target.Project, a.Target.Package)
		return true, err
	case "maintenance_incident":
		if a.Source == nil {
			return false, needs("a source project")
		}
		if err := buildsvc.VisibleProject(tx, who, a.Source.Project); err != nil {
			return false, err
		}
		if err := buildstore.CheckProject(tx, a.Source.Project); err != nil {
			return false, buildsvc.NotFoundAs(err, "unknown_project")
		}
		if t, _ := buildstore.GetProject(tx, a.Target.Project); t.Kind != "maintenance" {
			return false, buildsvc.BadRequest("incident_has_no_maintenance_project", "Maintenance requests accept only projects of kind maintenance as target, '%s' is not", a.Target.Project)
		}
		return true, nil
	case "maintenance_release":
		if a.Source == nil || a.Source.Package == "" {
			return false, needs("a source package")
		}
		_, _, err := buildsvc.LookupVisiblePackage(tx, who, a.Source.Project, a.Source.Package)
		return true, err
	case "group":
		return true, checkGrouped(tx, who, a.Grouped)
	}
	return false, buildsvc.Invalid("request", "unknown action type '%s'", a.Type)
}

// completeSubmit checks a submit: a readable source package, a target project; the target
// package defaults to the source's name, rev to the source's newest revision, sourceupdate to
// cleanup for the creator's own branch project. A submit whose expanded source equals the
// target's newest tree changes nothing.
func completeSubmit(tx kv.Tx, who buildstore.Person, a *buildstore.RequestAction, addRevision bool) (bool, error) {
	if a.Source == nil || a.Source.Package == "" {
		return false, buildsvc.Invalid("request", "submit action needs a source package")
	}
	if _, _, err := buildsvc.LookupVisiblePackage(tx, who, a.Source.Project, a.Source.Package); err != nil {
		return false, err
	}
	if a.Target.Package == "" {
		a.Target.Package = a.Source.Package
	}
	if a.Source.Project == a.Target.Project && a.Source.Package == a.Target.Package {
		return false, buildsvc.BadRequest("submit_request_rejected", "Source and target of a submit request must differ (%s/%s)", a.Source.Project, a.Source.Package)
	}
	src, err := buildsvc.ReadView(tx, who, a.Source.Project, a.Source.Package, a.Source.Rev, true, "")
	if err != nil {
		return false, err
	}
	if a.Source.Rev == "" && addRevision {
		a.Source.Rev = strconv.FormatUint(src.Tree.Rev, 10)
	}
	if a.Options != (buildstore.ActionOptions{}) && !maintainsTarget(tx, who, a.Source.Project, a.Source.Package) {
		return false, buildsvc.Forbidden("lacking_maintainership", "Creating a submit request action with options requires maintainership in source package")
	}
	if a.Options.SourceUpdate == "" && a.Source.Project == "home:"+who.Login+":branches:"+a.Target.Project {
		a.Options.SourceUpdate = "cleanup"
	}
	if t, err := buildstore.GetPackage(tx, a.Target.Project, a.Target.Package); err == nil {
		if err := buildsvc.VisibleProject(tx, who, a.Target.Project); err != nil {
			return false, err
		}
		if cur, err := buildsvc.ResolveView(tx, t.Project, t.Name, "", true, ""); err == nil && sameFiles(cur.Tree.Files, src.Tree.Files) {
			return false, nil
		}
	}
	return true, nil
}

// checkDeleteTarget: the project, and the package or repository named, exist.
func checkDeleteTarget(tx kv.Tx, t *buildstore.ActionTarget) error {
	p, err := buildstore.GetProject(tx, t.Project)
	if err != nil {
		return buildsvc.NotFoundAs(err, "unknown_project")
	}
	if t.Package != "" {
		if _, _, err := buildsvc.LookupPackage(tx, t.Project, t.Package); err != nil {
			return err
		}
	}
	if t.Repository != "" {
		if _, ok := p.Repository(t.Repository); !ok {
			return fault.NotFound("unknown_repository", "repository '%s' not found in project '%s'", t.Repository, t.Project)
		}
	}
	return nil
}

// checkRoleAction: one existing person or group, a known role (set_bugowner: bugowner), an
// existing target package when one is named.
func checkRoleAction(tx kv.Tx, a *buildstore.RequestAction) error {
	if (a.Person == nil) == (a.Group == nil) {
		return buildsvc.Invalid("request", "%s action needs a person or a group", a.Type)
	}
	if a.Target.Package != "" {
		if _, _, err := buildsvc.LookupPackage(tx, a.Target.Project, a.Target.Package); err != nil {
			return err
		}
	}
	role := a.Person
	if role == nil {
		role = a.Group
	}
	if a.Type == "set_bugowner" {
		role.Role = "bugowner"
	}
	if !slices.Contains(buildstore.Roles, role.Role) {
		return buildsvc.BadRequest("unknown_role", "unknown role '%s'", role.Role)
	}
	if a.Person != nil {
		if _, err := buildstore.GetPerson(tx, a.Person.Name); err != nil {
			return fault.NotFound("not_found", "Couldn't find User with login = %s", a.Person.Name)
		}
		return nil
	}
	if _, err := buildstore.GetGroup(tx, a.Group.Name); err != nil {
		return fault.NotFound("not_found", "Couldn't find Group '%s'", a.Group.Name)
	}
	return nil
}

// checkGrouped: a group action holds existing requests that are still open.
func checkGrouped(tx kv.Tx, who buildstore.Person, ids []uint64) error {
	if len(ids) == 0 {
		return buildsvc.Invalid("request", "group action needs grouped requests")
	}
	for _, id := range ids {
		g, err := loadRequest(tx, who, id)
		if err != nil {
			return err
		}
		if !g.Open() {
			return buildsvc.BadRequest("group_request_not_open", "request %d is %s and cannot be grouped", id, g.State.Name)
		}
	}
	return nil
}

// defaultReviews are the reviews the service adds to a new request (see the file comment).
func defaultReviews(tx kv.Tx, creator buildstore.Person, r buildstore.Request) []buildstore.Review {
	var out []buildstore.Review
	reviewers := func(persons, groups []buildstore.Role) {
		for _, p := range persons {
			if p.Role == "reviewer" {
				out = append(out, buildstore.Review{ByUser: p.ID})
			}
		}
		for _, g := range groups {
			if g.Role == "reviewer" {
				out = append(out, buildstore.Review{ByGroup: g.ID})
			}
		}
	}
	for _, a := range r.Actions {
		if a.Target == nil {
			continue
		}
		if a.Target.Package != "" {
			if k, err := buildstore.GetPackage(tx, a.Target.Project, a.Target.Package); err == nil {
				reviewers(k.Persons, k.Groups)
				if d := k.Devel; a.Type == "submit" && d != nil && d.Project != "" && a.Source != nil &&
					(d.Project != a.Source.Project || (d.Package != "" && d.Package != a.Source.Package)) {
					out = append(out, buildstore.Review{ByProject: d.Project, ByPackage: d.Package})
				}
			}
		}
		if p, err := buildstore.GetProject(tx, a.Target.Project); err == nil {
			reviewers(p.Persons, p.Groups)
		}
		if (a.Type == "submit" || a.Type == "change_devel") && a.Source != nil && a.Source.Package != "" &&
			!maintainsTarget(tx, creator, a.Source.Project, a.Source.Package) {
			out = append(out, buildstore.Review{ByProject: a.Source.Project, ByPackage: a.Source.Package})
		}
	}
	return out
}

// sameFiles reports whether two trees hold the same files (an expanded link's srcmd5 is its
// xsrcmd5, so the file lists are compared, not the checksums).
func sameFiles(a, b []buildstore.FileEntry) bool {
	return buildstore.SrcMD5(a) == buildstore.SrcMD5(b)
}
