package cloudapi

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
)

// StatusDeprecated is the seed's 299: success, but the endpoint is deprecated.
const StatusDeprecated = 299

// deprecationWarning is what a deprecated endpoint's answer carries in "warnings".
var deprecationWarning = map[string]string{
	"title":   "Deprecated endpoint",
	"details": "This endpoint is deprecated and may be removed; see the API changelog for its replacement.",
}

// deprecate runs the handler, then turns a 200 into 299 and adds the warnings array to a JSON
// object body (an empty {} becomes {"warnings":[…]}). Errors pass through unchanged.
func deprecate(c *fiber.Ctx) error {
	if err := c.Next(); err != nil {
		return err
	}
	if c.Response().StatusCode() != http.StatusOK {
		return nil
	}
	var body map[string]json.RawMessage
	if raw := bytes.TrimSpace(c.Response().Body()); len(raw) == 0 {
		body = map[string]json.RawMessage{}
	} else if json.Unmarshal(raw, &body) != nil {
		c.Status(StatusDeprecated)
		return nil
	}
	warnings, _ := kit.MarshalJSON([]map[string]string{deprecationWarning})
	body["warnings"] = warnings
	out, err := kit.MarshalJSON(body)
	if err != nil {
		return err
	}
	c.Status(StatusDeprecated)
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	return c.Send(out)
}
