package buildsvc

import (
	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/store"
)

// The packages built on the core (buildsvc/farm, requests, search, maintenance, statistics,
// social, attributes) embed *Service, so its operations are theirs; these give them the data
// file and the clock the core runs on, which the core keeps unexported.

// Store is the data file the core reads and writes.
func (s *Service) Store() *store.DB { return s.db }

// Clock is the appliance clock the core runs by.
func (s *Service) Clock() clock.Clock { return s.clk }
