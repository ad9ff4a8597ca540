package requests

import (
	"slices"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"

	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Reviews: addreview asks a person, a group or the maintainers of a project or package for a
// review; changereviewstate records their answer; assignreview hands a group's (or project's)
// review to one person. The request follows its reviews: while one is open it is in state
// review; when the last is accepted it goes back to new; a declined review declines it.

// checkReviewer: one kind of reviewer, and it exists.
func checkReviewer(tx kv.Tx, r buildsvc.Reviewer) error {
	switch {
	case r.User != "":
		if _, err := buildstore.GetPerson(tx, r.User); err != nil {
			return fault.NotFound("not_found", "Couldn't find User with login = %s", r.User)
		}
	case r.Group != "":
		if _, err := buildstore.GetGroup(tx, r.Group); err != nil {
			return fault.NotFound("not_found", "Couldn't find Group '%s'", r.Group)
		}
	case r.Package != "":
		if r.Project == "" {
			return buildsvc.BadRequest("review_not_specified", "by_package needs by_project")
		}
		if _, _, err := buildsvc.LookupPackage(tx, r.Project, r.Package); err != nil {
			return err
		}
	case r.Project != "":
		if err := buildstore.CheckProject(tx, r.Project); err != nil {
			return buildsvc.NotFoundAs(err, "unknown_project")
		}
	default:
		return buildsvc.BadRequest("review_not_specified", "The review must specified by_user, by_group, by_project or by_package")
	}
	return nil
}

// addReviewOnce adds review v (state new) unless an open review by the same reviewer exists.
// A review names who answered it only once somebody has (its history says who asked).
func addReviewOnce(r *buildstore.Request, v buildstore.Review, now time.Time) bool {
	by := buildsvc.ReviewerOf(v)
	if slices.ContainsFunc(r.Reviews, func(x buildstore.Review) bool { return x.State == buildstore.RequestNew && by.Matches(x) }) {
		return false
	}
	v.State, v.When, v.Who = buildstore.RequestNew, now, ""
	r.Reviews = append(r.Reviews, v)
	return true
}

// mayReview reports whether who may answer a review by r: the person, a member of the group,
// a maintainer of the project or package — or Admin.
func mayReview(tx kv.Tx, who buildstore.Person, r buildsvc.Reviewer) bool {
	switch {
	case who.IsAdmin():
		return true
	case r.User != "":
		return r.User == who.Login
	case r.Group != "":
		g, err := buildstore.GetGroup(tx, r.Group)
		return err == nil && (slices.Contains(g.Members, who.Login) || slices.Contains(g.Maintainers, who.Login))
	case r.Project != "":
		return maintainsTarget(tx, who, r.Project, r.Package)
	}
	return false
}

// modifiable refuses a change to a request that is no longer open: OBS's 404(!)
// request_not_modifiable.
func modifiable(r buildstore.Request) error {
	if r.Open() {
		return nil
	}
	return fault.NotFound("request_not_modifiable", "The request is not in state new or review")
}

// AddReview asks reviewer by for a review of request id (cmd=addreview): who must be its
// creator, a target maintainer or one of its reviewers; the request goes to state review.
func (s *Service) AddReview(who buildstore.Person, id uint64, by buildsvc.Reviewer, comment string) error {
	now := s.clk.Now()
	return s.updateRequest(who, id, func(tx kv.Tx, r *buildstore.Request) error {
		if err := modifiable(*r); err != nil {
			return err
		}
		if err := checkReviewer(tx, by); err != nil {
			return err
		}
		if r.Creator != who.Login && !targetMaintainer(tx, who, *r) && !isReviewer(tx, who, *r) {
			return buildsvc.Forbidden("add_review_not_permitted", "You are not allowed to add a review to request %d: only its creator, the target maintainers and its reviewers are", r.ID)
		}
		v := by.Review()
		v.History = []buildstore.HistoryRecord{{Who: who.Login, When: now, Description: "Review got added", Comment: comment}}
		if !addReviewOnce(r, v, now) {
			return nil
		}
		addHistory(r, who.Login, now, "Request got a new review request", comment)
		setState(r, buildstore.RequestReview, who.Login, now, comment)
		return s.mailReviewWanted(tx, *r, by, now)
	})
}

// isReviewer reports whether who may answer any review of r.
func isReviewer(tx kv.Tx, who buildstore.Person, r buildstore.Request) bool {
	return slices.ContainsFunc(r.Reviews, func(v buildstore.Review) bool { return mayReview(tx, who, buildsvc.ReviewerOf(v)) })
}

// ChangeReviewState records who's answer newstate (accepted, declined, or new to reopen) to the
// review by by of request id (cmd=changereviewstate).
func (s *Service) ChangeReviewState(who buildstore.Person, id uint64, by buildsvc.Reviewer, newstate, comment string) error {
	if err := reviewStateValid(newstate); err != nil {
		return err
	}
	now := s.clk.Now()
	return s.updateRequest(who, id, func(tx kv.Tx, r *buildstore.Request) error {
		before := r.State.Name
		if err := changeReviewState(tx, who, r, by, newstate, comment, now); err != nil || r.State.Name == before {
			return err
		}
		return s.mailStateChanged(tx, *r, now)
	})
}

// reviewStateValid: a review is answered with accepted, declined, or new to reopen it.
func reviewStateValid(newstate string) error {
	if !slices.Contains([]string{buildstore.RequestAccepted, buildstore.RequestDeclined, buildstore.RequestNew}, newstate) {
		return buildsvc.BadRequest("invalid_state", "review state '%s' is not one of accepted, declined, new", newstate)
	}
	return nil
}

// changeReviewState is ChangeReviewState on r inside tx at now, without the e-mail (the demo
// world answers its reviews through it: see ChangeReviewStateTx).
func changeReviewState(tx kv.Tx, who buildstore.Person, r *buildstore.Request, by buildsvc.Reviewer, newstate, comment string, now time.Time) error {
	if r.State.Name != buildstore.RequestDeclined || newstate != buildstore.RequestNew {
		if err := modifiable(*r); err != nil {
			return err
		}
	}
	i := slices.IndexFunc(r.Reviews, by.Matches)
	if i < 0 {
		return fault.NotFound("review_not_found", "Request %d has no review by %s", r.ID, by.Describe())
	}
	if !mayReview(tx, who, by) {
		return buildsvc.Forbidden("review_change_state_no_permission", "review state change is not permitted for %s", who.Login)
	}
	v := &r.Reviews[i]
	if v.State == newstate {
		return nil
	}
	v.State, v.Who, v.When, v.Comment = newstate, who.Login, now, comment
	v.History = append(v.History, buildstore.HistoryRecord{Who: who.Login, When: now, Description: reviewEvent[newstate], Comment: comment})
	r.Updated = now
	followReviews(r, who.Login, now, newstate, comment)
	return nil
}

// reviewEvent is the history line of a review's new state.
var reviewEvent = map[string]string{
	buildstore.RequestAccepted:  "Review got accepted",
	buildstore.RequestDeclined:  "Review got declined",
	buildstore.RequestNew:       "Review got reopened",
	buildstore.RequestObsoleted: "Review got obsoleted",
}

// followReviews moves the request after one of its reviews changed to state changed: declined
// declines it, the last acceptance makes it new, a reopened review puts it back in review.
func followReviews(r *buildstore.Request, who string, now time.Time, changed, comment string) {
	switch {
	case changed == buildstore.RequestDeclined:
		setState(r, buildstore.RequestDeclined, who, now, comment)
		addHistory(r, who, now, "Request got declined", comment)
	case openReviews(*r):
		if r.State.Name != buildstore.RequestReview {
			setState(r, buildstore.RequestReview, who, now, comment)
			if changed == buildstore.RequestNew {
				addHistory(r, who, now, "Request got reopened", comment)
			}
		}
	case r.State.Name == buildstore.RequestReview:
		setState(r, buildstore.RequestNew, who, now, comment)
	}
}

// AssignReview hands the open review by from (a group, project or package) to person to
// (cmd=assignreview): the person gets a review of their own and from's review is accepted with
// the comment that it was assigned. Who must be able to answer from's review.
func (s *Service) AssignReview(who buildstore.Person, id uint64, from buildsvc.Reviewer, to, comment string) error {
	if from.User != "" || to == "" {
		return buildsvc.BadRequest("missing_parameter", "assignreview needs by_group, by_project or by_package, and the reviewer (by_user) it goes to")
	}
	now := s.clk.Now()
	return s.updateRequest(who, id, func(tx kv.Tx, r *buildstore.Request) error {
		if err := modifiable(*r); err != nil {
			return err
		}
		if err := checkReviewer(tx, buildsvc.Reviewer{User: to}); err != nil {
			return err
		}
		i := slices.IndexFunc(r.Reviews, func(v buildstore.Review) bool { return v.State == buildstore.RequestNew && from.Matches(v) })
		if i < 0 {
			return fault.NotFound("review_not_found", "Request %d has no open review by %s", r.ID, from.Describe())
		}
		if !mayReview(tx, who, from) {
			return buildsvc.Forbidden("review_change_state_no_permission", "review state change is not permitted for %s", who.Login)
		}
		v := &r.Reviews[i]
		note := "Review got assigned to user " + to
		v.State, v.Who, v.When, v.Comment = buildstore.RequestAccepted, who.Login, now, note
		v.History = append(v.History, buildstore.HistoryRecord{Who: who.Login, When: now, Description: "Review got assigned", Comment: comment})
		addReviewOnce(r, buildstore.Review{ByUser: to, History: []buildstore.HistoryRecord{{Who: who.Login, When: now, Description: "Review got assigned", Comment: comment}}}, now)
		addHistory(r, who.Login, now, "Request got a new review request", note)
		r.Updated = now
		return s.mailReviewWanted(tx, *r, buildsvc.Reviewer{User: to}, now)
	})
}

// updateRequest runs change on request id (as who may see it) in one write and stores the
// result.
func (s *Service) updateRequest(who buildstore.Person, id uint64, change func(kv.Tx, *buildstore.Request) error) error {
	return s.db.Write(func(tx kv.Tx) error {
		r, err := loadRequest(tx, who, id)
		if err != nil {
			return err
		}
		if err := change(tx, &r); err != nil {
			return err
		}
		return buildstore.PutRequest(tx, r)
	})
}
