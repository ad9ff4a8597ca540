// Package social is the build service's social side, as the 2.7-era service keeps it: comments on
// projects, packages and requests (comments.go, who may write and moderate them:
// comments_rules.go), tags and the tag cloud (tags.go, tags_cloud.go), messages on projects and
// packages (messages.go) and the site's status messages (status_messages.go).
//
// It runs on the build service's core (package buildsvc), whose rules — read protection,
// roles, the commit — it calls; the core never imports it.
package social

import (
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/store"
)

// Service runs these operations over the build service's core, whose methods it promotes.
type Service struct {
	*buildsvc.Service
	db  *store.DB
	clk clock.Clock
}

// New returns the operations over core, which reads and writes db by clk.
func New(core *buildsvc.Service, db *store.DB, clk clock.Clock) *Service {
	return &Service{Service: core, db: db, clk: clk}
}
