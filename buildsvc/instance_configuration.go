package buildsvc

import (
	"slices"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// ConfigurationChange is what a configuration write changes. The instance's name is its
// identity and is not changed here.
type ConfigurationChange struct {
	Title, Description string
	// Registration is one of buildstore.RegistrationModes; "" keeps the stored one.
	Registration string
	// SetSchedulers says the document lists the schedulers; without it the stored ones stay.
	SetSchedulers bool
	// Schedulers are architectures the service knows, each once.
	Schedulers []string
}

// Configuration reads the instance's configuration.
func (s *Service) Configuration() (buildstore.Configuration, error) {
	return ViewOne(s, buildstore.GetConfiguration)
}

// check applies the configuration's content rules.
func (ch ConfigurationChange) check() error {
	if ch.Registration != "" && !slices.Contains(buildstore.RegistrationModes, ch.Registration) {
		return Invalid("configuration", "registration must be allow, confirmation or deny, not '%s'", ch.Registration)
	}
	for i, arch := range ch.Schedulers {
		if !slices.Contains(Architectures, arch) || slices.Contains(ch.Schedulers[:i], arch) {
			return Invalid("configuration", "unknown or repeated scheduler architecture '%s'", arch)
		}
	}
	return nil
}

// ChangeConfiguration updates title, description, registration and schedulers (Admin);
// decodeErr is what the handler found wrong with the document, reported after the Admin check.
func (s *Service) ChangeConfiguration(who buildstore.Person, ch ConfigurationChange, decodeErr error) error {
	return s.writeInstance(who, "change the configuration", decodeErr, ch.check, func(tx kv.Tx) error {
		conf, err := buildstore.GetConfiguration(tx)
		if err != nil {
			return err
		}
		conf.Title, conf.Description = ch.Title, ch.Description
		if ch.Registration != "" {
			conf.Registration = ch.Registration
		}
		if ch.SetSchedulers {
			conf.Schedulers = append([]string{}, ch.Schedulers...)
		}
		return buildstore.PutConfiguration(tx, conf)
	})
}
