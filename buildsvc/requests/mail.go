package requests

import (
	"fmt"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The e-mails OBS sends for requests (mail_recipients.go says to whom they never go): a new
// request to the target maintainers and its reviewers, a new review to the reviewer, a state
// change to the creator.

// summary is the mail body's description of r's actions.
func summary(r buildstore.Request) string {
	var b strings.Builder
	for _, a := range r.Actions {
		fmt.Fprintf(&b, "  %s", a.Type)
		if a.Source != nil {
			fmt.Fprintf(&b, " %s", a.Source.Project)
			if a.Source.Package != "" {
				fmt.Fprintf(&b, "/%s", a.Source.Package)
			}
			b.WriteString(" ->")
		}
		if a.Target != nil {
			fmt.Fprintf(&b, " %s", a.Target.Project)
			if a.Target.Package != "" {
				fmt.Fprintf(&b, "/%s", a.Target.Package)
			}
		}
		b.WriteString("\n")
	}
	if r.Description != "" {
		fmt.Fprintf(&b, "\nDescription:\n%s\n", r.Description)
	}
	return b.String()
}

// mailCreated tells the target maintainers and the reviewers of a new request.
func (s *Service) mailCreated(tx kv.Tx, r buildstore.Request, now time.Time) error {
	to := buildsvc.NewRecipients(tx, r.Creator)
	for _, a := range r.Actions {
		if a.Target != nil {
			to.MaintainersOf(a.Target.Project, a.Target.Package)
		}
	}
	for _, v := range r.Reviews {
		to.Reviewer(buildsvc.ReviewerOf(v))
	}
	return to.Send(now, fmt.Sprintf("Request %d created by %s", r.ID, r.Creator),
		fmt.Sprintf("%s created request %d:\n\n%s", r.Creator, r.ID, summary(r)))
}

// mailReviewWanted tells a reviewer that a request waits for them.
func (s *Service) mailReviewWanted(tx kv.Tx, r buildstore.Request, by buildsvc.Reviewer, now time.Time) error {
	to := buildsvc.NewRecipients(tx, r.State.Who)
	to.Reviewer(by)
	return to.Send(now, fmt.Sprintf("Request %d requires review (%s)", r.ID, by.Describe()),
		fmt.Sprintf("Request %d by %s waits for a review by %s:\n\n%s", r.ID, r.Creator, by.Describe(), summary(r)))
}

// mailStateChanged tells the creator that their request changed state.
func (s *Service) mailStateChanged(tx kv.Tx, r buildstore.Request, now time.Time) error {
	to := buildsvc.NewRecipients(tx, r.State.Who)
	to.Person(r.Creator)
	body := fmt.Sprintf("Request %d changed to %s by %s.\n", r.ID, r.State.Name, r.State.Who)
	if r.State.Comment != "" {
		body += "\nComment:\n" + r.State.Comment + "\n"
	}
	return to.Send(now, fmt.Sprintf("Request %d changed to %s (%s)", r.ID, r.State.Name, r.State.Who), body+"\n"+summary(r))
}
