package explorerapi

import (
	"net/http"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/explorerstore"
	"go.etcd.io/bbolt"
)

// The three product searches. Each resolves what it found in one read transaction, so it sees
// every product as it was before or after an import.

// maxTerm is the longest search term taken; longer ones are a 400, not a slow search.
const maxTerm = 256

// productJSON is a package entry's product.
type productJSON struct {
	Name        string `json:"name"`
	Version     string `json:"version"`
	Arch        string `json:"architecture"`
	BuildNumber string `json:"build_number"`
	FullName    string `json:"full_name"`
}

// packageJSON is the seed's package entry.
type packageJSON struct {
	PackageName    string      `json:"package_name"`
	Arch           string      `json:"arch"`
	Filename       string      `json:"filename"`
	VCSURL         string      `json:"vcs_url"`
	VCSOrg         string      `json:"vcs_org"`
	TrackingBranch string      `json:"tracking_branch"`
	CommitHash     string      `json:"commit_hash"`
	DistURL        string      `json:"disturl"`
	Product        productJSON `json:"product"`
}

// badTerm is the 400 of an unusable search term.
func badTerm(msg string) error { return &kit.Error{Status: http.StatusBadRequest, Reason: msg} }

// term reads q: absent is ok only when optional; present, it must be valid UTF-8, at most
// maxTerm bytes and (when min > 0) at least min characters. Surrounding spaces are dropped.
func term(c *fiber.Ctx, min int) (string, bool, error) {
	raw := c.Context().QueryArgs().Peek("q")
	if raw == nil && min == 0 {
		return "", false, nil
	}
	q := strings.TrimSpace(string(raw))
	switch {
	case !utf8.ValidString(q):
		return "", true, badTerm("search term is not valid UTF-8")
	case len(q) > maxTerm:
		return "", true, badTerm("search term is longer than 256 bytes")
	case min > 0 && utf8.RuneCountInString(q) < min:
		return "", true, badTerm("search term must be at least 2 characters")
	case strings.ContainsRune(q, 0):
		return "", true, badTerm("search term contains a NUL character")
	}
	return q, true, nil
}

// resolver renders refs as package entries inside one read transaction, reading each product
// record once.
type resolver struct {
	tx       *bbolt.Tx
	products map[string]explorerstore.Product
}

func (r *resolver) product(full string) explorerstore.Product {
	if p, ok := r.products[full]; ok {
		return p
	}
	p, err := explorerstore.GetProduct(r.tx, full)
	if err != nil {
		p = explorerstore.Product{FullName: full, Name: full}
	}
	r.products[full] = p
	return p
}

func (r *resolver) entry(ref explorerstore.Ref) (packageJSON, bool) {
	pk, err := explorerstore.GetPackage(r.tx, ref)
	if err != nil {
		return packageJSON{}, false
	}
	p := r.product(ref.Product)
	return packageJSON{PackageName: pk.Name, Arch: pk.Arch, Filename: pk.Filename, VCSURL: pk.VCSURL, VCSOrg: pk.VCSOrg,
		TrackingBranch: pk.TrackingBranch, CommitHash: pk.CommitHash, DistURL: pk.DistURL,
		Product: productJSON{Name: p.Name, Version: p.Version, Arch: p.Arch, BuildNumber: p.BuildNumber, FullName: p.FullName}}, true
}

// entries renders refs, sorted by package name, then product and architecture.
func (r *resolver) entries(refs []explorerstore.Ref) []packageJSON {
	out := make([]packageJSON, 0, len(refs))
	lower := make([]string, 0, len(refs)) // sort keys made once, not per comparison
	for _, ref := range refs {
		if e, ok := r.entry(ref); ok {
			out = append(out, e)
			lower = append(lower, strings.ToLower(e.PackageName))
		}
	}
	order := make([]int, len(out))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, b := &out[order[i]], &out[order[j]]
		if la, lb := lower[order[i]], lower[order[j]]; la != lb {
			return la < lb
		}
		if a.Product.FullName != b.Product.FullName {
			return a.Product.FullName < b.Product.FullName
		}
		return a.Arch < b.Arch
	})
	sorted := make([]packageJSON, len(out))
	for i, k := range order {
		sorted[i] = out[k]
	}
	return sorted
}

func (a *api) view(fn func(r *resolver) error) error {
	return a.Store.View(func(tx *bbolt.Tx) error { return fn(&resolver{tx: tx, products: map[string]explorerstore.Product{}}) })
}

// maxKeyRetries bounds how often keysThenView asks the index again because an import switched
// the store in between (imports are seconds apart; a retry is rare, ten in a row never).
const maxKeyRetries = 10

// keysThenView asks the index for keys, then resolves them in a read transaction of the same
// store generation the keys were asked at: an import adds its keys before it switches the
// store and drops old ones only after, so keys asked at generation g cover every package of
// generation g — but not of a later one. When an import switched in between, the search asks
// again; so every answer shows each product as one version, whole.
func (a *api) keysThenView(keys func() ([]string, error), fn func(r *resolver, keys []string) error) error {
	for attempt := 0; ; attempt++ {
		var before uint64
		_ = a.Store.View(func(tx *bbolt.Tx) error { before = explorerstore.Generation(tx); return nil })
		ks, err := keys()
		if err != nil {
			return err
		}
		stale := false
		err = a.view(func(r *resolver) error {
			if explorerstore.Generation(r.tx) != before && attempt < maxKeyRetries {
				stale = true
				return nil
			}
			return fn(r, ks)
		})
		if err != nil || !stale {
			return err
		}
	}
}

// search asks the index for keys and renders the packages lookup finds under them (see
// keysThenView).
func (a *api) search(keys func() ([]string, error), lookup func(*bbolt.Tx, string) ([]explorerstore.Ref, error)) ([]packageJSON, error) {
	var list []packageJSON
	err := a.keysThenView(keys, func(r *resolver, ks []string) error {
		var refs []explorerstore.Ref
		for _, k := range ks {
			more, err := lookup(r.tx, k)
			if err != nil {
				return err
			}
			refs = append(refs, more...)
		}
		list = r.entries(refs)
		return nil
	})
	return list, err
}

// searchPackages answers /api/products/packages: names containing q, case-insensitively
// (every package when q is absent), sorted by package name.
func (a *api) searchPackages(c *fiber.Ctx) error {
	q, given, err := term(c, 0)
	if err != nil {
		return err
	}
	var list []packageJSON
	if !given || q == "" { // every package: the name index is in name order already
		err = a.view(func(r *resolver) error {
			return explorerstore.EachKey(r.tx, store.ExplorerByName, func(k string) error {
				more, err := explorerstore.ByName(r.tx, k)
				list = append(list, r.entries(more)...)
				return err
			})
		})
	} else {
		list, err = a.search(func() ([]string, error) { return a.Importer.Index.Names(q) }, explorerstore.ByName)
	}
	if err != nil {
		return err
	}
	if list == nil {
		list = []packageJSON{}
	}
	var st *string // null when absent
	if given {
		st = &q
	}
	return c.JSON(packagesJSON{SearchTerm: st, Count: len(list), Packages: list})
}

// fileItemJSON is a package of a file search result: flat, with product fields.
type fileItemJSON struct {
	PackageName    string `json:"package_name"`
	Arch           string `json:"arch"`
	VCSURL         string `json:"vcs_url"`
	VCSOrg         string `json:"vcs_org"`
	TrackingBranch string `json:"tracking_branch"`
	CommitHash     string `json:"commit_hash"`
	DistURL        string `json:"disturl"`
	ProductName    string `json:"product_name"`
	ProductVersion string `json:"product_version"`
	ProductBuild   string `json:"product_build"`
}

type fileResultJSON struct {
	FilePath    string         `json:"file_path"`
	RPMFilename string         `json:"rpm_filename"`
	Packages    []fileItemJSON `json:"packages"`
}

// searchFiles answers /api/products/files: the files whose full path, or basename, is exactly
// q, grouped by path and RPM file name with the packages (of every product) that ship them.
func (a *api) searchFiles(c *fiber.Ctx) error {
	q, _, err := term(c, 2)
	if err != nil {
		return err
	}
	results := []fileResultJSON{}
	err = a.view(func(r *resolver) error {
		hits, err := explorerstore.Files(r.tx, q)
		if err != nil {
			return err
		}
		index := map[[2]string]int{}
		for _, h := range hits {
			key := [2]string{h.Path, h.RPM}
			i, ok := index[key]
			if !ok {
				i = len(results)
				index[key] = i
				results = append(results, fileResultJSON{FilePath: h.Path, RPMFilename: h.RPM, Packages: []fileItemJSON{}})
			}
			refs, err := explorerstore.ByRPM(r.tx, h.Product, h.RPM)
			if err != nil {
				return err
			}
			for _, e := range r.entries(refs) {
				results[i].Packages = append(results[i].Packages, fileItemJSON{PackageName: e.PackageName, Arch: e.Arch,
					VCSURL: e.VCSURL, VCSOrg: e.VCSOrg, TrackingBranch: e.TrackingBranch, CommitHash: e.CommitHash,
					DistURL: e.DistURL, ProductName: e.Product.Name, ProductVersion: e.Product.Version, ProductBuild: e.Product.BuildNumber})
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	sort.SliceStable(results, func(i, j int) bool {
		if results[i].FilePath != results[j].FilePath {
			return results[i].FilePath < results[j].FilePath
		}
		return results[i].RPMFilename < results[j].RPMFilename
	})
	return c.JSON(filesJSON{SearchTerm: q, Count: len(results), Results: results})
}

// vcsQuery is a parsed vcs-search term.
type vcsQuery struct{ org, repo, branch, commit string }

var (
	commitTerm = regexp.MustCompile(`^[0-9a-fA-F]{8,64}$`)
	namePart   = regexp.MustCompile(`^[A-Za-z0-9_.+-]+$`)
	branchPart = regexp.MustCompile(`^[A-Za-z0-9_.+/-]+$`)
)

// parseVCS reads the four forms: a commit (8 to 64 hex characters, a prefix), org/repo@branch,
// repo@branch and repo; "#" may stand for "@" (a percent-encoded @ is decoded already).
func parseVCS(q string) (vcsQuery, error) {
	if commitTerm.MatchString(q) {
		return vcsQuery{commit: strings.ToLower(q)}, nil
	}
	q = strings.Replace(q, "#", "@", 1)
	left, branch, hasBranch := strings.Cut(q, "@")
	if hasBranch && (branch == "" || !branchPart.MatchString(branch)) {
		return vcsQuery{}, badTerm("a branch must follow @ (org/repo@branch, repo@branch)")
	}
	var v vcsQuery
	v.branch = branch
	if org, repo, ok := strings.Cut(left, "/"); ok {
		v.org, v.repo = org, repo
		if !namePart.MatchString(org) {
			return vcsQuery{}, badTerm("the organization in org/repo@branch is missing or not a name")
		}
	} else {
		v.repo = left
	}
	if !namePart.MatchString(v.repo) {
		return vcsQuery{}, badTerm("search term must be org/repo@branch, repo@branch, repo or a commit of at least 8 hex characters")
	}
	return v, nil
}

// nullable is s, or JSON null when empty.
func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// The answers, with their keys in the seed's order.
type packagesJSON struct {
	SearchTerm *string       `json:"search_term"`
	Count      int           `json:"count"`
	Packages   []packageJSON `json:"packages"`
}

type filesJSON struct {
	SearchTerm string           `json:"search_term"`
	Count      int              `json:"count"`
	Results    []fileResultJSON `json:"results"`
}

type vcsJSON struct {
	SearchTerm   string        `json:"search_term"`
	SearchOrg    *string       `json:"search_org"`
	SearchRepo   *string       `json:"search_repo"`
	SearchBranch *string       `json:"search_branch"`
	SearchCommit *string       `json:"search_commit"`
	Count        int           `json:"count"`
	Packages     []packageJSON `json:"packages"`
}

// searchVCS answers /api/products/vcs-search.
func (a *api) searchVCS(c *fiber.Ctx) error {
	q, _, err := term(c, 2)
	if err != nil {
		return err
	}
	v, err := parseVCS(q)
	if err != nil {
		return err
	}
	list, err := a.search(func() ([]string, error) { return a.Importer.Index.VCS(v.org, v.repo, v.branch, v.commit) }, explorerstore.ByVCS)
	if err != nil {
		return err
	}
	if list == nil {
		list = []packageJSON{}
	}
	return c.JSON(vcsJSON{SearchTerm: q, SearchOrg: nullable(v.org), SearchRepo: nullable(v.repo),
		SearchBranch: nullable(v.branch), SearchCommit: nullable(v.commit), Count: len(list), Packages: list})
}
