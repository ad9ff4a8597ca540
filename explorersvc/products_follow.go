package explorersvc

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"

	"github.com/pocketforge/pocketforge/store/explorerstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The explorer follows the farm: the product media the build service published in the
// followed projects (Backend.Products) are imported through the same importer as product
// files, so /api/products/* answer from what the farm actually built.
//
// A medium's product is imported with the source build:<project>/<repository>/<arch>/<package>
// (FarmSource): where the farm built and published it. OBS names neither projects nor
// repositories, archs or packages with a "/", so the source reads back unambiguously, and no
// file path or upload name starts with "build:" — the follower adds and removes only products
// of such sources, never one imported from a file, an upload or the demo fixtures.
//
// A pass runs when the results cache's change mark moved since the follower's last pass (an
// idle farm costs nothing), over the projects in the cache (followed, and readable by the
// backend's identity). For each project it lists the published media and:
//   - imports a medium whose digest differs from its stored product's; a rebuild (the same
//     product name, version and arch with another build label, Build1.2 after Build1.1) from
//     the same source replaces the older build in the import's one transaction, so a search
//     sees the old build or the new one, never both or neither; in that transaction the git
//     model's branches the product tracks move to its commits (moveGitHeads). Of several
//     builds of one product a source publishes at once, only the newest is imported
//     (newestMedia);
//   - removes the products of a source that no longer publishes them (the package deleted or
//     unpublished), and those of projects that left the cache (deleted, hidden, unfollowed).
//
// A medium that fails is logged and retried on the next change, and its source's products
// stay as they were; one whose files do not parse (or that names another product than its
// SBOM does, or whose product another source imported) is remembered by digest and not read
// again until it changes (a medium without a digest is read on every pass). A product's full
// name is its key, so a medium whose product was imported from another source (a file, the
// demo fixtures, another product package) is not imported until that product goes. The
// follower never stops the results cache: it runs as its own job.

// ProductsJob is the name of the clock job that imports the farm's product media.
const ProductsJob = "explorer-products"

// farmPrefix starts the source of every product the follower imported.
const farmPrefix = "build:"

// FarmSource is the source a medium's product is imported with:
// build:<project>/<repository>/<arch>/<package>.
func FarmSource(m ProductMedium) string {
	return farmPrefix + m.Project + "/" + m.Repository + "/" + m.Arch + "/" + m.Package
}

// farmProject is the project of a farm source; ok is false for any other source.
func farmProject(source string) (project string, ok bool) {
	rest, ok := strings.CutPrefix(source, farmPrefix)
	if !ok {
		return "", false
	}
	project, _, ok = strings.Cut(rest, "/")
	return project, ok && project != ""
}

// mediumKey names a medium in the follower's memory: its source and product name.
func mediumKey(m ProductMedium) string { return FarmSource(m) + "\x00" + m.Name }

// productFollower is the follower's memory between passes.
type productFollower struct {
	mu   sync.Mutex // one pass at a time
	ran  bool
	mark uint64 // the results snapshot's mark of the last pass
	// bad remembers the media that did not parse, or whose product another source holds, by
	// mediumKey: the digest (and that source) they had.
	bad map[string]string
}

// followPass is one pass's view: the farm's products as stored when it began, and what must
// stay.
type followPass struct {
	stored    map[string]explorerstore.Product // full name → farm product
	keep      map[string]bool                  // full names the published media account for
	keepFrom  map[string]bool                  // sources whose medium failed: their products stay
	listed    map[string]bool                  // projects whose media were listed
	seen      map[string]bool                  // the media listed, by mediumKey
	logFailed func(m ProductMedium, what string, err error)
}

// FollowProducts brings the farm's products in step with the media the backend publishes now
// (only when the results cache moved since the last pass, unless force): for tests, and for
// callers that just changed the farm (after RefreshResults, whose snapshot names the projects
// followed).
func (s *Service) FollowProducts(force bool) error {
	if s.results == nil {
		return errNoBackend
	}
	return s.followProducts(context.Background(), force)
}

// followProducts runs a pass when the results cache moved since the last one (or force). Per
// medium failures are logged; a project whose media cannot be listed is an error (its
// products stay). A panic is an error too: the follower must never take the job runner or the
// detached refresh down with it.
func (s *Service) followProducts(ctx context.Context, force bool) (err error) {
	f, c := s.follower, s.results
	if f == nil || c == nil {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	snap := c.snap.Load()
	if snap == nil || (f.ran && !force && snap.mark == f.mark) {
		return nil
	}
	f.ran, f.mark = true, snap.mark
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the product follower failed: %v", p)
		}
	}()
	log := s.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	pass, err := s.startPass(log)
	if err != nil {
		return err
	}
	var errs []error
	for _, project := range snap.names {
		media, err := s.backend.Products(ctx, project)
		if err != nil {
			errs = append(errs, fmt.Errorf("product media of %s: %w", project, err))
			continue
		}
		pass.listed[project] = true
		for _, m := range newestMedia(media) {
			if m.Project != project { // never import under a project the explorer was not asked for
				log.Warn("explorer: product medium not imported: listed under another project", "listed", project,
					"source", FarmSource(m), "product", m.Name)
				continue
			}
			s.followMedium(ctx, f, pass, m, log)
		}
	}
	errs = append(errs, s.removeUnpublished(pass, snap, log))
	f.forget(pass)
	return errors.Join(errs...)
}

// forget drops what the follower remembers of media no longer published in a listed project,
// so its memory holds only what is published.
func (f *productFollower) forget(pass *followPass) {
	for key := range f.bad {
		if project, _ := farmProject(key); pass.listed[project] && !pass.seen[key] {
			delete(f.bad, key)
		}
	}
}

// startPass reads the farm's products as they are.
func (s *Service) startPass(log *slog.Logger) (*followPass, error) {
	pass := &followPass{stored: map[string]explorerstore.Product{}, keep: map[string]bool{},
		keepFrom: map[string]bool{}, listed: map[string]bool{}, seen: map[string]bool{}}
	pass.logFailed = func(m ProductMedium, what string, err error) {
		pass.keepFrom[FarmSource(m)] = true
		log.Warn("explorer: product medium not imported: "+what, "source", FarmSource(m), "product", m.Name, "error", err)
	}
	err := s.Store.View(func(tx kv.Tx) error {
		list, err := explorerstore.Products(tx)
		for _, p := range list {
			if _, ok := farmProject(p.Source); ok {
				pass.stored[p.FullName] = p
			}
		}
		return err
	})
	return pass, err
}

// removeUnpublished removes the farm's products no published medium accounts for: those of a
// listed project whose source no longer publishes them, and those of projects that left the
// results cache. When the cache's last refresh failed somewhere, a project missing from it may
// only have failed its first read, so only listed projects lose products then.
func (s *Service) removeUnpublished(pass *followPass, snap *resultsSnapshot, log *slog.Logger) error {
	var errs []error
	for full, p := range pass.stored {
		project, _ := farmProject(p.Source)
		if pass.keep[full] || pass.keepFrom[p.Source] {
			continue
		}
		if !pass.listed[project] && (snap.retry || snap.projects[project] != nil) {
			continue
		}
		found, err := s.remove(full) // not found: a rebuild of this pass replaced it already
		if err != nil {
			errs = append(errs, fmt.Errorf("removing %s: %w", full, err))
			continue
		}
		if !found {
			continue
		}
		log.Info("explorer: product removed, no longer published", "product", full, "source", p.Source)
	}
	return errors.Join(errs...)
}
