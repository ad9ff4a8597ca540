package explorerweb

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/explorersvc"
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/web"
)

// The search page: one form, a tab per kind of search, and the hits of the one asked.

// kinds are the searches, in the tabs' order, with their labels and the hint under the form.
var kinds = []struct{ Kind, Label, Hint string }{
	{"packages", "Packages", "Package names containing the term, in every product."},
	{"files", "Files", "A file's full path or its basename, exactly (at least 2 characters)."},
	{"git", "Git", "org/repo@branch, repo@branch, repo, or a commit (at least 8 hex digits)."},
	{"binaries", "Binaries", "The build service's published binaries of exactly this name."},
}

// tab is one search's tab.
type tab struct {
	Label, Href string
	Current     bool
}

// searchView is the search page's data: the question, the answer's page and what went wrong.
type searchView struct {
	Kind, Q, Label, Hint string
	Tabs                 []tab
	// Searched is false when no term was given: the page shows only the form.
	Searched bool
	// Error is the domain's refusal of the term, shown above the (empty) results.
	Error string
	Page  pager
	// The hits of the page, one list per kind.
	Packages []entry
	Files    []fileRow
	Binaries []binary
	// WithSCM counts the binaries with a git source (all of the search, not of the page).
	WithSCM int
	// Under: the file hits are what lies under the term, a directory or path prefix.
	Under bool
}

// search answers /explorer: the form, and the hits when q is given.
func (h *handlers) search(c *fiber.Ctx) error {
	v := searchView{Kind: c.Query("kind", "packages"), Q: c.Query("q")}
	known := false
	for _, k := range kinds {
		if k.Kind == v.Kind {
			known, v.Label, v.Hint = true, k.Label, k.Hint
		}
	}
	if !known {
		return fault.Invalid("", "There is no %q search: the explorer searches packages, files, git references and binaries.", v.Kind)
	}
	for _, k := range kinds {
		v.Tabs = append(v.Tabs, tab{Label: k.Label, Href: searchHref(k.Kind, v.Q), Current: k.Kind == v.Kind})
	}
	status := http.StatusOK
	if v.Searched = strings.TrimSpace(v.Q) != ""; v.Searched {
		if err := h.find(c, &v); err != nil {
			var msg string
			if status, msg = refusal(err); status == 0 {
				return err
			}
			v.Error = msg
		}
	}
	title := "Explorer"
	if v.Searched {
		title = v.Label + ": " + v.Q
	}
	return h.Site.Render(c, status, title, web.SectionExplorer, web.PageOf(searchPage, v))
}

// find runs v's search and fills the page of hits ?page= asks for.
func (h *handlers) find(c *fiber.Ctx, v *searchView) error {
	href := func(page int) string { return searchHref(v.Kind, v.Q) + "&page=" + strconv.Itoa(page) }
	var lo, hi int
	switch v.Kind {
	case "packages":
		found, err := h.Explorer.SearchPackages(v.Q, true)
		if err != nil {
			return err
		}
		v.Page, lo, hi = pageOf(c, len(found.Entries), href)
		v.Packages = entriesOf(found.Entries[lo:hi])
	case "files":
		found, err := h.Explorer.SearchFiles(v.Q)
		if err != nil {
			return err
		}
		rows := filesOf(found.Results)
		v.Under = found.Under
		v.Page, lo, hi = pageOf(c, len(rows), href)
		v.Files = rows[lo:hi]
	case "git":
		found, err := h.Explorer.SearchVCS(v.Q)
		if err != nil {
			return err
		}
		v.Page, lo, hi = pageOf(c, len(found.Entries), href)
		v.Packages = entriesOf(found.Entries[lo:hi])
	case "binaries":
		found, err := h.Explorer.SearchBinaries(c.Context(), v.Q)
		if err != nil {
			return err
		}
		all := binariesOf(found)
		v.WithSCM = len(found.WithSCM)
		v.Page, lo, hi = pageOf(c, len(all), href)
		v.Binaries = all[lo:hi]
	}
	return nil
}

// refusal is the status and sentence a search page shows for err in place of hits: the
// domain's own words for a term it refuses (400, as the API), a plain sentence for a binary
// search that outlived its timeout (504); status 0 for any other error, which the error page
// answers.
func refusal(err error) (int, string) {
	switch {
	case errors.Is(err, store.ErrInvalid):
		return http.StatusBadRequest, err.Error()
	case errors.Is(err, explorersvc.ErrTimedOut):
		return http.StatusGatewayTimeout, "The build service did not answer the binary search in time; try again later."
	}
	return 0, ""
}
