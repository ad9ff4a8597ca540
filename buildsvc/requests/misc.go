package requests

import (
	"slices"
	"strconv"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"

	"github.com/pocketforge/pocketforge/buildsvc/requestdoc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The smaller request commands: setpriority, setincident, setacceptat, and Admin's PUT.

// SetPriority sets request id's priority (low, moderate, important, critical): its creator, a
// target maintainer or a reviewer may.
func (s *Service) SetPriority(who buildstore.Person, id uint64, priority, comment string) error {
	if !slices.Contains(requestdoc.Priorities, priority) {
		return buildsvc.BadRequest("invalid_priority", "priority '%s' is not one of low, moderate, important, critical", priority)
	}
	now := s.clk.Now()
	return s.updateRequest(who, id, func(tx kv.Tx, r *buildstore.Request) error {
		if err := modifiable(*r); err != nil {
			return err
		}
		if r.Creator != who.Login && !targetMaintainer(tx, who, *r) && !isReviewer(tx, who, *r) {
			return refuse("No permission to set the priority of request %d", r.ID)
		}
		if priority == "moderate" {
			priority = ""
		}
		if r.Priority != priority {
			r.Priority = priority
			addHistory(r, who.Login, now, "Request got a new priority: "+requestPriority(priority), comment)
		}
		return nil
	})
}

func requestPriority(p string) string {
	if p == "" {
		return "moderate"
	}
	return p
}

// SetIncident points the maintenance_incident actions of request id at the existing incident
// <target>:<incident> instead of a new one: a target maintainer may.
func (s *Service) SetIncident(who buildstore.Person, id uint64, incident, comment string) error {
	if n, err := strconv.Atoi(incident); err != nil || n < 0 {
		return buildsvc.BadRequest("invalid_incident", "incident '%s' is not an incident number", incident)
	}
	now := s.clk.Now()
	return s.updateRequest(who, id, func(tx kv.Tx, r *buildstore.Request) error {
		if err := modifiable(*r); err != nil {
			return err
		}
		if !targetMaintainer(tx, who, *r) {
			return refuse("No permission to set the incident of request %d", r.ID)
		}
		changed := false
		for i := range r.Actions {
			a := &r.Actions[i]
			if a.Type != "maintenance_incident" {
				continue
			}
			name := a.Target.Project + ":" + incident
			if t, err := buildstore.GetProject(tx, name); err != nil || t.Kind != "maintenance_incident" {
				return buildsvc.BadRequest("project_not_found", "Maintenance incident %s does not exist", name)
			}
			a.Target.Project, changed = name, true
		}
		if !changed {
			return buildsvc.BadRequest("no_maintenance_incident", "request %d has no maintenance_incident action", r.ID)
		}
		addHistory(r, who.Login, now, "Request got set to incident "+incident, comment)
		return nil
	})
}

// SetAcceptAt has the clock accept request id at when (nil: now, which the next clock tick
// does): a target maintainer may, and becomes the request's approver. When the time comes the
// request is accepted as the approver if it may be then (state new, the approver still
// maintains the targets); otherwise it stays as it is.
func (s *Service) SetAcceptAt(who buildstore.Person, id uint64, when *time.Time, comment string) error {
	now := s.clk.Now()
	at := now
	if when != nil {
		at = when.UTC()
	}
	return s.updateRequest(who, id, func(tx kv.Tx, r *buildstore.Request) error {
		if err := modifiable(*r); err != nil {
			return err
		}
		if !targetMaintainer(tx, who, *r) {
			return refuse("No permission to set the accept time of request %d: only the target maintainers may", r.ID)
		}
		r.AcceptAt, r.State.Approver = &at, who.Login
		addHistory(r, who.Login, now, "Request got an accept time: "+at.Format("2006-01-02 15:04:05 UTC"), comment)
		return nil
	})
}

// AcceptDue accepts the requests whose accept time has come (the clock job): each in its own
// transaction, as its approver; one that may not be accepted now keeps waiting.
func (s *Service) AcceptDue(now time.Time) error {
	var due []buildstore.Request
	err := s.db.View(func(tx kv.Tx) error {
		ids, err := buildstore.DueRequests(tx, now)
		for _, id := range ids {
			if r, err := buildstore.GetRequest(tx, id); err == nil {
				due = append(due, r)
			}
		}
		return err
	})
	if err != nil {
		return err
	}
	for _, r := range due {
		if r.State.Name != buildstore.RequestNew {
			continue
		}
		var approver buildstore.Person
		if err := s.db.View(func(tx kv.Tx) error {
			var err error
			approver, err = buildstore.GetPerson(tx, r.State.Approver)
			return err
		}); err != nil {
			continue
		}
		if err := s.ChangeState(approver, r.ID, StateChange{NewState: buildstore.RequestAccepted, Comment: "accepted at the time set"}); err != nil {
			s.log.Info("request not accepted at its time", "id", r.ID, "err", err)
		}
	}
	return nil
}

// ReplaceRequest stores Admin's version of request id (PUT /request/<id>): actions,
// description, priority, state and reviews as the document gives them.
func (s *Service) ReplaceRequest(who buildstore.Person, id uint64, r buildstore.Request, state *requestdoc.State) error {
	if !who.IsAdmin() {
		return buildsvc.Forbidden("put_request_no_permission", "Only admins can change all parts of a request")
	}
	now := s.clk.Now()
	return s.updateRequest(who, id, func(tx kv.Tx, old *buildstore.Request) error {
		r.ID, r.Creator, r.History, r.AcceptAt = old.ID, old.Creator, old.History, old.AcceptAt
		r.State = old.State
		if state != nil && state.Name != "" {
			if !slices.Contains([]string{buildstore.RequestNew, buildstore.RequestReview, buildstore.RequestAccepted, buildstore.RequestDeclined,
				buildstore.RequestRevoked, buildstore.RequestSuperseded, buildstore.RequestDeleted}, state.Name) {
				return buildsvc.Invalid("request", "state '%s' is not a request state", state.Name)
			}
			comment := ""
			if state.Comment != nil {
				comment = *state.Comment
			}
			setState(&r, state.Name, who.Login, now, comment)
			r.State.Created = old.State.Created
		}
		for i := range r.Reviews {
			if r.Reviews[i].State == "" {
				r.Reviews[i].State = buildstore.RequestNew
			}
			r.Reviews[i].When, r.Reviews[i].Who = now, who.Login
		}
		addHistory(&r, who.Login, now, "Request got changed by the admin", "")
		*old = r
		return nil
	})
}
