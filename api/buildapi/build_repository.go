package buildapi

import (
	"encoding/xml"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc/farm"
)

// A where's repository, /build/<project>/<repository>/<arch>/_repository: what builds there
// may install (buildsvc farm_read_repository.go).

// repositoryList answers GET …/_repository: a binarylist naming each binary "<name>.rpm".
func (a *api) repositoryList(c *fiber.Ctx) error {
	if err := listView(c, "names"); err != nil {
		return err
	}
	list, err := a.Farm.RepositoryList(personOf(c), whereParam(c))
	if err != nil {
		return err
	}
	doc := binaryListXML{Binaries: []binaryXML{}}
	for _, b := range list {
		doc.Binaries = append(doc.Binaries, binaryEntry(farm.RepositoryName(b), b))
	}
	return sendXML(c, doc)
}

// repositoryFile answers GET …/_repository/<binary> (also ?view=fileinfo|fileinfo_ext).
func (a *api) repositoryFile(c *fiber.Ctx) error {
	name := pathParam(c, "binary")
	switch name {
	case "_buildinfo":
		return c.Next() // the posted-spec buildinfo's GET twin, routed after this
	case "_buildconfig": // the backend serves the configuration here too
		return a.getBuildConfig(c)
	}
	if done, err := a.fileInfoView(c, farm.RepositoryPackage, name); done {
		return err
	}
	b, data, err := a.Farm.RepositoryFile(personOf(c), whereParam(c), name)
	if err != nil {
		return err
	}
	return sendBinary(c, b.Filename, data)
}

// repositoryPut answers PUT …/_repository/<file> (Admin): the body is an RPM for the where.
func (a *api) repositoryPut(c *fiber.Ctx) error {
	data := append([]byte(nil), c.Body()...)
	if _, err := a.Farm.PutRepositoryBinary(personOf(c), whereParam(c), pathParam(c, "binary"), data); err != nil {
		return err
	}
	return sendOK(c)
}

// valueCollectionXML is the answer of POST …/_repository?match=: the matching binaries' names
// (BSXML collection of <value>).
type valueCollectionXML struct {
	XMLName xml.Name `xml:"collection"`
	Values  []string `xml:"value"`
}

// repositoryMatch answers POST …/_repository?match= (Admin).
func (a *api) repositoryMatch(c *fiber.Ctx) error {
	names, err := a.Farm.MatchRepository(personOf(c), whereParam(c), c.Query("match"))
	if err != nil {
		return err
	}
	return sendXML(c, valueCollectionXML{Values: names})
}
