package buildapi

import (
	"encoding/xml"

	"github.com/pocketforge/pocketforge/buildsvc/search"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/builddoc/binarycoll"
)

// The binary searches (seed: "Search"): /search/published/binary/id and
// /search/published/pattern/id (only /id routes, as on OBS, whose backend answers them),
// /search/channel/binary[/id] and /search/released/binary[/id], GET or POST, with match, limit
// and offset as on the other search routes. What matches and what who may see are buildsvc's
// Search*Binaries and SearchPublishedPatterns.

// publishedBinaryDoc is a published binary as OBS's backend answers it (the element the
// explorer's remote backend reads too: builddoc/binarycoll).
func publishedBinaryDoc(b search.PublishedBinary) binarycoll.Binary {
	return binarycoll.Binary{Name: b.Name, Project: b.Project, Package: b.Package, Repository: b.Repository,
		Version: b.Version, Release: b.Release, Arch: b.Arch, Filename: b.Filename, Filepath: b.Filepath,
		BaseProject: b.BaseProject, Type: b.Type}
}

// publishedPatternXML is a published pattern (see buildsvc.SearchPublishedPatterns for what
// it leaves out).
type publishedPatternXML struct {
	XMLName     xml.Name `xml:"pattern"`
	Name        string   `xml:"name,attr"`
	Project     string   `xml:"project,attr"`
	Repository  string   `xml:"repository,attr"`
	Filename    string   `xml:"filename,attr"`
	BaseProject string   `xml:"baseproject,attr,omitempty"`
}

func publishedPatternDoc(p search.PublishedPattern) publishedPatternXML {
	return publishedPatternXML{Name: p.Name, Project: p.Project, Repository: p.Repository, Filename: p.Filename, BaseProject: p.BaseProject}
}

// channelXML is a channel binary as OBS renders it: the channel package, the binary and, in
// the full answer, the channel's targets.
type channelXML struct {
	XMLName xml.Name           `xml:"channel"`
	Project string             `xml:"project,attr"`
	Package string             `xml:"package,attr"`
	Binary  channelBinaryXML   `xml:"binary"`
	Targets []channelTargetXML `xml:"target"`
}

type channelBinaryXML struct {
	Package       string `xml:"package,attr,omitempty"`
	Name          string `xml:"name,attr"`
	BinaryArch    string `xml:"binaryarch,attr,omitempty"`
	SupportStatus string `xml:"supportstatus,attr,omitempty"`
}

type channelTargetXML struct {
	Project    string    `xml:"project,attr"`
	Repository string    `xml:"repository,attr"`
	Disabled   *struct{} `xml:"disabled"`
}

// channelBinaryDocOf renders b, with its targets when full.
func channelBinaryDocOf(full bool) func(search.ChannelBinary) channelXML {
	return func(b search.ChannelBinary) channelXML {
		out := channelXML{Project: b.Project, Package: b.Package, Binary: channelBinaryXML{Package: b.BinaryPackage,
			Name: b.Name, BinaryArch: b.BinaryArch, SupportStatus: b.SupportStatus}}
		if full {
			for _, t := range b.Targets {
				x := channelTargetXML{Project: t.Project, Repository: t.Repository}
				if t.Disabled {
					x.Disabled = &struct{}{}
				}
				out.Targets = append(out.Targets, x)
			}
		}
		return out
	}
}

// releasedBinaryXML is a released binary as OBS renders it: its identifying attributes, and
// in the full answer what the appliance knows of it besides.
type releasedBinaryXML struct {
	XMLName    xml.Name    `xml:"binary"`
	Project    string      `xml:"project,attr"`
	Repository string      `xml:"repository,attr"`
	Name       string      `xml:"name,attr"`
	Epoch      string      `xml:"epoch,attr,omitempty"`
	Version    string      `xml:"version,attr"`
	Release    string      `xml:"release,attr"`
	Arch       string      `xml:"arch,attr"`
	Publish    *publishXML `xml:"publish"`
	DistURL    string      `xml:"disturl,omitempty"`
}

type publishXML struct {
	Package string `xml:"package,attr"`
}

// releasedBinaryDocOf renders b, fully when full.
func releasedBinaryDocOf(full bool) func(search.ReleasedBinary) releasedBinaryXML {
	return func(b search.ReleasedBinary) releasedBinaryXML {
		out := releasedBinaryXML{Project: b.Project, Repository: b.Repository, Name: b.Name, Epoch: b.Epoch,
			Version: b.Version, Release: b.Release, Arch: b.Arch}
		if full {
			out.Publish, out.DistURL = &publishXML{Package: b.Package}, b.DistURL
		}
		return out
	}
}

// searchPublishedBinaries answers /search/published/binary/id.
func (a *api) searchPublishedBinaries(c *fiber.Ctx) error {
	found, err := a.Search.SearchPublishedBinaries(personOf(c), searchParam(c, "match"), searchPage(c))
	if err != nil {
		return err
	}
	return sendCollection(c, found, publishedBinaryDoc)
}

// searchPublishedPatterns answers /search/published/pattern/id.
func (a *api) searchPublishedPatterns(c *fiber.Ctx) error {
	found, err := a.Search.SearchPublishedPatterns(personOf(c), searchParam(c, "match"), searchPage(c))
	if err != nil {
		return err
	}
	return sendCollection(c, found, publishedPatternDoc)
}

// searchChannelBinaries answers /search/channel/binary or its /id form.
func (a *api) searchChannelBinaries(idOnly bool) fiber.Handler {
	return func(c *fiber.Ctx) error {
		found, err := a.Search.SearchChannelBinaries(personOf(c), searchParam(c, "match"), idOnly, searchPage(c))
		if err != nil {
			return err
		}
		return sendCollection(c, found, channelBinaryDocOf(!idOnly))
	}
}

// searchReleasedBinaries answers /search/released/binary or its /id form.
func (a *api) searchReleasedBinaries(idOnly bool) fiber.Handler {
	return func(c *fiber.Ctx) error {
		found, err := a.Search.SearchReleasedBinaries(personOf(c), searchParam(c, "match"), idOnly, searchPage(c))
		if err != nil {
			return err
		}
		return sendCollection(c, found, releasedBinaryDocOf(!idOnly))
	}
}
