package buildapi

import (
	"encoding/xml"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc/social"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// Comments: GET and POST /comments/project/P, /comments/package/P/K, /comments/request/N (the
// body of a POST is the text, raw; ?parent_id=N makes it a reply), DELETE /comment/N. The
// rules are buildsvc's (comments.go there); osc's `comment list|create|delete` reads the
// <comments> document and the summary of the <status> answers.

// commentsXML is the list document; its attributes name the object as the service does:
// request="N", or project="P" with package="K" for a package.
type commentsXML struct {
	XMLName  xml.Name     `xml:"comments"`
	Request  string       `xml:"request,attr,omitempty"`
	Project  string       `xml:"project,attr,omitempty"`
	Package  string       `xml:"package,attr,omitempty"`
	Comments []commentXML `xml:"comment"`
}

// commentXML is one comment, attributes in the service's order (who, when, id, parent); its
// text is the content. The service writes when as its database time, "2026-11-22 12:00:00 UTC".
type commentXML struct {
	Who    string `xml:"who,attr"`
	When   string `xml:"when,attr"`
	ID     uint64 `xml:"id,attr"`
	Parent uint64 `xml:"parent,attr,omitempty"`
	Text   string `xml:",chardata"`
}

func commentDoc(c buildstore.Comment) commentXML {
	return commentXML{Who: c.Who, When: c.When.UTC().Format("2006-01-02 15:04:05") + " UTC", ID: c.ID, Parent: c.Parent, Text: c.Body}
}

func commentsDoc(l social.CommentList) commentsXML {
	return commentsXML{Request: l.On.Request, Project: l.On.Project, Package: l.On.Package, Comments: docsOf(l.Comments, commentDoc)}
}

func (a *api) bindComments(r fiber.Router) {
	for _, route := range []struct {
		path string
		kind string
	}{
		{"/comments/project/:project", buildstore.CommentOnProject},
		{"/comments/package/:project/:package", buildstore.CommentOnPackage},
		{"/comments/request/:request", buildstore.CommentOnRequest},
	} {
		a.get(r, route.path, a.getComments(route.kind))
		r.Post(route.path, a.authenticated, a.postComment(route.kind))
	}
	r.Delete("/comment/:id", a.authenticated, a.deleteComment)
}

// commentObject reads what a comments route names.
func commentObject(c *fiber.Ctx, kind string) social.CommentObject {
	return social.CommentObject{Kind: kind, Project: pathParam(c, "project"), Package: pathParam(c, "package"),
		Request: pathParam(c, "request")}
}

func (a *api) getComments(kind string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		return replyXML(c, commentsDoc)(a.Build.Social.Comments(personOf(c), commentObject(c, kind)))
	}
}

// postComment writes the body as a comment (credentials were checked before it was read).
func (a *api) postComment(kind string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		_, err := a.Build.Social.AddComment(personOf(c), commentObject(c, kind), c.Query("parent_id"), string(c.Body()))
		return replyOK(c, err)
	}
}

func (a *api) deleteComment(c *fiber.Ctx) error {
	return replyOK(c, a.Build.Social.DeleteComment(personOf(c), pathParam(c, "id")))
}
