package buildapi

import (
	"encoding/xml"
	"errors"
	"net/http"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/buildsvc/metadoc"
	"github.com/pocketforge/pocketforge/buildsvc/social"
)

// Tags: GET /source/P/_tags and /source/P/K/_tags (every user's tags on the object);
// GET /tag/<A[::B…]>/_projects|_packages|_all (the objects carrying all those tags);
// GET /tag/_tagcloud and /user/U/tags/_tagcloud (?distribution, steps, limit);
// GET /user/U/tags/_projects|_packages (what U tagged); GET and PUT /user/U/tags/P[/K] (U's
// tags on an object; the PUT body <tags><tag name=…/>…</tags> replaces them). The rules are
// buildsvc's (tags.go, tags_cloud.go there).

// bindTags registers the tag routes. It runs before the source routes: /source/P/_tags and
// /source/P/K/_tags must not reach the package and file routes, where a PUT would store a file
// named _tags; on those two paths every method but GET is refused here.
func (a *api) bindTags(r fiber.Router) {
	for _, path := range []string{"/source/:project/_tags", "/source/:project/:package/_tags"} {
		a.get(r, path, a.getObjectTags)
		for _, m := range []string{fiber.MethodPut, fiber.MethodPost, fiber.MethodDelete} {
			r.Add(m, path, a.authenticated, readOnlyTags)
		}
	}
	// /tag/_tagcloud before /tag/:tag/…: a tag named _tagcloud could not be asked for anyway.
	a.get(r, "/tag/_tagcloud", a.getTagCloud)
	for _, kind := range []string{social.TaggedProjects, social.TaggedPackages, social.TaggedAll} {
		a.get(r, "/tag/:tag/_"+kind, a.getObjectsByTag(kind))
	}
	a.get(r, "/user/:user/tags/_tagcloud", a.getTagCloud)
	for _, kind := range []string{social.TaggedProjects, social.TaggedPackages} {
		a.get(r, "/user/:user/tags/_"+kind, a.getObjectsTaggedBy(kind))
	}
	for _, path := range []string{"/user/:user/tags/:project", "/user/:user/tags/:project/:package"} {
		a.get(r, path, a.getUserTags)
		r.Put(path, a.authenticated, a.putUserTags)
	}
}

// tagsXML is the <tags> document; attributes in the service's order (a package's first).
type tagsXML struct {
	XMLName xml.Name `xml:"tags"`
	Package string   `xml:"package,attr,omitempty"`
	Project string   `xml:"project,attr"`
	Title   string   `xml:"title,attr"`
	User    string   `xml:"user,attr,omitempty"`
	Tags    []tagXML `xml:"tag"`
}

// tagXML is one tag: a name, and in a cloud its count (raw) or size.
type tagXML struct {
	Name  string `xml:"name,attr"`
	Count *int   `xml:"count,attr"`
	Size  *int   `xml:"size,attr"`
}

func namedTags(names []string) []tagXML {
	return docsOf(names, func(n string) tagXML { return tagXML{Name: n} })
}

func tagsDoc(l social.TagList) tagsXML {
	return tagsXML{Package: l.Package, Project: l.Project, Title: l.Title, User: l.User, Tags: namedTags(l.Tags)}
}

// taggedXML is the <collection> of tagged objects: tag= for /tag/…, user= for /user/U/tags/….
type taggedXML struct {
	XMLName  xml.Name           `xml:"collection"`
	Tag      string             `xml:"tag,attr,omitempty"`
	User     string             `xml:"user,attr,omitempty"`
	Projects []taggedObjectXML  `xml:"project"`
	Packages []taggedPackageXML `xml:"package"`
}

type taggedObjectXML struct {
	Name  string   `xml:"name,attr"`
	Title string   `xml:"title,attr"`
	Tags  []tagXML `xml:"tag"`
}

type taggedPackageXML struct {
	Project string   `xml:"project,attr"`
	Name    string   `xml:"name,attr"`
	Title   string   `xml:"title,attr"`
	Tags    []tagXML `xml:"tag"`
}

func taggedDoc(o social.TaggedObjects) taggedXML {
	return taggedXML{Tag: o.Tag, User: o.User,
		Projects: docsOf(o.Projects, func(p social.TaggedObject) taggedObjectXML {
			return taggedObjectXML{Name: p.Project, Title: p.Title, Tags: namedTags(p.Tags)}
		}),
		Packages: docsOf(o.Packages, func(k social.TaggedObject) taggedPackageXML {
			return taggedPackageXML{Project: k.Project, Name: k.Package, Title: k.Title, Tags: namedTags(k.Tags)}
		})}
}

// tagCloudXML is the <tagcloud> document.
type tagCloudXML struct {
	XMLName      xml.Name `xml:"tagcloud"`
	Distribution string   `xml:"distribution_method,attr"`
	Steps        int      `xml:"steps,attr"`
	User         string   `xml:"user,attr,omitempty"`
	Tags         []tagXML `xml:"tag"`
}

func tagCloudDoc(c social.TagCloud) tagCloudXML {
	return tagCloudXML{Distribution: c.Distribution, Steps: c.Steps, User: c.User,
		Tags: docsOf(c.Tags, func(t social.CloudTag) tagXML {
			if c.Distribution == social.CloudRaw {
				return tagXML{Name: t.Name, Count: &t.Count}
			}
			return tagXML{Name: t.Name, Size: &t.Size}
		})}
}

// tagsBodyXML is a PUT body: <tags> with <tag name=…/> elements; other attributes and
// elements are ignored, as the service ignored them.
type tagsBodyXML struct {
	XMLName xml.Name `xml:"tags"`
	Tags    []struct {
		Name string `xml:"name,attr"`
	} `xml:"tag"`
}

// parseTagsBody reads the tag names of a PUT body, within metadoc's bounds.
func parseTagsBody(body []byte) ([]string, error) {
	var d tagsBodyXML
	if err := metadoc.Unmarshal(body, &d); err != nil {
		var tooMany *metadoc.TooManyError
		if errors.As(err, &tooMany) {
			return nil, buildsvc.Invalid("tags", "%v", err)
		}
		return nil, buildsvc.BadRequest("invalid_xml", "the body is not a <tags> document: %v", err)
	}
	names := make([]string, 0, len(d.Tags))
	for _, t := range d.Tags {
		names = append(names, t.Name)
	}
	return names, nil
}

func (a *api) getObjectTags(c *fiber.Ctx) error {
	return replyXML(c, tagsDoc)(a.Build.Social.ObjectTags(personOf(c), pathParam(c, "project"), pathParam(c, "package")))
}

// readOnlyTags refuses a write on …/_tags: the service routes only GET there; tags are written
// on /user/<login>/tags/….
func readOnlyTags(c *fiber.Ctx) error {
	c.Set(fiber.HeaderAllow, fiber.MethodGet)
	return kit.Errorf(http.StatusMethodNotAllowed,
		"%s is read-only: write your tags with PUT /user/<login>/tags/<project>[/<package>]", c.Path())
}

func (a *api) getObjectsByTag(kind string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		return replyXML(c, taggedDoc)(a.Build.Social.ObjectsByTag(personOf(c), pathParam(c, "tag"), kind))
	}
}

func (a *api) getObjectsTaggedBy(kind string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		return replyXML(c, taggedDoc)(a.Build.Social.ObjectsTaggedBy(personOf(c), pathParam(c, "user"), kind))
	}
}

func (a *api) getTagCloud(c *fiber.Ctx) error {
	q := social.TagCloudQuery{Distribution: c.Query("distribution"), Steps: c.Query("steps"), Limit: c.Query("limit")}
	return replyXML(c, tagCloudDoc)(a.Build.Social.TagCloud(personOf(c), pathParam(c, "user"), q))
}

func (a *api) getUserTags(c *fiber.Ctx) error {
	return replyXML(c, tagsDoc)(a.Build.Social.UserObjectTags(personOf(c), pathParam(c, "user"), pathParam(c, "project"), pathParam(c, "package")))
}

// putUserTags replaces the user's tags on the object with the body's.
func (a *api) putUserTags(c *fiber.Ctx) error {
	names, err := parseTagsBody(c.Body())
	if err != nil {
		return err
	}
	return replyOK(c, a.Build.Social.SetUserTags(personOf(c), pathParam(c, "user"), pathParam(c, "project"), pathParam(c, "package"), names))
}
