package explorerapi

import (
	"errors"
	"net/http"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/explorersvc"
)

// binaryJSON is the seed's binary search result item; the git fields are null when the
// binary's source has no git reference.
type binaryJSON struct {
	Name        string  `json:"name"`
	Project     string  `json:"project"`
	Package     string  `json:"package"`
	Repository  string  `json:"repository"`
	Arch        string  `json:"arch"`
	Version     string  `json:"version"`
	DownloadURL string  `json:"download_url"`
	SourceURL   *string `json:"source_url"`
	GitOrg      *string `json:"git_org"`
	GitRepo     *string `json:"git_repo"`
}

// binariesJSON is the answer of /api/search/binary.
type binariesJSON struct {
	Query           string       `json:"query"`
	TotalCount      int          `json:"total_count"`
	CountWithSCM    int          `json:"count_with_scm"`
	CountWithoutSCM int          `json:"count_without_scm"`
	ResultsWithSCM  []binaryJSON `json:"results_with_scm"`
	ResultsWithout  []binaryJSON `json:"results_without_scm"`
}

// searchBinaries answers GET /api/search/binary?q=: the build backend's published binaries
// named exactly q, split by whether their source is in git. 400 for no q, 504 when the
// search outlived its timeout, 500 when the backend failed.
func (a *api) searchBinaries(c *fiber.Ctx) error {
	q, _ := query(c)
	found, err := a.Explorer.SearchBinaries(c.Context(), q)
	switch {
	case errors.Is(err, explorersvc.ErrTimedOut):
		return kit.Errorf(http.StatusGatewayTimeout, "search timed out: the build backend did not answer within the binary search timeout")
	case err != nil && kit.Status(err) >= 500:
		return kit.Errorf(http.StatusInternalServerError, "failed to get the search results from the build backend")
	case err != nil:
		return err
	}
	with, without := binariesOf(found.WithSCM), binariesOf(found.WithoutSCM)
	return c.JSON(binariesJSON{Query: found.Query, TotalCount: len(with) + len(without), CountWithSCM: len(with),
		CountWithoutSCM: len(without), ResultsWithSCM: with, ResultsWithout: without})
}

// binariesOf renders results (never null: an empty list is []).
func binariesOf(results []explorersvc.BinaryResult) []binaryJSON {
	out := make([]binaryJSON, len(results))
	for i, r := range results {
		out[i] = binaryJSON{Name: r.Filename, Project: r.Project, Package: r.Package, Repository: r.Repository,
			Arch: r.Arch, Version: r.Version, DownloadURL: r.DownloadURL,
			SourceURL: orNull(r.SourceURL), GitOrg: orNull(r.GitOrg), GitRepo: orNull(r.GitRepo)}
	}
	return out
}

// orNull is s, or nil (null) when empty.
func orNull(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
