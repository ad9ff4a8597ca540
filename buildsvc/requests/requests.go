package requests

import (
	"errors"
	"slices"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"

	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// requestNotFound is OBS's 404 for an unknown request number.
func requestNotFound(id uint64) error {
	return fault.NotFound("not_found", "Couldn't find request with id '%d'", id)
}

// loadRequest reads request id for who: 404 not_found when there is none or it is hidden.
func loadRequest(tx kv.Tx, who buildstore.Person, id uint64) (buildstore.Request, error) {
	r, err := buildstore.GetRequest(tx, id)
	if errors.Is(err, store.ErrNotFound) {
		return r, requestNotFound(id)
	}
	if err != nil {
		return r, err
	}
	if !buildsvc.RequestVisible(tx, who, r) {
		return r, requestNotFound(id)
	}
	return r, nil
}

// Request reads request id as who may see it.
func (s *Service) Request(who buildstore.Person, id uint64) (buildstore.Request, error) {
	var r buildstore.Request
	err := s.db.View(func(tx kv.Tx) error {
		var err error
		r, err = loadRequest(tx, who, id)
		return err
	})
	return r, err
}

// addHistory appends one event to the request's history and sets its update time.
func addHistory(r *buildstore.Request, who string, now time.Time, description, comment string) {
	r.History = append(r.History, buildstore.HistoryRecord{Who: who, When: now, Description: description, Comment: comment})
	r.Updated = now
}

// setState moves r to state name by who, with comment.
func setState(r *buildstore.Request, name, who string, now time.Time, comment string) {
	r.State.Name, r.State.Who, r.State.When, r.State.Comment = name, who, now, comment
	r.Updated = now
}

// openReviews reports whether any review of r still waits.
func openReviews(r buildstore.Request) bool {
	return slices.ContainsFunc(r.Reviews, func(v buildstore.Review) bool { return v.State == buildstore.RequestNew })
}

// targetMaintainer reports whether who may change the target of every action of r: Admin, or a
// maintainer of each target package (or of its project; for a target package that does not
// exist yet, of the project).
func targetMaintainer(tx kv.Tx, who buildstore.Person, r buildstore.Request) bool {
	if who.IsAdmin() {
		return true
	}
	for _, a := range r.Actions {
		if a.Target == nil || !maintainsTarget(tx, who, a.Target.Project, a.Target.Package) {
			return false
		}
	}
	return len(r.Actions) > 0
}

// maintainsTarget reports whether who maintains project, or package pkg of it.
func maintainsTarget(tx kv.Tx, who buildstore.Person, project, pkg string) bool {
	p, err := buildstore.GetProject(tx, project)
	if err != nil {
		return who.IsAdmin()
	}
	if buildsvc.Maintains(tx, who, p.Persons, p.Groups) {
		return true
	}
	if pkg == "" {
		return false
	}
	k, err := buildstore.GetPackage(tx, project, pkg)
	return err == nil && buildsvc.Maintains(tx, who, k.Persons, k.Groups)
}
