package buildsvc

import (
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// RepoChain expands a repository's path as the backend does: the repository itself, then each
// <path> element in meta order followed by that repository's own expanded path, depth first,
// every repository once. Builds look their dependencies up along it (the first repository that
// has a binary of a name wins) and combine the configurations of its projects. Path elements
// naming a project or repository that does not exist are returned apart, in order: the
// repository cannot build then.
func RepoChain(tx kv.Tx, project, repo string) (chain, missing []buildstore.Path) {
	seen := map[buildstore.Path]bool{}
	var walk func(p buildstore.Path)
	walk = func(p buildstore.Path) {
		if seen[p] {
			return
		}
		seen[p] = true
		prj, err := buildstore.GetProject(tx, p.Project)
		if err != nil {
			missing = append(missing, p)
			return
		}
		r, ok := prj.Repository(p.Repository)
		if !ok {
			missing = append(missing, p)
			return
		}
		chain = append(chain, p)
		for _, next := range r.Paths {
			walk(next)
		}
	}
	walk(buildstore.Path{Project: project, Repository: repo})
	return chain, missing
}
