package buildapi

import (
	"encoding/xml"

	"github.com/pocketforge/pocketforge/buildsvc/search"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// The other searches (seed "Search"; build-notes §3, §6): /search/person (persons as GET
// /person shows them), /search/repository/id (<repository project= name=/>), /search/issue
// (the issue records as OBS renders them, issues.go), and the owner
// searches /search/owner and /search/missing_owner, which take parameters instead of a match
// and answer a <collection> without a matches count, as OBS renders them. GET and POST, like
// every search; the rules are buildsvc's.

type repositoryIDXML struct {
	XMLName xml.Name `xml:"repository"`
	Project string   `xml:"project,attr"`
	Name    string   `xml:"name,attr"`
}

// ownerCollectionXML is an owner search's answer: OBS gives it no matches count.
type ownerCollectionXML struct {
	XMLName xml.Name `xml:"collection"`
	Items   []ownerXML
}

type ownerXML struct {
	XMLName     xml.Name
	RootProject string `xml:"rootproject,attr"`
	Project     string `xml:"project,attr"`
	Package     string `xml:"package,attr,omitempty"`
	Holders     []ownerHolderXML
}

// ownerHolderXML is a <person name= role=/> or a <group name= role=/>, in the domain's order.
type ownerHolderXML struct {
	XMLName xml.Name
	Name    string `xml:"name,attr"`
	Role    string `xml:"role,attr"`
}

// ownerDoc renders o as element (owner or missing_owner).
func ownerDoc(element string, o search.Owner) ownerXML {
	d := ownerXML{XMLName: xml.Name{Local: element}, RootProject: o.RootProject, Project: o.Project, Package: o.Package}
	for _, h := range o.Holders {
		kind := "person"
		if h.Group {
			kind = "group"
		}
		d.Holders = append(d.Holders, ownerHolderXML{XMLName: xml.Name{Local: kind}, Name: h.Name, Role: h.Role})
	}
	return d
}

// searchPerson answers /search/person.
func (a *api) searchPerson(c *fiber.Ctx) error {
	found, err := a.Search.SearchPersons(personOf(c), searchParam(c, "match"), searchPage(c))
	if err != nil {
		return err
	}
	return sendCollection(c, found, func(p buildstore.Person) personXML {
		return personXML{Login: p.Login, Email: p.Email, Realname: p.Realname, State: p.State, GlobalRoles: p.GlobalRoles}
	})
}

// searchRepositoryIDs answers /search/repository/id.
func (a *api) searchRepositoryIDs(c *fiber.Ctx) error {
	found, err := a.Search.SearchRepositories(personOf(c), searchParam(c, "match"), searchPage(c))
	if err != nil {
		return err
	}
	return sendCollection(c, found, func(r search.RepositoryMatch) repositoryIDXML {
		return repositoryIDXML{Project: r.Project, Name: r.Name}
	})
}

// searchIssue answers /search/issue.
func (a *api) searchIssue(c *fiber.Ctx) error {
	found, err := a.Search.SearchIssues(personOf(c), searchParam(c, "match"), searchPage(c))
	if err != nil {
		return err
	}
	return sendCollection(c, found, func(v buildsvc.IssueView) issueRecordXML { return issueDoc(v, false) })
}

// ownerQuery reads the owner search parameters; filter is told apart from an empty one.
func ownerQuery(c *fiber.Ctx) search.OwnerQuery {
	q := search.OwnerQuery{Binary: searchParam(c, "binary"), User: searchParam(c, "user"), Group: searchParam(c, "group"),
		Devel: searchParam(c, "devel"), Limit: searchParam(c, "limit"), Project: searchParam(c, "project"),
		Attribute: searchParam(c, "attribute")}
	if c.Context().QueryArgs().Has("filter") || c.Method() == fiber.MethodPost && c.Context().PostArgs().Has("filter") {
		f := searchParam(c, "filter")
		q.Filter = &f
	}
	return q
}

// searchOwner answers /search/owner.
func (a *api) searchOwner(c *fiber.Ctx) error {
	owners, err := a.Search.SearchOwners(personOf(c), ownerQuery(c))
	if err != nil {
		return err
	}
	return sendXML(c, ownerCollectionXML{Items: docsOf(owners, func(o search.Owner) ownerXML { return ownerDoc("owner", o) })})
}

// searchMissingOwner answers /search/missing_owner.
func (a *api) searchMissingOwner(c *fiber.Ctx) error {
	owners, err := a.Search.SearchMissingOwners(personOf(c), ownerQuery(c))
	if err != nil {
		return err
	}
	return sendXML(c, ownerCollectionXML{Items: docsOf(owners, func(o search.Owner) ownerXML { return ownerDoc("missing_owner", o) })})
}
