package buildsvc

import (
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// LinkToBranch turns the plain link project/pkg into a branch link (cmd=linktobranch): its
// expanded files, against the target's newest tree or linkrev, become the branch's copies, and
// the _link gets <branch/> and baserev = the target tree used. A maintainer of the package
// may; a package that is not a link, or already a branch, is refused.
func (s *Service) LinkToBranch(who buildstore.Person, project, pkg, linkrev, comment string) error {
	return s.db.Write(func(tx kv.Tx) error {
		if err := Writable(tx, who, project, pkg, "cmd_execution_no_permission"); err != nil {
			return err
		}
		cur, _, err := buildstore.LatestRevision(tx, project, pkg)
		if err != nil {
			return err
		}
		lf, ok := cur.File(buildstore.LinkFile)
		if !ok {
			return BadRequest("400", "package is not a link")
		}
		data, err := buildstore.GetBlob(tx, lf.MD5)
		if err != nil {
			return err
		}
		l, err := buildstore.ParseLink(data)
		if err != nil {
			return LinkError(err.Error())
		}
		if l.IsBranch() {
			return BadRequest("400", "package is already a branch")
		}
		v, err := ResolveView(tx, project, pkg, "", true, linkrev)
		if err != nil {
			return err
		}
		if v.Pending != nil {
			if err := buildstore.PutExpansion(tx, project, pkg, *v.Pending); err != nil {
				return err
			}
		}
		l.BaseRev, l.Patches = v.Link.SrcMD5, []buildstore.Patch{{Kind: "branch"}}
		sum, err := buildstore.PutBlob(tx, l.Render())
		if err != nil {
			return err
		}
		files := append(v.Tree.Files, buildstore.FileEntry{Name: buildstore.LinkFile, MD5: sum})
		_, err = CommitTree(tx, project, pkg, files, who.Login, s.clk.Now(), CommitOptions{Comment: comment, Listing: true})
		return err
	})
}
