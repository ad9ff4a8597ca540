package buildsvc

import (
	"fmt"
	"slices"

	"github.com/pocketforge/pocketforge/packaging/rpmout"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// copyPackageBinaries copies, for a project copy withbinaries, package pkg's binaries from
// every where of origin into the same where of project (a repository and architecture the
// copy has too), with its build state: the finished build's outcome and the sources and
// dependencies it was built from, so the copy's first scheduler pass finds it up to date
// rather than building it again (the backend copies a repository's build state likewise).
// With sign (resign=1), the copied RPMs are signed again with the target's key.
func copyPackageBinaries(tx kv.Tx, origin buildstore.Project, pkg, project string, sign rpmout.Signer) error {
	dst, err := buildstore.GetProject(tx, project)
	if err != nil {
		return err
	}
	for _, r := range origin.Repositories {
		to, ok := dst.Repository(r.Name)
		if !ok {
			continue
		}
		for _, arch := range r.Archs {
			if !slices.Contains(to.Archs, arch) {
				continue
			}
			from := buildstore.Where{Project: origin.Name, Repository: r.Name, Arch: arch}
			w := buildstore.Where{Project: project, Repository: r.Name, Arch: arch}
			if err := CopyBinaries(tx, from, pkg, w, pkg, func(b buildstore.Binary) string { return b.Filename }, sign); err != nil {
				return err
			}
			st, err := buildstore.GetStatus(tx, from, pkg)
			if err != nil || st.Last == "" {
				continue // never built there: the copy's pass decides
			}
			copied := buildstore.BuildStatus{Package: pkg, Code: st.Last, SrcMD5: st.LastSrcMD5, Rev: st.Rev, DepsHash: st.LastDepsHash,
				Version: st.Version, VRev: st.VRev, Bcnt: st.Bcnt, Reason: st.Reason,
				Last: st.Last, LastSrcMD5: st.LastSrcMD5, LastDepsHash: st.LastDepsHash, LastEnd: st.LastEnd}
			if err := buildstore.PutStatus(tx, w, copied); err != nil {
				return err
			}
		}
	}
	return nil
}

// CopyBinaries replaces the binaries of package toPkg in where to with those of fromPkg in
// from, each under the file name rename gives it (the record says the package toPkg); with
// sign, every RPM is signed again with it (copy with resign: the target's key).
func CopyBinaries(tx kv.Tx, from buildstore.Where, fromPkg string, to buildstore.Where, toPkg string, rename func(buildstore.Binary) string, sign rpmout.Signer) error {
	bins, err := buildstore.Binaries(tx, from, fromPkg)
	if err != nil {
		return err
	}
	if len(bins) == 0 {
		return nil // nothing built (yet): a release copies what there is
	}
	if err := buildstore.DeleteBinaries(tx, to, toPkg); err != nil {
		return err
	}
	for _, b := range bins {
		data := append([]byte(nil), buildstore.BinaryFile(tx, from, fromPkg, b.Filename)...)
		if sign != nil && rpmout.IsRPM(data) {
			var err error
			if data, err = rpmout.Sign(data, sign); err != nil {
				return fmt.Errorf("signing %s again: %w", b.Filename, err)
			}
			SetDigests(&b, data)
		}
		b.Package, b.Filename = toPkg, rename(b)
		if err := buildstore.PutBinary(tx, to, b, data); err != nil {
			return err
		}
	}
	return nil
}
