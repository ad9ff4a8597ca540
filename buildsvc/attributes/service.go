// Package attributes is the build service's attributes (/attribute and
// /source/P[/K[/B]]/_attribute): namespaces and definitions (namespaces.go, definitions.go), who
// may change them (rules.go) and the values on projects, packages and binaries (values.go,
// write.go), with the 2.7-era service's rules and wording.
//
// It runs on the build service's core (package buildsvc), whose rules — read protection,
// roles, the commit — it calls; the core never imports it.
package attributes

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
