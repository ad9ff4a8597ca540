package explorersvc

import (
	"encoding/hex"
	"slices"
	"strings"

	"github.com/pocketforge/pocketforge/spdx"
	"github.com/pocketforge/pocketforge/store/explorerstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// moveGitHeads makes the git model follow a product the farm built: each of p's packages whose
// vcs reference names a repository the model holds — the same address, so the same host —
// moves that repository's tracked branch to the package's commit (adding the branch when the
// repository has no such branch yet). The appliance hosts no git: a product names what the
// farm built from each branch, so it is the simulated host's one source of truth about where
// those branches are now; after a commit to devel:tools/pocket-cli rebuilds Pocket 1.0,
// pool/pocket-cli's pocket-1.0 is at the new product's commit. It runs in the product's
// import transaction, so a reader sees the branch move with the product. Repositories the
// model does not hold, references to other hosts and malformed ones are left alone: the
// follower only moves what the host has.
func moveGitHeads(tx kv.Tx, p spdx.Product) error {
	moved := map[string]explorerstore.GitRepo{} // owner/name, lower case → the repository as changed
	var order []string
	for _, pk := range p.Packages {
		commit := strings.ToLower(pk.CommitHash)
		if pk.VCSOrg == "" || pk.VCSRepo == "" || !explorerstore.ValidGitBranch(pk.TrackingBranch) || !isCommit(commit) {
			continue
		}
		key := strings.ToLower(pk.VCSOrg + "/" + pk.VCSRepo)
		r, ok := moved[key]
		if !ok {
			var err error
			if r, err = explorerstore.GetGitRepo(tx, pk.VCSOrg, pk.VCSRepo); err != nil || !sameRepoURL(r.URL, pk.VCSURL) {
				continue
			}
			order = append(order, key)
		}
		moved[key] = withHead(r, pk.TrackingBranch, commit)
	}
	for _, key := range order {
		if err := explorerstore.PutGitRepo(tx, moved[key]); err != nil {
			return err
		}
	}
	return nil
}

// sameRepoURL reports whether two addresses name one repository: equal but for case and a
// ".git" suffix, which git hosts ignore.
func sameRepoURL(a, b string) bool {
	return strings.EqualFold(strings.TrimSuffix(a, ".git"), strings.TrimSuffix(b, ".git"))
}

// withHead is r with branch at commit: moved (keeping where it is built) or added.
func withHead(r explorerstore.GitRepo, branch, commit string) explorerstore.GitRepo {
	r.Branches = slices.Clone(r.Branches)
	for i, b := range r.Branches {
		if b.Name == branch {
			r.Branches[i].Commit = commit
			return r
		}
	}
	r.Branches = append(r.Branches, explorerstore.GitBranch{Name: branch, Commit: commit})
	slices.SortFunc(r.Branches, func(a, b explorerstore.GitBranch) int { return strings.Compare(a.Name, b.Name) })
	return r
}

// isCommit reports whether s is a full commit id: 64 hex characters (SHA-256) or 40 (SHA-1).
func isCommit(s string) bool {
	if len(s) != 64 && len(s) != 40 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}
