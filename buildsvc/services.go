package buildsvc

import (
	"slices"
	"strings"

	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Source services from the package commands (osc service remoterun, wait, merge; cmd=servicediff),
// beside the token trigger (trigger_runservice.go). The appliance has no service programs (no
// network, no tar_scm or obs_scm), so a run does what a run whose services produce nothing new
// does: it commits the package's current tree again, which starts its builds like any commit.
// Files a service generated are named _service:<service>:<file> in the tree (a user cannot
// upload such names to OBS; here they come in only through a copy or an import); merging them
// makes them plain files and drops the _service file, as the backend's mergeservice does.

// ServiceFile is the file that defines a package's services.
const ServiceFile = "_service"

// DefaultServiceComments are the revision comments of a run and a merge without ?comment=.
const (
	DefaultRunServiceComment   = "trigger service run"
	DefaultMergeServiceComment = "merge service files"
)

// noServices is the backend's answer for a package without a _service file.
func noServices() error { return fault.NotFound("404", "no source service defined!") }

// hasServices reports whether files define services.
func hasServices(files []buildstore.FileEntry) bool {
	return slices.ContainsFunc(files, func(f buildstore.FileEntry) bool { return f.Name == ServiceFile })
}

// RunServices is cmd=runservice: who must be able to change the package (a maintainer of it or
// its project; neither locked), which must have a _service file; the run commits the current
// tree again as who, with comment (DefaultRunServiceComment when empty).
func (s *Service) RunServices(who buildstore.Person, project, pkg, comment string) error {
	if comment == "" {
		comment = DefaultRunServiceComment
	}
	return s.db.Write(func(tx kv.Tx) error {
		if err := Writable(tx, who, project, pkg, "cmd_execution_no_permission"); err != nil {
			return err
		}
		files, err := LatestFiles(tx, project, pkg)
		if err != nil {
			return err
		}
		if !hasServices(files) {
			return noServices()
		}
		_, err = CommitTree(tx, project, pkg, files, who.Login, s.clk.Now(), CommitOptions{Comment: comment})
		return err
	})
}

// WaitServices is cmd=waitservice: a run ends as it starts here, so it answers at once — unless
// the package's sources cannot be read by who, or it has no _service file (the backend's 404).
func (s *Service) WaitServices(who buildstore.Person, project, pkg string) error {
	return s.db.View(func(tx kv.Tx) error {
		v, err := ReadView(tx, who, project, pkg, "", false, "")
		if err != nil {
			return err
		}
		if !hasServices(v.Tree.Files) {
			return noServices()
		}
		return nil
	})
}

// MergeServices is cmd=mergeservice: the generated files (_service:<service>:<file>) become
// <file>, replacing a plain file of that name (one without a file part is dropped), and the
// _service file is dropped, in one commit by
// who with comment (DefaultMergeServiceComment when empty). Who must be able to change the
// package; a package without a _service file is the backend's 404.
func (s *Service) MergeServices(who buildstore.Person, project, pkg, comment string) error {
	if comment == "" {
		comment = DefaultMergeServiceComment
	}
	return s.db.Write(func(tx kv.Tx) error {
		if err := Writable(tx, who, project, pkg, "cmd_execution_no_permission"); err != nil {
			return err
		}
		files, err := LatestFiles(tx, project, pkg)
		if err != nil {
			return err
		}
		if !hasServices(files) {
			return noServices()
		}
		_, err = CommitTree(tx, project, pkg, mergedServiceFiles(files), who.Login, s.clk.Now(), CommitOptions{Comment: comment})
		return err
	})
}

// mergedServiceFiles is files with the generated ones under their plain names and without the
// _service file.
func mergedServiceFiles(files []buildstore.FileEntry) []buildstore.FileEntry {
	generated := map[string]buildstore.FileEntry{}
	for _, f := range files {
		if name, ok := generatedName(f.Name); ok && name != "" {
			f.Name = name
			generated[name] = f
		}
	}
	var out []buildstore.FileEntry
	for _, f := range files {
		if _, gen := generatedName(f.Name); gen || f.Name == ServiceFile {
			continue
		}
		if _, replaced := generated[f.Name]; !replaced {
			out = append(out, f)
		}
	}
	for _, f := range generated {
		out = append(out, f)
	}
	slices.SortFunc(out, func(a, b buildstore.FileEntry) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// generatedName reports whether name is a generated file (_service:…) and its plain name: what
// follows the last ":" (_service:<service>:<file> → <file>), as the backend strips it; "" for one
// without (it is dropped by a merge).
func generatedName(name string) (string, bool) {
	rest, ok := strings.CutPrefix(name, "_service:")
	if !ok {
		return "", false
	}
	i := strings.LastIndex(rest, ":")
	if i < 0 {
		return "", true
	}
	return rest[i+1:], true
}

// ServiceDiff is cmd=servicediff: what the services generated at revision rev — the tree without
// its _service:* files against the tree — in the source diff's text format (empty when they
// generated nothing, as every run does here). A package without a _service file is the
// backend's 404.
func (s *Service) ServiceDiff(who buildstore.Person, project, pkg, rev string) (string, error) {
	var text string
	err := s.db.View(func(tx kv.Tx) error {
		v, err := ReadView(tx, who, project, pkg, rev, false, "")
		if err != nil {
			return err
		}
		if !hasServices(v.Tree.Files) {
			return noServices()
		}
		plain := v
		plain.Tree.Files = slices.DeleteFunc(slices.Clone(v.Tree.Files), func(f buildstore.FileEntry) bool {
			_, gen := generatedName(f.Name)
			return gen
		})
		text, err = SourceDiff(tx, plain, v)
		return err
	})
	return text, err
}
