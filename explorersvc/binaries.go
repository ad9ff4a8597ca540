package explorersvc

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/explorerstore"
)

// DefaultBinaryTimeout is how long a binary search may take (the seed's limit); past it the
// search answers ErrTimedOut (504).
const DefaultBinaryTimeout = 60 * time.Second

// ErrTimedOut is what SearchBinaries answers (wrapped) when the backend took longer than the
// binary search timeout.
var ErrTimedOut = errors.New("the binary search timed out")

// BinaryResult is one published binary a binary search found, with where to download it and
// the git repository of its source ("" for none: null in the answer).
type BinaryResult struct {
	Binary
	DownloadURL string
	// SourceURL, GitOrg and GitRepo are the git source: the backend's (scmsync), else the
	// explorer's product data for the binary or its package.
	SourceURL, GitOrg, GitRepo string
}

// BinariesFound is a binary search's answer: the query as searched and the binaries, split by
// whether their source has a git reference, each list in the backend's order (newest version
// first, then name and arch).
type BinariesFound struct {
	Query               string
	WithSCM, WithoutSCM []BinaryResult
}

// SearchBinaries finds the published binaries of the build backend whose binary package name
// is exactly q (surrounding spaces dropped), as osc's `bse` does by default: the backend's
// published binary search for @name='<q>'. Projects hidden from the backend's identity add
// none. An empty q, or one no search can express, is a 400; a backend that answers no sooner
// than the binary timeout is ErrTimedOut; any other backend failure is an error of no fault
// kind (500).
func (s *Service) SearchBinaries(ctx context.Context, q string) (BinariesFound, error) {
	q, err := cleanTerm(q, 0)
	if err != nil {
		return BinariesFound{}, err
	}
	if q == "" {
		return BinariesFound{}, fault.Invalid("missing_query", "a binary search needs a query: q is the binary package name")
	}
	if _, ok := XPathLiteral(q); !ok {
		return BinariesFound{}, ErrUnquotable(q)
	}
	if s.backend == nil {
		return BinariesFound{}, errNoBackend
	}
	timeout := s.BinaryTimeout
	if timeout <= 0 {
		timeout = DefaultBinaryTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	bins, base, err := s.askBinaries(ctx, q)
	if err != nil {
		return BinariesFound{}, err
	}
	found := BinariesFound{Query: q, WithSCM: []BinaryResult{}, WithoutSCM: []BinaryResult{}}
	sources, err := s.gitSources(bins)
	if err != nil {
		return BinariesFound{}, err
	}
	for _, b := range bins {
		r := BinaryResult{Binary: b, DownloadURL: base + b.Path}
		if b.SourceURL != "" {
			r.SourceURL = b.SourceURL
			r.GitOrg, r.GitRepo = gitOrgRepo(b.SourceURL)
		} else if src, ok := sources[b.Name]; ok {
			r.SourceURL, r.GitOrg, r.GitRepo = src.VCSURL, src.VCSOrg, src.VCSRepo
		} else if src, ok := sources[b.Package]; ok && b.Package != "" {
			r.SourceURL, r.GitOrg, r.GitRepo = src.VCSURL, src.VCSOrg, src.VCSRepo
		}
		if r.SourceURL != "" {
			found.WithSCM = append(found.WithSCM, r)
		} else {
			found.WithoutSCM = append(found.WithoutSCM, r)
		}
	}
	return found, nil
}

// askBinaries asks the backend for q's binaries and its download_url (with a trailing /),
// within ctx's deadline: a backend that does not return by then is left to finish alone (the
// in-process build service cannot be interrupted; its answer is dropped) and the search
// answers ErrTimedOut, never hanging its caller.
func (s *Service) askBinaries(ctx context.Context, q string) ([]Binary, string, error) {
	type answer struct {
		bins []Binary
		base string
		err  error
	}
	if ctx.Err() != nil {
		return nil, "", timedOut(ctx)
	}
	done := make(chan answer, 1)
	go func() {
		var a answer
		if a.bins, a.err = s.backend.Binaries(ctx, q); a.err == nil {
			var conf BackendConfig
			if conf, a.err = s.backend.Configuration(ctx); a.err == nil {
				a.base = downloadBase(conf)
			}
		}
		done <- a
	}()
	select {
	case a := <-done:
		switch {
		case ctx.Err() != nil || errors.Is(a.err, context.DeadlineExceeded):
			return nil, "", timedOut(ctx)
		case errors.As(a.err, new(*fault.Error)):
			return nil, "", a.err // a refusal of the backend's (a 400 or 404 of its own)
		case a.err != nil:
			return nil, "", fmt.Errorf("the build backend's binary search failed: %w", a.err)
		}
		return a.bins, a.base, nil
	case <-ctx.Done():
		return nil, "", timedOut(ctx)
	}
}

func timedOut(ctx context.Context) error {
	return fmt.Errorf("%w: %v", ErrTimedOut, context.Cause(ctx))
}

// downloadBase is the configuration's download_url with one trailing slash ("" when it has
// none: download URLs are then the paths under it).
func downloadBase(conf BackendConfig) string {
	for _, st := range conf.Settings {
		if st.Name == "download_url" && st.Value != "" {
			return strings.TrimRight(st.Value, "/") + "/"
		}
	}
	return ""
}

// gitSources finds, in the explorer's product data, a git source for each binary's name and
// package: the first package of that exact name with a vcs_url, in product and arch order.
// The appliance's build service keeps no scmsync, so the product SBOMs — whose RPMs carry
// the VCS tag of the git commit they were built from — are the explorer's only knowledge of
// where a package's source lives. Names already given a source by the backend are not asked.
func (s *Service) gitSources(bins []Binary) (map[string]explorerstore.Package, error) {
	var names []string
	seen := map[string]bool{}
	for _, b := range bins {
		if b.SourceURL != "" {
			continue
		}
		for _, n := range []string{b.Name, b.Package} {
			if n != "" && !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	out := map[string]explorerstore.Package{}
	if len(names) == 0 {
		return out, nil
	}
	err := s.view(func(r *resolver) error {
		for _, n := range names {
			keys := []string{explorerstore.NameKey(n)}
			for _, e := range r.entries(explorerstore.RefsUnder(r.tx, store.ExplorerByName, keys)) {
				if e.Package.Name == n && e.Package.VCSURL != "" {
					out[n] = e.Package
					break
				}
			}
		}
		return nil
	})
	return out, err
}

// gitOrgRepo are the first two path segments of a git repository URL (pool, bash of
// https://src.opensuse.org/pool/bash), "" when it has fewer.
func gitOrgRepo(raw string) (org, repo string) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", ""
	}
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	if len(parts) < 2 {
		return "", ""
	}
	return parts[0], strings.TrimSuffix(parts[1], ".git")
}
