package buildsvc

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/outbox"
	"go.etcd.io/bbolt"
)

// The e-mails OBS sends for requests, written to the outbox (/_appliance/outbox): a new request
// to the target maintainers and its reviewers, a new review to the reviewer, a state change to
// the creator. Nobody is mailed about their own action, and persons without an address are
// skipped, as OBS's event subscriptions do by default.

// mailFrom is the build service's sender address.
const mailFrom = "obs-noreply@pocketforge.test"

// recipients collects e-mail addresses of logins, leaving out the actor.
type recipients struct {
	tx    *bbolt.Tx
	actor string
	to    []string
}

func (r *recipients) person(login string) {
	if login == "" || login == r.actor {
		return
	}
	p, err := buildstore.GetPerson(r.tx, login)
	if err == nil && p.Email != "" && !slices.Contains(r.to, p.Email) {
		r.to = append(r.to, p.Email)
	}
}

func (r *recipients) group(title string) {
	g, err := buildstore.GetGroup(r.tx, title)
	if err != nil {
		return
	}
	for _, m := range append(slices.Clone(g.Maintainers), g.Members...) {
		r.person(m)
	}
}

// maintainers adds the maintainers of a project, or of its package (and the project's).
func (r *recipients) maintainers(project, pkg string) {
	roles := func(persons, groups []buildstore.Role) {
		for _, p := range persons {
			if p.Role == buildstore.RoleMaintainer {
				r.person(p.ID)
			}
		}
		for _, g := range groups {
			if g.Role == buildstore.RoleMaintainer {
				r.group(g.ID)
			}
		}
	}
	if p, err := buildstore.GetProject(r.tx, project); err == nil {
		roles(p.Persons, p.Groups)
	}
	if pkg != "" {
		if k, err := buildstore.GetPackage(r.tx, project, pkg); err == nil {
			roles(k.Persons, k.Groups)
		}
	}
}

func (r *recipients) reviewer(v Reviewer) {
	switch {
	case v.User != "":
		r.person(v.User)
	case v.Group != "":
		r.group(v.Group)
	case v.Project != "":
		r.maintainers(v.Project, v.Package)
	}
}

// send writes the mail when anybody is to get it.
func (r *recipients) send(now time.Time, subject, body string) error {
	if len(r.to) == 0 {
		return nil
	}
	return outbox.Send(r.tx, &outbox.Mail{Time: now, API: "build", From: mailFrom, To: r.to, Subject: subject, Body: body})
}

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
func (s *Service) mailCreated(tx *bbolt.Tx, r buildstore.Request, now time.Time) error {
	to := &recipients{tx: tx, actor: r.Creator}
	for _, a := range r.Actions {
		if a.Target != nil {
			to.maintainers(a.Target.Project, a.Target.Package)
		}
	}
	for _, v := range r.Reviews {
		to.reviewer(reviewerOf(v))
	}
	return to.send(now, fmt.Sprintf("Request %d created by %s", r.ID, r.Creator),
		fmt.Sprintf("%s created request %d:\n\n%s", r.Creator, r.ID, summary(r)))
}

// mailReviewWanted tells a reviewer that a request waits for them.
func (s *Service) mailReviewWanted(tx *bbolt.Tx, r buildstore.Request, by Reviewer, now time.Time) error {
	to := &recipients{tx: tx, actor: r.State.Who}
	to.reviewer(by)
	return to.send(now, fmt.Sprintf("Request %d requires review (%s)", r.ID, by.describe()),
		fmt.Sprintf("Request %d by %s waits for a review by %s:\n\n%s", r.ID, r.Creator, by.describe(), summary(r)))
}

// mailStateChanged tells the creator that their request changed state.
func (s *Service) mailStateChanged(tx *bbolt.Tx, r buildstore.Request, now time.Time) error {
	to := &recipients{tx: tx, actor: r.State.Who}
	to.person(r.Creator)
	body := fmt.Sprintf("Request %d changed to %s by %s.\n", r.ID, r.State.Name, r.State.Who)
	if r.State.Comment != "" {
		body += "\nComment:\n" + r.State.Comment + "\n"
	}
	return to.send(now, fmt.Sprintf("Request %d changed to %s (%s)", r.ID, r.State.Name, r.State.Who), body+"\n"+summary(r))
}
