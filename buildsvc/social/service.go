// Package social is the build service's social side, as the 2.7-era service keeps it: comments on
// projects, packages and requests (comments.go, who may write and moderate them:
// comments_rules.go), tags and the tag cloud (tags.go, tags_cloud.go), messages on projects and
// packages (messages.go) and the site's status messages (status_messages.go).
//
// It runs on the build service's core (package buildsvc), whose rules — read protection,
// roles, the commit — it calls; the core never imports it.
package social

import "github.com/pocketforge/pocketforge/buildsvc"

// Service runs these operations over the build service's core, whose methods (Store and Clock
// among them) it promotes.
type Service struct{ *buildsvc.Service }

// New returns the operations over core.
func New(core *buildsvc.Service) *Service { return &Service{core} }
