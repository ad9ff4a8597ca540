package farm

import (
	"fmt"
	"strings"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The public download tree (issue 34): the published repositories anyone may install from,
// without credentials, laid out as OBS's download server lays them out. A project is in it
// when nobody is kept from it: an anonymous reader may see it (no access flag hides it) and
// read its sources (no sourceaccess flag protects them); a protected project is never there,
// answered as a missing one. The reads are the published tree's (farm_read_published.go) as an
// anonymous person, so the read-protection rule is the same one.

// downloader is the person the download tree reads as: nobody signed in.
var downloader = buildstore.Person{}

// downloadable checks that project belongs in the download tree (unknown_project otherwise).
func downloadable(tx kv.Tx, project string) error {
	if _, err := buildsvc.ReadableProject(tx, downloader, project); err != nil {
		return err
	}
	if buildsvc.SourcesReadable(tx, downloader, project, "") != nil {
		return buildsvc.ProjectNotFound(project)
	}
	return nil
}

// DownloadProjects lists the projects of the download tree that have a published repository.
func (s *Farm) DownloadProjects() ([]string, error) {
	var out []string
	err := s.db.View(func(tx kv.Tx) error {
		for _, pr := range buildstore.PublishedRepositories(tx) {
			if (len(out) == 0 || out[len(out)-1] != pr[0]) && downloadable(tx, pr[0]) == nil {
				out = append(out, pr[0])
			}
		}
		return nil
	})
	return out, err
}

// DownloadRepositories lists project's published repositories in the download tree.
func (s *Farm) DownloadRepositories(project string) ([]string, error) {
	if err := s.db.View(func(tx kv.Tx) error { return downloadable(tx, project) }); err != nil {
		return nil, err
	}
	return s.PublishedRepositories(downloader, project)
}

// DownloadDir lists a directory of a repository in the download tree ("" its top).
func (s *Farm) DownloadDir(project, repo, dir string) ([]string, error) {
	if err := s.db.View(func(tx kv.Tx) error { return downloadable(tx, project) }); err != nil {
		return nil, err
	}
	return s.PublishedDir(downloader, project, repo, dir)
}

// DownloadFile reads a file of a repository in the download tree (counted as a download); the
// bytes may be shared with other callers: they must not be modified.
// Whether the repository is in the tree is remembered until the next commit (s.downloadable):
// a package manager fetches a repository's files by the hundred, and deciding it decodes the
// project three times — 45 of the 60 µs an RPM cost end to end. A source RPM still goes
// through the published tree's read, which checks its package's own source protection.
func (s *Farm) DownloadFile(project, repo, p string) ([]byte, error) {
	ok, err := s.downloadable.Get(project+"\x00"+repo, func(tx kv.Tx) (bool, error) {
		if downloadable(tx, project) != nil {
			return false, nil
		}
		_, err := buildsvc.ReadableWhere(tx, downloader, buildstore.Where{Project: project, Repository: repo})
		return err == nil, nil
	})
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, buildsvc.ProjectNotFound(project)
	}
	if strings.HasPrefix(p, "src/") {
		return s.PublishedFile(downloader, project, repo, p)
	}
	if err := cleanPublishedPath(p); err != nil {
		return nil, err
	}
	// small files (metadata, most packages) are remembered until the next commit too; the
	// answer is shared: callers must not modify it
	out, err := s.downloadFiles.Get(project+"\x00"+repo+"\x00"+p, func(tx kv.Tx) ([]byte, error) {
		data := buildstore.PublishedFile(tx, project, repo, p)
		if data == nil {
			return nil, publishedNotFound(p)
		}
		if len(data) > maxRememberedDownload {
			return nil, nil // read again each time, below
		}
		return append([]byte(nil), data...), nil
	})
	if err == nil && out == nil {
		err = s.db.View(func(tx kv.Tx) error {
			data := buildstore.PublishedFile(tx, project, repo, p)
			if data == nil {
				return publishedNotFound(p)
			}
			out = append([]byte(nil), data...)
			return nil
		})
	}
	if err == nil {
		s.NoteDownload(project, repo, p)
	}
	return out, err
}

// maxRememberedDownload is the largest file DownloadFile remembers (4,096 of them at most, a
// Memo's bound: 256 MiB at worst).
const maxRememberedDownload = 64 << 10

// DownloadRepoFile is the <project>.repo file of a repository in the download tree, as OBS
// writes one for zypper and dnf: the section named after the project (":" → "_"), its title
// and the repository, the tree at base (the repository's URL, ending in /), signature checks
// on, the key beside repomd.xml.
func (s *Farm) DownloadRepoFile(project, repo, base string) (string, error) {
	var title string
	err := s.db.View(func(tx kv.Tx) error {
		if err := downloadable(tx, project); err != nil {
			return err
		}
		p, err := buildsvc.ReadableWhere(tx, downloader, buildstore.Where{Project: project, Repository: repo})
		if err != nil {
			return err
		}
		if len(buildstore.PublishedFiles(tx, project, repo, "repodata")) == 0 {
			return publishedNotFound(project + "/" + repo)
		}
		title = strings.TrimSpace(p.Title)
		if title == "" {
			title = project
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("[%s]\nname=%s (%s)\ntype=rpm-md\nbaseurl=%s\ngpgcheck=1\ngpgkey=%srepodata/repomd.xml.key\nenabled=1\n",
		strings.ReplaceAll(project, ":", "_"), title, repo, base, base), nil
}

// DownloadPath is a project's path in the download tree: every ":" followed by "/", as OBS's
// download server writes it (devel:tools → devel:/tools).
func DownloadPath(project string) string {
	return strings.ReplaceAll(project, ":", ":/")
}

// SplitDownloadPath reads a path of the download tree (after its prefix) back: the project
// (segments ending in ":" join the next one), then the repository and the rest.
func SplitDownloadPath(p string) (project, repo, rest string) {
	p = strings.Trim(p, "/")
	var b strings.Builder
	for {
		seg, after, more := strings.Cut(p, "/")
		b.WriteString(seg)
		p = after
		if !more || !strings.HasSuffix(seg, ":") {
			break
		}
	}
	repo, rest, _ = strings.Cut(p, "/")
	return b.String(), repo, rest
}
