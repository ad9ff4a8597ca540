// Package maintenance is the build service's maintenance workflow, as OBS runs it for updates:
// branching by attribute (osc mbranch), maintenance incidents, patchinfos, channels, the
// instantiation of inherited packages and the collection of build environments. Each file's
// comment says what OBS command it serves and how.
//
// It runs on the build service's core (package buildsvc), whose rules — read protection,
// roles, the commit — it calls; the core never imports it.
package maintenance

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
