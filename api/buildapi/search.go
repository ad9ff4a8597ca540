package buildapi

import (
	"encoding/xml"
	"strconv"
	"strings"

	"github.com/pocketforge/pocketforge/buildsvc/search"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc/metadoc"
	"github.com/pocketforge/pocketforge/buildsvc/xmlindent"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// The xpath searches (seed: "Search"; build-notes §6): `match`, `limit` and `offset` as query
// or form parameters, GET or POST (osc sends GET; OBS routes both). Full routes answer the
// matching documents, /id routes their identifying elements, both in <collection matches="N">
// where N counts every match, not only the page. The rules (what matches, what who may see,
// 400 empty_match and illegal_xpath_error) are buildsvc's Search* functions.

// bindSearch registers the xpath search routes.
func (a *api) bindSearch(r fiber.Router) {
	routes := []struct {
		path string
		h    fiber.Handler
	}{
		{"/search/request", a.searchRequests(false)},
		{"/search/request/id", a.searchRequests(true)},
		{"/search/package", a.searchPackages(false)},
		{"/search/package/id", a.searchPackages(true)},
		{"/search/project", a.searchProjects(false)},
		{"/search/project/id", a.searchProjects(true)},
		{"/search/published/binary/id", a.searchPublishedBinaries},
		{"/search/published/pattern/id", a.searchPublishedPatterns},
		{"/search/channel/binary", a.searchChannelBinaries(false)},
		{"/search/channel/binary/id", a.searchChannelBinaries(true)},
		{"/search/released/binary", a.searchReleasedBinaries(false)},
		{"/search/released/binary/id", a.searchReleasedBinaries(true)},
		{"/search/person", a.searchPerson},
		{"/search/repository/id", a.searchRepositoryIDs},
		{"/search/issue", a.searchIssue},
		{"/search/owner", a.searchOwner},
		{"/search/missing_owner", a.searchMissingOwner},
	}
	for _, rt := range routes {
		a.get(r, rt.path, rt.h)
		r.Post(rt.path, a.authenticated, rt.h)
	}
}

// collectionXML is a collection answer (searches, request listings): Matches counts every
// match, Items are the page's documents, each named by its own XMLName.
type collectionXML[T any] struct {
	XMLName xml.Name `xml:"collection"`
	Matches int      `xml:"matches,attr"`
	Items   []T
}

type requestIDXML struct {
	XMLName xml.Name `xml:"request"`
	ID      uint64   `xml:"id,attr"`
}

// appendPackageID writes a package's identifying element as encoding/xml wrote
// <package project= name=> (an /id search over a project of 20,000 packages lists them all).
func appendPackageID(b []byte, k buildstore.Package, depth int) []byte {
	w := xmlindent.New(b, depth)
	w.Empty("package", xmlindent.Must("project", k.Project), xmlindent.Must("name", k.Name))
	return w.Bytes()
}

// appendProjectID writes a project's identifying element, <project name=>.
func appendProjectID(b []byte, p buildstore.Project, depth int) []byte {
	w := xmlindent.New(b, depth)
	w.Empty("project", xmlindent.Must("name", p.Name))
	return w.Bytes()
}

// sendCollection renders the page of found with doc.
func sendCollection[T, D any](c *fiber.Ctx, found search.Found[T], doc func(T) D) error {
	return sendXML(c, collectionXML[D]{Matches: found.Matches, Items: docsOf(found.Records, doc)})
}

// writtenCollection is the page of found as sendCollection renders it, each record written by
// write at depth 1 (a byte-exact writer: metadoc.AppendPackage, AppendProject); size guesses a
// record's bytes, to allocate the answer once.
func writtenCollection[T any](found search.Found[T], size int, write func([]byte, T, int) []byte) []byte {
	return xmlindent.Collection(make([]byte, 0, 64+len(found.Records)*size), found.Matches, len(found.Records),
		func(b []byte, i int) []byte { return write(b, found.Records[i], 1) })
}

// searchParam reads a search parameter from the query, or from a POST's form body.
func searchParam(c *fiber.Ctx, name string) string {
	if v := c.Query(name); v != "" || c.Method() != fiber.MethodPost {
		return v
	}
	return c.FormValue(name)
}

// searchPage reads limit and offset; what is not a number is left out, as OBS does.
func searchPage(c *fiber.Ctx) search.Page {
	limit, _ := strconv.Atoi(strings.TrimSpace(searchParam(c, "limit")))
	offset, _ := strconv.Atoi(strings.TrimSpace(searchParam(c, "offset")))
	return search.Page{Limit: limit, Offset: offset}
}

// searchRequests answers /search/request (the documents, with the history withhistory or
// withfullhistory asks for, as OBS renders them there) or /search/request/id.
func (a *api) searchRequests(idOnly bool) fiber.Handler {
	return func(c *fiber.Ctx) error {
		found, err := a.Search.SearchRequests(personOf(c), searchParam(c, "match"), idOnly, searchPage(c))
		if err != nil {
			return err
		}
		if idOnly {
			return sendCollection(c, found, func(r buildstore.Request) requestIDXML { return requestIDXML{ID: r.ID} })
		}
		return sendRequests(c, found.Matches, found.Records, historyMode(c))
	}
}

// searchPackages answers /search/package (package metas) or /search/package/id.
func (a *api) searchPackages(idOnly bool) fiber.Handler {
	return func(c *fiber.Ctx) error {
		found, err := a.Search.SearchPackages(personOf(c), searchParam(c, "match"), idOnly, searchPage(c))
		if err != nil {
			return err
		}
		if idOnly {
			return sendWritten(c, writtenCollection(found, 64, appendPackageID))
		}
		return sendWritten(c, writtenCollection(found, 512, metadoc.AppendPackage))
	}
}

// searchProjects answers /search/project (project metas) or /search/project/id.
func (a *api) searchProjects(idOnly bool) fiber.Handler {
	return func(c *fiber.Ctx) error {
		found, err := a.Search.SearchProjects(personOf(c), searchParam(c, "match"), idOnly, searchPage(c))
		if err != nil {
			return err
		}
		if idOnly {
			return sendWritten(c, writtenCollection(found, 48, appendProjectID))
		}
		return sendWritten(c, writtenCollection(found, 1024, metadoc.AppendProject))
	}
}
