package buildapi

import (
	"encoding/xml"

	"github.com/gofiber/fiber/v2"
)

// bindSearch registers the searches that exist so far. osc asks GET /search/request after
// every co, ci and up (check_for_request_on_action) and fails the command on a 404; requests
// do not exist yet, so every match is the empty collection.
func (a *api) bindSearch(r fiber.Router) {
	a.get(r, "/search/request", a.searchRequests)
}

// collectionXML is a search result.
type collectionXML struct {
	XMLName xml.Name `xml:"collection"`
	Matches int      `xml:"matches,attr"`
}

// searchRequests answers the collection of requests that match (buildsvc.SearchRequests).
func (a *api) searchRequests(c *fiber.Ctx) error {
	return replyXML(c, func(n int) collectionXML { return collectionXML{Matches: n} })(a.Svc.SearchRequests(c.Query("match")))
}
