package buildstore

import (
	"errors"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Configuration is the instance's own settings document. Schedulers are the architectures this
// instance builds for (the explorer's backend config reads them); every other architecture
// the service knows is only a name.
type Configuration struct {
	Title       string   `json:"title"`
	Description string   `json:"description"`
	Name        string   `json:"name"`
	Schedulers  []string `json:"schedulers"`
	// Registration says whether POST /person?cmd=register creates persons: "allow" (confirmed
	// at once), "confirmation" (unconfirmed until Admin confirms) or "deny" (the default: an
	// appliance has no mail to confirm sign-ups with).
	Registration string `json:"registration,omitempty"`
}

// Registration modes of the configuration.
var RegistrationModes = []string{"allow", "confirmation", "deny"}

// RegistrationMode is the configured mode, "deny" when none was set.
func (c Configuration) RegistrationMode() string {
	if c.Registration == "" {
		return "deny"
	}
	return c.Registration
}

// DefaultConfiguration is what a file that never stored one answers: the demo world builds
// Pocket:1.0 for x86_64 and aarch64, so those are the schedulers.
var DefaultConfiguration = Configuration{
	Title:       "pocketforge build service",
	Description: "The build service of the pocketforge appliance",
	Name:        "pocketforge",
	Schedulers:  []string{"x86_64", "aarch64"},
}

// Keys of the BuildInstance bucket: one record each, since both are small whole documents.
var (
	keyConfiguration = []byte("configuration")
	keyDistributions = []byte("distributions")
)

// GetConfiguration returns the stored configuration, or DefaultConfiguration.
func GetConfiguration(tx kv.Tx) (Configuration, error) {
	c, err := store.Get[Configuration](tx, store.BuildInstance, keyConfiguration)
	if errors.Is(err, store.ErrNotFound) {
		c = DefaultConfiguration
		c.Schedulers = append([]string(nil), c.Schedulers...)
		return c, nil
	}
	return c, err
}

// PutConfiguration stores the configuration.
func PutConfiguration(tx kv.Tx, c Configuration) error {
	return store.Put(tx, store.BuildInstance, keyConfiguration, c)
}

// Icon is a distribution's logo at one size.
type Icon struct {
	URL    string `json:"url"`
	Width  string `json:"width,omitempty"`
	Height string `json:"height,omitempty"`
}

// Distribution is a base distribution hosted here that projects can build against.
type Distribution struct {
	ID         string   `json:"id"`
	Vendor     string   `json:"vendor"`
	Version    string   `json:"version"`
	Name       string   `json:"name"`
	Project    string   `json:"project"`
	Reponame   string   `json:"reponame"`
	Repository string   `json:"repository"`
	Link       string   `json:"link"`
	Icons      []Icon   `json:"icons,omitempty"`
	Archs      []string `json:"archs,omitempty"`
}

// Distributions returns the list in its stored order (the service keeps the order written).
func Distributions(tx kv.Tx) ([]Distribution, error) {
	list, err := store.Get[[]Distribution](tx, store.BuildInstance, keyDistributions)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	return list, err
}

// PutDistributions replaces the whole list.
func PutDistributions(tx kv.Tx, list []Distribution) error {
	if list == nil {
		list = []Distribution{}
	}
	return store.Put(tx, store.BuildInstance, keyDistributions, list)
}

// GetDistribution returns the distribution with id.
func GetDistribution(tx kv.Tx, id string) (Distribution, error) {
	list, err := Distributions(tx)
	if err != nil {
		return Distribution{}, err
	}
	for _, d := range list {
		if d.ID == id {
			return d, nil
		}
	}
	return Distribution{}, store.NotFoundf("Couldn't find Distribution with id = %s", id)
}
