package buildsvc

import (
	"slices"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Distributions are the base systems hosted here that a project's repository can build against
// (osc and the web UI offer them when adding a repository). Admin maintains the list.

// Distributions lists the distributions.
func (s *Service) Distributions() ([]buildstore.Distribution, error) {
	return ViewOne(s, buildstore.Distributions)
}

// Distribution reads one distribution.
func (s *Service) Distribution(id string) (buildstore.Distribution, error) {
	return viewNamed(s, buildstore.GetDistribution, id)
}

// checkDistribution checks one entry: an id, a name, a project and repository to build
// against, and known architectures.
func checkDistribution(d buildstore.Distribution) error {
	if d.ID == "" || d.Name == "" || d.Project == "" || d.Repository == "" {
		return Invalid("distribution", "id, name, project and repository are required ('%s')", d.ID)
	}
	for _, arch := range d.Archs {
		if !slices.Contains(Architectures, arch) {
			return Invalid("distribution", "unknown architecture '%s' in '%s'", arch, d.ID)
		}
	}
	return nil
}

// PutDistributions replaces the whole list (Admin); decodeErr is what the handler found wrong
// with the document. Ids must be unique; projects are not checked here, as the service allows
// listing distributions built elsewhere.
func (s *Service) PutDistributions(who buildstore.Person, list []buildstore.Distribution, decodeErr error) error {
	return s.writeInstance(who, "change the distributions", decodeErr, func() error { return checkDistributions(list) },
		func(tx kv.Tx) error { return PutDistributionsTx(tx, who, list) })
}

// PutDistributionsTx is PutDistributions of a decoded list inside the caller's transaction
// (the fixtures list the demo distribution in theirs).
func PutDistributionsTx(tx kv.Tx, who buildstore.Person, list []buildstore.Distribution) error {
	if err := AdminOnly(who, "change the distributions"); err != nil {
		return err
	}
	if err := checkDistributions(list); err != nil {
		return err
	}
	return buildstore.PutDistributions(tx, list)
}

// checkDistributions checks each entry, and that no id is repeated.
func checkDistributions(list []buildstore.Distribution) error {
	for i, d := range list {
		if err := checkDistribution(d); err != nil {
			return err
		}
		if slices.ContainsFunc(list[:i], func(o buildstore.Distribution) bool { return o.ID == d.ID }) {
			return Invalid("distributions", "distribution id '%s' is repeated", d.ID)
		}
	}
	return nil
}

// ChangeDistribution replaces the existing entry id with d (Admin); d without an id is the
// URL's. The entry must be hosted here, so its project must exist on this instance.
func (s *Service) ChangeDistribution(who buildstore.Person, id string, d buildstore.Distribution, decodeErr error) error {
	check := func() error {
		if err := urlKey(&d.ID, id, "id_mismatch", "id"); err != nil {
			return err
		}
		return checkDistribution(d)
	}
	return s.writeInstance(who, "change the distributions", decodeErr, check, func(tx kv.Tx) error {
		if _, err := buildstore.GetDistribution(tx, id); err != nil {
			return err
		}
		if err := buildstore.CheckProject(tx, d.Project); err != nil {
			return Invalid("distribution", "project '%s' is not hosted on this instance", d.Project)
		}
		list, err := buildstore.Distributions(tx)
		if err != nil {
			return err
		}
		list[slices.IndexFunc(list, func(o buildstore.Distribution) bool { return o.ID == id })] = d
		return buildstore.PutDistributions(tx, list)
	})
}
