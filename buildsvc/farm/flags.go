package farm

import "github.com/pocketforge/pocketforge/store/buildstore"

// Build and publish flags for one repository and architecture, as the backend resolves them:
// of the entries that match (no repository or this one, no arch or this one), the most specific
// decides — an entry naming the repository outweighs one naming only the arch, one naming both
// outweighs either — and between an enable and a disable of equal weight the disable wins. A
// package's entries decide first; where none of them matches, the project's decide; where none
// of those does either, the flag's default does (build and publish are on by default).

// FlagEnabled says whether flag name is on for repository repo and arch arch, given the
// project's and the package's flag entries.
func FlagEnabled(project, pkg []buildstore.Flag, name, repo, arch string, def bool) bool {
	return flagLevel(pkg, name, repo, arch, flagLevel(project, name, repo, arch, def))
}

// flagLevel resolves one level's entries, falling back to def when none matches.
func flagLevel(flags []buildstore.Flag, name, repo, arch string, def bool) bool {
	enable, disable := -1, -1 // the weight of the best matching entry of each kind
	for _, f := range flags {
		if f.Name != name || (f.Repository != "" && f.Repository != repo) || (f.Arch != "" && f.Arch != arch) {
			continue
		}
		w := 0
		if f.Arch != "" {
			w++
		}
		if f.Repository != "" {
			w += 2
		}
		if f.Status == "disable" {
			disable = max(disable, w)
		} else {
			enable = max(enable, w)
		}
	}
	if enable < 0 && disable < 0 {
		return def
	}
	return enable > disable
}
