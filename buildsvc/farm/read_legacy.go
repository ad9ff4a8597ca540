package farm

import (
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// PlatformResults answers the legacy /result/<project>/<platform>[/<package>]/result routes
// from the same state as _result: the results of one repository (the old API's "platform"),
// for one package when pkg is set, with that package's binaries. The repository and the
// package must exist (404 unknown_repository, unknown_package).
func (s *Farm) PlatformResults(who buildstore.Person, project, platform, pkg string) ([]WhereResult, error) {
	err := s.db.View(func(tx kv.Tx) error {
		if _, err := buildsvc.ReadableWhere(tx, who, buildstore.Where{Project: project, Repository: platform}); err != nil {
			return err
		}
		if pkg == "" {
			return nil
		}
		_, err := buildstore.GetPackage(tx, project, pkg)
		return buildsvc.NotFoundAs(err, "unknown_package")
	})
	if err != nil {
		return nil, err
	}
	q := ResultQuery{Repositories: []string{platform}}
	if pkg != "" {
		q.Packages, q.Binaries = []string{pkg}, true
	}
	return s.Results(who, project, q)
}
