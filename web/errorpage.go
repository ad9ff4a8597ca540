package web

import (
	"net/http"

	"github.com/gofiber/fiber/v2"
)

// errorView is the data of the error page.
type errorView struct {
	Status int
	Reason string
	Path   string
}

// ErrorPage answers a page request that failed: status, with a page that says what happened
// in reason's words and where to go instead (a friendly 404 for an unknown page). The caller
// decides status and reason (the app's error table), so the page and the APIs never disagree.
func ErrorPage(c *fiber.Ctx, status int, reason string) error {
	title := http.StatusText(status)
	if status == http.StatusNotFound {
		title = "Page not found"
	}
	var site *Site
	return site.Render(c, status, title, "", PageOf(errorPage, errorView{Status: status, Reason: reason, Path: c.Path()}))
}
