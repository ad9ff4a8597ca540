package explorerapi

import (
	"strconv"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/explorersvc"
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store"
)

// The three product searches: each reads ?q=, asks the explorer's domain (which decides
// whether the term is valid and keeps the answer consistent with imports) and renders the
// answer in the seed's shape.

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

// packagesOf renders entries (never null: an empty list is []).
func packagesOf(entries []explorersvc.Entry) []packageJSON {
	out := make([]packageJSON, len(entries))
	for i := range entries {
		pk, p := &entries[i].Package, entries[i].Product
		out[i] = packageJSON{PackageName: pk.Name, Arch: pk.Arch, Filename: pk.Filename, VCSURL: pk.VCSURL, VCSOrg: pk.VCSOrg,
			TrackingBranch: pk.TrackingBranch, CommitHash: pk.CommitHash, DistURL: pk.DistURL,
			Product: productJSON{Name: p.Name, Version: p.Version, Arch: p.Arch, BuildNumber: p.BuildNumber, FullName: p.FullName}}
	}
	return out
}

// query reads ?q= and whether it was sent at all (an absent q differs from an empty one).
func query(c *fiber.Ctx) (string, bool) {
	raw := c.Context().QueryArgs().Peek("q")
	return string(raw), raw != nil
}

// searchPackages answers /api/products/packages: names containing q, case-insensitively
// (every package when q is absent), sorted by package name.
func (a *api) searchPackages(c *fiber.Ctx) error {
	q, given := query(c)
	found, err := a.Explorer.SearchPackages(q, given)
	if err != nil {
		return err
	}
	var st *string // null when absent
	if given {
		st = &found.Term
	}
	return sendJSON(c, found.Memo, func() any {
		list := packagesOf(found.Entries)
		return packagesJSON{SearchTerm: st, Count: len(list), Packages: list}
	})
}

// sendJSON answers with the JSON encoding of the value answer makes, as c.JSON would — but
// encoded once per answer: the domain keeps a cached answer's encoding in its Memo, and every
// request asking the same question of the same products gets the same bytes (issue 13: the
// same 150 packages were decoded and encoded again for each request).
func sendJSON(c *fiber.Ctx, m *explorersvc.Memo, answer func() any) error {
	encode := c.App().Config().JSONEncoder
	body := m.Get(func() any {
		raw, err := encode(answer())
		if err != nil {
			return err
		}
		return raw[:len(raw):len(raw)] // shared by responses: an append must copy, never write into it
	})
	if err, failed := body.(error); failed {
		return err
	}
	c.Response().SetBodyRaw(body.([]byte))
	c.Response().Header.SetContentType(fiber.MIMEApplicationJSON)
	return nil
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
// q, grouped by path and RPM file name with the packages (of every product) that ship them; a
// q with a "/" that is no file's path lists what lies under it, nearest first (at most
// explorerstore.MaxUnderHits; "under": true). ?page=N (1-based) with ?per_page= (1–1000, 100 by
// default) answers one page of the results, "total" then counting all of them.
func (a *api) searchFiles(c *fiber.Ctx) error {
	q, _ := query(c)
	page, perPage, paged, err := pageParams(c)
	if err != nil {
		return err
	}
	found, err := a.Explorer.SearchFiles(q)
	if err != nil {
		return err
	}
	if !paged {
		return sendJSON(c, found.Memo, func() any { return filesOf(found) })
	}
	all := found.Results
	lo := min(len(all), (page-1)*perPage)
	found.Results = all[lo:min(len(all), lo+perPage)]
	doc := filesOf(found)
	doc.Total = len(all)
	return c.JSON(doc)
}

// pageParams reads ?page= and ?per_page=; paged is false when page is absent.
func pageParams(c *fiber.Ctx) (page, perPage int, paged bool, err error) {
	raw, rawPer := c.Query("page"), c.Query("per_page")
	if raw == "" && rawPer == "" {
		return 0, 0, false, nil
	}
	page, perPage = 1, 100
	if raw != "" {
		if page, err = strconv.Atoi(raw); err != nil || page < 1 || page > 1_000_000 {
			return 0, 0, false, &fault.Error{Kind: store.ErrInvalid, Msg: "page must be a whole number from 1"}
		}
	}
	if rawPer != "" {
		if perPage, err = strconv.Atoi(rawPer); err != nil || perPage < 1 || perPage > 1000 {
			return 0, 0, false, &fault.Error{Kind: store.ErrInvalid, Msg: "per_page must be a whole number from 1 to 1000"}
		}
	}
	return page, perPage, true, nil
}

// filesOf renders a file search's answer.
func filesOf(found explorersvc.FilesFound) filesJSON {
	results := make([]fileResultJSON, len(found.Results))
	for i, r := range found.Results {
		items := make([]fileItemJSON, len(r.Entries))
		for j := range r.Entries {
			pk, p := &r.Entries[j].Package, r.Entries[j].Product
			items[j] = fileItemJSON{PackageName: pk.Name, Arch: pk.Arch, VCSURL: pk.VCSURL, VCSOrg: pk.VCSOrg,
				TrackingBranch: pk.TrackingBranch, CommitHash: pk.CommitHash, DistURL: pk.DistURL,
				ProductName: p.Name, ProductVersion: p.Version, ProductBuild: p.BuildNumber}
		}
		results[i] = fileResultJSON{FilePath: r.Path, RPMFilename: r.RPM, Packages: items}
	}
	return filesJSON{SearchTerm: found.Term, Count: len(results), Results: results, Under: found.Under}
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
	// Under: the results are what lies under the term (a directory or path prefix).
	Under bool `json:"under,omitempty"`
	// Total counts every result of a paged answer (?page=).
	Total int `json:"total,omitempty"`
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
	q, _ := query(c)
	found, err := a.Explorer.SearchVCS(q)
	if err != nil {
		return err
	}
	return sendJSON(c, found.Memo, func() any {
		v := found.Query
		list := packagesOf(found.Entries)
		return vcsJSON{SearchTerm: found.Term, SearchOrg: nullable(v.Org), SearchRepo: nullable(v.Repo),
			SearchBranch: nullable(v.Branch), SearchCommit: nullable(v.Commit), Count: len(list), Packages: list}
	})
}
