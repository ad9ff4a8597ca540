// Package maintenance is the build service's maintenance workflow, as OBS runs it for updates:
// branching by attribute (osc mbranch), maintenance incidents, patchinfos, channels, the
// instantiation of inherited packages and the collection of build environments. Each file's
// comment says what OBS command it serves and how.
//
// It runs on the build service's core (package buildsvc), whose rules — read protection,
// roles, the commit — it calls; the core never imports it.
package maintenance

import "github.com/pocketforge/pocketforge/buildsvc"

// Service runs these operations over the build service's core, whose methods (Store and Clock
// among them) it promotes.
type Service struct{ *buildsvc.Service }

// New returns the operations over core.
func New(core *buildsvc.Service) *Service { return &Service{core} }
