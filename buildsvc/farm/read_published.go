package farm

import (
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/packaging/rpmout"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Reading the published tree (GET /published/…): the projects and repositories that have one,
// its directories and files, and the one-click-install (ymp) document of a published binary.
// A hidden project is not found, as for every farm read; a published source RPM needs source
// access like a built one.

// publishedNotFound is the answer for a path the tree does not have.
func publishedNotFound(p string) error {
	return fault.NotFound("404", "%s: No such file or directory", p)
}

// cleanPublishedPath refuses a path that is not a plain relative path inside a tree.
func cleanPublishedPath(p string) error {
	if p == "" || strings.HasPrefix(p, "/") || strings.ContainsAny(p, "\\\x00") || path.Clean(p) != p || p == "." ||
		slices.Contains(strings.Split(p, "/"), "..") {
		return publishedNotFound(p)
	}
	return nil
}

// PublishedProjects answers GET /published: the projects with a published tree that who may
// see, by name.
func (s *Farm) PublishedProjects(who buildstore.Person) ([]string, error) {
	var out []string
	err := s.db.View(func(tx kv.Tx) error {
		for _, pr := range buildstore.PublishedRepositories(tx) {
			if len(out) > 0 && out[len(out)-1] == pr[0] {
				continue
			}
			if _, err := buildsvc.ReadableProject(tx, who, pr[0]); err == nil {
				out = append(out, pr[0])
			}
		}
		return nil
	})
	return out, err
}

// PublishedRepositories answers GET /published/<project>: its repositories with a published
// tree.
func (s *Farm) PublishedRepositories(who buildstore.Person, project string) ([]string, error) {
	var out []string
	err := s.db.View(func(tx kv.Tx) error {
		if _, err := buildsvc.ReadableProject(tx, who, project); err != nil {
			return err
		}
		for _, pr := range buildstore.PublishedRepositories(tx) {
			if pr[0] == project {
				out = append(out, pr[1])
			}
		}
		return nil
	})
	return out, err
}

// PublishedDir answers GET /published/<project>/<repository>[/<dir>]: the names directly
// under dir ("" : the top: arch directories, src, repodata), sorted. A repository with no
// published tree, or a dir it does not have, is 404.
func (s *Farm) PublishedDir(who buildstore.Person, project, repo, dir string) ([]string, error) {
	var out []string
	err := s.db.View(func(tx kv.Tx) error {
		if _, err := buildsvc.ReadableWhere(tx, who, buildstore.Where{Project: project, Repository: repo}); err != nil {
			return err
		}
		if dir != "" {
			if err := cleanPublishedPath(dir); err != nil {
				return err
			}
		}
		files := buildstore.PublishedFiles(tx, project, repo, dir)
		if len(files) == 0 {
			return publishedNotFound(path.Join(project, repo, dir))
		}
		base := ""
		if dir != "" {
			base = dir + "/"
		}
		for _, f := range files {
			name, _, _ := strings.Cut(strings.TrimPrefix(f.Path, base), "/")
			if len(out) == 0 || out[len(out)-1] != name {
				out = append(out, name)
			}
		}
		return nil
	})
	return out, err
}

// publishedFile reads the file at p of project's repository repo for who (a copy).
func publishedFile(tx kv.Tx, who buildstore.Person, project, repo, p string) ([]byte, error) {
	r, err := buildsvc.ReadableWhere(tx, who, buildstore.Where{Project: project, Repository: repo})
	if err != nil {
		return nil, err
	}
	if err := cleanPublishedPath(p); err != nil {
		return nil, err
	}
	data := buildstore.PublishedFile(tx, project, repo, p)
	if data == nil {
		return nil, publishedNotFound(p)
	}
	if strings.HasPrefix(p, "src/") {
		// Which package built it: its binary in one of the repository's wheres.
		name := path.Base(p)
		repoMeta, _ := r.Repository(repo)
		for _, arch := range repoMeta.Archs {
			bins, _ := buildstore.Binaries(tx, buildstore.Where{Project: project, Repository: repo, Arch: arch}, "")
			if i := slices.IndexFunc(bins, func(b buildstore.Binary) bool { return b.Filename == name }); i >= 0 {
				if err := buildsvc.SourcesReadable(tx, who, project, bins[i].Package); err != nil {
					return nil, err
				}
				break
			}
		}
	}
	return append([]byte(nil), data...), nil
}

// PublishedFile answers GET /published/<project>/<repository>/<path>: the file's bytes, and
// counts the download.
func (s *Farm) PublishedFile(who buildstore.Person, project, repo, p string) ([]byte, error) {
	var out []byte
	err := s.db.View(func(tx kv.Tx) error {
		var err error
		out, err = publishedFile(tx, who, project, repo, p)
		return err
	})
	if err == nil {
		s.NoteDownload(project, repo, p) // the download counters (download_queue.go)
	}
	return out, err
}

// PublishedURL is where a repository's published tree is served below the appliance's
// external URL: <external>/published/<project>/<repository>/.
func PublishedURL(external, project, repo string) string {
	return strings.TrimRight(external, "/") + "/published/" + url.PathEscape(project) + "/" + url.PathEscape(repo) + "/"
}

// PublishedYMP answers ?view=ymp on a published binary: the one-click-install document that
// adds the repository and those on its path that have a published tree (their URLs below
// external) and installs the binary.
func (s *Farm) PublishedYMP(who buildstore.Person, project, repo, p, external string) (rpmout.Metapackage, error) {
	var doc rpmout.Metapackage
	err := s.db.View(func(tx kv.Tx) error {
		data, err := publishedFile(tx, who, project, repo, p)
		if err != nil {
			return err
		}
		in := rpmout.YMPInput{Binary: rpmout.BinaryName(p)}
		if r, err := rpmout.ReadHeader(data); err == nil {
			in.Binary, in.Summary, in.Description = r.Name, r.Summary, r.Description
		}
		chain, _ := buildsvc.RepoChain(tx, project, repo)
		for _, c := range chain {
			e := rpmout.YMPPathEntry{Project: c.Project, Repository: c.Repository}
			if pr, err := buildsvc.ReadableProject(tx, who, c.Project); err == nil {
				e.Title, e.Description = pr.Title, pr.Description
				if buildstore.PublishedFile(tx, c.Project, c.Repository, "repodata/repomd.xml") != nil {
					e.URL = PublishedURL(external, c.Project, c.Repository)
				}
			}
			in.Path = append(in.Path, e)
		}
		doc = rpmout.YMP(in)
		return nil
	})
	return doc, err
}

// PublishedFileInfo answers ?view=fileinfo on a published file: what an RPM's header says of
// it (only the file name and size for a file that is no RPM).
func (s *Farm) PublishedFileInfo(who buildstore.Person, project, repo, p string) (FileInfo, error) {
	var fi FileInfo
	err := s.db.View(func(tx kv.Tx) error {
		data, err := publishedFile(tx, who, project, repo, p)
		if err != nil {
			return err
		}
		fi.Binary = buildstore.Binary{Filename: path.Base(p), Size: int64(len(data))}
		if r, err := rpmout.ReadHeader(data); err == nil {
			b := &fi.Binary
			b.Name, b.Epoch, b.Version, b.Release, b.Arch = r.Name, r.Epoch, r.Version, r.Release, r.Arch
			b.Summary, b.Description, b.Provides, b.Requires = r.Summary, r.Description, buildsvc.StoredDeps(r.Provides), buildsvc.StoredDeps(r.Requires)
		}
		return nil
	})
	return fi, err
}
