package buildapi

import (
	"errors"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store"
)

// The published tree, /published/<project>/<repository>/…: what a package manager reads
// (buildsvc farm_read_published.go). Directories answer <directory><entry name=…/>, files their
// bytes, a binary with ?view=ymp its one-click-install document and with ?view=fileinfo what its
// header says.

// bindPublished registers the published tree's routes.
func (a *api) bindPublished(r fiber.Router) {
	a.get(r, "/published", a.publishedProjects)
	a.get(r, "/published/:project", a.publishedRepositories)
	a.get(r, "/published/:project/:repository", a.publishedDir)
	a.get(r, "/published/:project/:repository/:dir", a.publishedDir)
	a.get(r, "/published/:project/:repository/:dir/:file", a.publishedFile)
	// A product medium is a directory of its own: <medium>/<medium>.spdx.json beside
	// <medium>/repodata/… (buildsvc farm_publish.go), one level deeper than a repository's files.
	a.get(r, "/published/:project/:repository/:dir/:sub/:file", a.publishedFile)
}

func (a *api) publishedProjects(c *fiber.Ctx) error {
	names, err := a.Farm.PublishedProjects(personOf(c))
	if err != nil {
		return err
	}
	return sendXML(c, newDirectory(names))
}

func (a *api) publishedRepositories(c *fiber.Ctx) error {
	names, err := a.Farm.PublishedRepositories(personOf(c), pathParam(c, "project"))
	if err != nil {
		return err
	}
	return sendXML(c, newDirectory(names))
}

func (a *api) publishedDir(c *fiber.Ctx) error {
	names, err := a.Farm.PublishedDir(personOf(c), pathParam(c, "project"), pathParam(c, "repository"), pathParam(c, "dir"))
	if err != nil {
		return err
	}
	return sendXML(c, newDirectory(names))
}

// publishedFile answers a file of the tree, or with ?view=ymp the ymp of a binary.
func (a *api) publishedFile(c *fiber.Ctx) error {
	project, repo := pathParam(c, "project"), pathParam(c, "repository")
	p := pathParam(c, "dir") + "/" + pathParam(c, "file")
	if sub := c.Params("sub"); sub != "" {
		p = pathParam(c, "dir") + "/" + pathParam(c, "sub") + "/" + pathParam(c, "file")
	}
	switch view := c.Query("view"); view {
	case "":
	case "ymp":
		doc, err := a.Farm.PublishedYMP(personOf(c), project, repo, p, a.externalURL(c))
		if err != nil {
			return err
		}
		if err := sendXML(c, doc); err != nil {
			return err
		}
		c.Set(fiber.HeaderContentType, "text/x-suse-ymp") // as the backend answers it
		return nil
	case "fileinfo":
		fi, err := a.Farm.PublishedFileInfo(personOf(c), project, repo, p)
		if err != nil {
			return err
		}
		return sendXML(c, fileInfoDoc(pathParam(c, "file"), fi))
	default:
		return buildsvc.BadRequest("400", "unknown view '%s' (ymp or fileinfo)", view)
	}
	data, err := a.Farm.PublishedFile(personOf(c), project, repo, p)
	if errors.Is(err, store.ErrNotFound) {
		// Not a file: a directory at that depth (a medium's repodata/) lists its entries.
		if names, derr := a.Farm.PublishedDir(personOf(c), project, repo, p); derr == nil {
			return sendXML(c, newDirectory(names))
		}
	}
	if err != nil {
		return err
	}
	ct := "application/octet-stream"
	switch {
	case strings.HasSuffix(p, ".rpm"):
		ct = "application/x-rpm"
	case strings.HasSuffix(p, ".xml"):
		ct = "application/xml"
	case strings.HasSuffix(p, ".gz"):
		ct = "application/x-gzip"
	case strings.HasSuffix(p, ".json"):
		ct = "application/json"
	}
	c.Set(fiber.HeaderContentType, ct)
	return c.Send(data)
}

// externalURL is the base of absolute URLs the answer names: --external-url, else what the
// request was sent to.
func (a *api) externalURL(c *fiber.Ctx) string {
	if a.ExternalURL != nil {
		if u := a.ExternalURL(); u != "" {
			return u
		}
	}
	return c.BaseURL()
}
