package requests

import (
	"fmt"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The request state machine (cmd=changestate), as OBS 2.7 runs it:
//
//	from \ to    accepted          declined        revoked        superseded       new (reopen)
//	new          target maint.     target maint.   creator        creator or       —
//	review       force + target    or reviewer                    target maint.
//	declined     —                 —               creator        creator/maint.   creator or target maint.
//	revoked      —                 —               —              —                creator
//	superseded   —                 —               —              —                creator or target maint.
//	accepted     final: every change is 403 "change state from an accepted state is not allowed."
//
// Admin may do everything, and only Admin may set deleted. Accepting a request in review needs
// force=1 (its open reviews are then obsoleted); ending a request otherwise obsoletes its open
// reviews too, and reopening brings declined and obsoleted reviews back as new, so a reopened
// request is in review while a review waits. superseded needs superseded_by, an existing other
// request. Refusals are 403 post_request_no_permission with OBS's messages.

// StateChange is a cmd=changestate.
type StateChange struct {
	NewState     string
	Comment      string
	SupersededBy uint64
	Force        bool
}

// ChangeState moves request id to c.NewState for who; accepting applies its actions in the
// same transaction (requests_accept.go).
func (s *Service) ChangeState(who buildstore.Person, id uint64, c StateChange) error {
	now := s.clk.Now()
	var accepted *buildstore.Request
	err := s.updateRequest(who, id, func(tx kv.Tx, r *buildstore.Request) error {
		if err := changeState(tx, who, r, c, now); err != nil {
			return err
		}
		if r.State.Name == buildstore.RequestAccepted {
			accepted = r
		}
		return s.mailStateChanged(tx, *r, now)
	})
	if err == nil && accepted != nil {
		s.log.Info("request accepted", "id", accepted.ID, "by", who.Login)
	}
	return err
}

// refuse is the 403 of a state change the rules do not allow.
func refuse(format string, args ...any) error {
	return buildsvc.Forbidden("post_request_no_permission", format, args...)
}

// changeState applies c to r inside tx (the state machine of the file comment).
func changeState(tx kv.Tx, who buildstore.Person, r *buildstore.Request, c StateChange, now time.Time) error {
	to := c.NewState
	if err := mayChangeState(tx, who, *r, c); err != nil {
		return err
	}
	switch to {
	case buildstore.RequestAccepted:
		if err := acceptActions(tx, who, r, now); err != nil {
			return err
		}
		endReviews(r, who.Login, now)
		setState(r, to, who.Login, now, c.Comment)
		addHistory(r, who.Login, now, "Request got accepted", c.Comment)
	case buildstore.RequestNew:
		reopenReviews(r, who.Login, now, c.Comment)
		setState(r, buildstore.RequestNew, who.Login, now, c.Comment)
		if openReviews(*r) {
			r.State.Name = buildstore.RequestReview
		}
		addHistory(r, who.Login, now, "Request got reopened", c.Comment)
	case buildstore.RequestSuperseded:
		endReviews(r, who.Login, now)
		setState(r, to, who.Login, now, c.Comment)
		r.State.SupersededBy = c.SupersededBy
		addHistory(r, who.Login, now, fmt.Sprintf("Request got superseded by request %d", c.SupersededBy), c.Comment)
	default: // declined, revoked, deleted
		endReviews(r, who.Login, now)
		setState(r, to, who.Login, now, c.Comment)
		addHistory(r, who.Login, now, "Request got "+to, c.Comment)
	}
	return nil
}

// mayChangeState checks c against the state machine and who's part in r.
func mayChangeState(tx kv.Tx, who buildstore.Person, r buildstore.Request, c StateChange) error {
	from, to := r.State.Name, c.NewState
	switch to {
	case buildstore.RequestAccepted, buildstore.RequestDeclined, buildstore.RequestRevoked,
		buildstore.RequestSuperseded, buildstore.RequestNew, buildstore.RequestDeleted:
	case buildstore.RequestReview:
		return buildsvc.BadRequest("invalid_state", "state review is reached by adding a review (cmd=addreview), not set")
	default:
		return buildsvc.BadRequest("invalid_state", "unknown state '%s'", to)
	}
	if from == buildstore.RequestAccepted {
		return refuse("change state from an accepted state is not allowed.")
	}
	if to == buildstore.RequestDeleted {
		if !who.IsAdmin() {
			return refuse("Deleting requests is only allowed for the admin")
		}
		return nil
	}
	if from == to {
		return refuse("request %d is already in state %s", r.ID, from)
	}
	if to == buildstore.RequestSuperseded {
		if c.SupersededBy == 0 {
			return buildsvc.BadRequest("post_request_missing_parameter", "Supersed a request requires a 'superseded_by' parameter with the request id.")
		}
		if c.SupersededBy == r.ID {
			return buildsvc.BadRequest("post_request_missing_parameter", "A request cannot supersede itself")
		}
		if _, err := loadRequest(tx, who, c.SupersededBy); err != nil {
			return err
		}
	}
	creator := r.Creator == who.Login || who.IsAdmin()
	maint := targetMaintainer(tx, who, r)
	switch to {
	case buildstore.RequestAccepted:
		if from == buildstore.RequestReview && !c.Force {
			return refuse("Request is in review state. You may use the force parameter to ignore this.")
		}
		if from != buildstore.RequestNew && from != buildstore.RequestReview {
			return refuse("Request is not in new state. You may reopen it by setting it to new.")
		}
		if !maint {
			return refuse("No permission to modify target of request %d (type %s): project %s", r.ID, r.Actions[0].Type, firstTarget(r))
		}
		return nil
	case buildstore.RequestDeclined:
		if !r.Open() {
			return refuse("Request is not in new or review state, it cannot be declined")
		}
		if !maint && !isReviewer(tx, who, r) {
			return refuse("No permission to decline request %d: only the target maintainers and its reviewers may", r.ID)
		}
	case buildstore.RequestRevoked:
		if !r.Open() && from != buildstore.RequestDeclined {
			return refuse("Request is %s, it cannot be revoked", from)
		}
		if !creator {
			return refuse("No permission to revoke request %d: only its creator may", r.ID)
		}
	case buildstore.RequestSuperseded:
		if !r.Open() && from != buildstore.RequestDeclined {
			return refuse("Request is %s, it cannot be superseded", from)
		}
		if !creator && !maint {
			return refuse("No permission to supersede request %d", r.ID)
		}
	case buildstore.RequestNew:
		if r.Open() {
			return refuse("Request %d is %s: only a declined, revoked or superseded request can be reopened", r.ID, from)
		}
		if from == buildstore.RequestRevoked && !creator {
			return refuse("No permission to reopen request %d: only its creator may reopen a revoked request", r.ID)
		}
		if !creator && !maint {
			return refuse("No permission to reopen request %d", r.ID)
		}
	}
	return nil
}

// firstTarget names the first action's target project.
func firstTarget(r buildstore.Request) string {
	if len(r.Actions) > 0 && r.Actions[0].Target != nil {
		return r.Actions[0].Target.Project
	}
	return ""
}

// endReviews obsoletes the reviews still open when a request ends.
func endReviews(r *buildstore.Request, who string, now time.Time) {
	for i := range r.Reviews {
		if v := &r.Reviews[i]; v.State == buildstore.RequestNew {
			v.State, v.When = buildstore.RequestObsoleted, now
			v.History = append(v.History, buildstore.HistoryRecord{Who: who, When: now, Description: reviewEvent[buildstore.RequestObsoleted]})
		}
	}
}

// reopenReviews brings the declined and obsoleted reviews of a reopened request back.
func reopenReviews(r *buildstore.Request, who string, now time.Time, comment string) {
	for i := range r.Reviews {
		if v := &r.Reviews[i]; v.State == buildstore.RequestDeclined || v.State == buildstore.RequestObsoleted {
			v.State, v.When = buildstore.RequestNew, now
			v.History = append(v.History, buildstore.HistoryRecord{Who: who, When: now, Description: reviewEvent[buildstore.RequestNew], Comment: comment})
		}
	}
}
