package buildsvc

import "github.com/pocketforge/pocketforge/store/buildstore"

// Reviewer names who a review is by: exactly one of a person, a group, a project, or a
// project's package.
type Reviewer struct {
	User, Group, Project, Package string
}

func ReviewerOf(v buildstore.Review) Reviewer {
	return Reviewer{User: v.ByUser, Group: v.ByGroup, Project: v.ByProject, Package: v.ByPackage}
}

// Review is the review record r stands for.
func (r Reviewer) Review() buildstore.Review {
	return buildstore.Review{ByUser: r.User, ByGroup: r.Group, ByProject: r.Project, ByPackage: r.Package}
}

// Matches reports whether review v is by r.
func (r Reviewer) Matches(v buildstore.Review) bool { return ReviewerOf(v) == r }

// Describe names the reviewer as OBS's messages do.
func (r Reviewer) Describe() string {
	switch {
	case r.User != "":
		return "user " + r.User
	case r.Group != "":
		return "group " + r.Group
	case r.Package != "":
		return "package " + r.Project + "/" + r.Package
	}
	return "project " + r.Project
}
