// Package attributes is the build service's attributes (/attribute and
// /source/P[/K[/B]]/_attribute): namespaces and definitions (namespaces.go, definitions.go), who
// may change them (rules.go) and the values on projects, packages and binaries (values.go,
// write.go), with the 2.7-era service's rules and wording.
//
// It runs on the build service's core (package buildsvc), whose rules — read protection,
// roles, the commit — it calls; the core never imports it.
package attributes

import "github.com/pocketforge/pocketforge/buildsvc"

// Service runs these operations over the build service's core, whose methods (Store and Clock
// among them) it promotes.
type Service struct{ *buildsvc.Service }

// New returns the operations over core.
func New(core *buildsvc.Service) *Service { return &Service{core} }
