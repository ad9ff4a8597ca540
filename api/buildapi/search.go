package buildapi

import (
	"encoding/xml"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
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

// searchRequests answers the empty collection until requests exist; a missing match is the
// service's empty_match.
func (a *api) searchRequests(c *fiber.Ctx) error {
	if c.Query("match") == "" {
		return buildsvc.BadRequest("empty_match", "No predicates given in search: match is empty")
	}
	return sendXML(c, collectionXML{})
}
