package buildsvc

import (
	"time"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
	"github.com/pocketforge/pocketforge/store/outbox"
)

// The build service's e-mails (requests, reviews, comments) go to the outbox
// (/_appliance/outbox) from one sender, each address once, never to the person whose action
// it is, and skipping persons without an address, as OBS's default subscriptions do.

// mailFrom is the build service's sender address.
const mailFrom = "no-reply@pocketforge.test"

// NewRecipients starts a mail's address list for an action by actor.
func NewRecipients(tx kv.Tx, actor string) *Recipients {
	return &Recipients{tx: tx, skip: map[string]bool{actor: true}}
}

// Recipients collects mail addresses once each, leaving out the persons in skip and those
// without an address.
type Recipients struct {
	tx        kv.Tx
	skip      map[string]bool
	addresses []string
}

func (r *Recipients) add(address string) {
	for _, a := range r.addresses {
		if a == address {
			return
		}
	}
	r.addresses = append(r.addresses, address)
}

// Person adds the person's address.
func (r *Recipients) Person(login string) {
	if login == "" || r.skip[login] {
		return
	}
	if p, err := buildstore.GetPerson(r.tx, login); err == nil && p.Email != "" {
		r.add(p.Email)
	}
}

// group adds the group's address, or its members' when it has none.
func (r *Recipients) group(title string) {
	if title == "" {
		return
	}
	g, err := buildstore.GetGroup(r.tx, title)
	if err != nil {
		return
	}
	if g.Email != "" {
		r.add(g.Email)
		return
	}
	for _, m := range g.Members {
		r.Person(m)
	}
}

// Maintainers adds the persons and groups with the maintainer role.
func (r *Recipients) Maintainers(persons, groups []buildstore.Role) {
	for _, p := range persons {
		if p.Role == buildstore.RoleMaintainer {
			r.Person(p.ID)
		}
	}
	for _, g := range groups {
		if g.Role == buildstore.RoleMaintainer {
			r.group(g.ID)
		}
	}
}

// MaintainersOf adds the maintainers of a project and, when pkg is named, of its package.
func (r *Recipients) MaintainersOf(project, pkg string) {
	if p, err := buildstore.GetProject(r.tx, project); err == nil {
		r.Maintainers(p.Persons, p.Groups)
	}
	if pkg != "" {
		if k, err := buildstore.GetPackage(r.tx, project, pkg); err == nil {
			r.Maintainers(k.Persons, k.Groups)
		}
	}
}

// Reviewer adds who a review is by: the person, the group, or the project's or package's
// maintainers.
func (r *Recipients) Reviewer(v Reviewer) {
	switch {
	case v.User != "":
		r.Person(v.User)
	case v.Group != "":
		r.group(v.Group)
	case v.Project != "":
		r.MaintainersOf(v.Project, v.Package)
	}
}

// Send writes the mail when anybody is to get it.
func (r *Recipients) Send(now time.Time, subject, body string) error {
	if len(r.addresses) == 0 {
		return nil
	}
	return outbox.Send(r.tx, &outbox.Mail{Time: now, API: "build", From: mailFrom, To: r.addresses, Subject: subject, Body: body})
}
