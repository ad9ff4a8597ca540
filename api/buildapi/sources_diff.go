package buildapi

import (
	"crypto/md5"
	"encoding/hex"
	"encoding/xml"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// cmd=diff: the backend's source diff as text/plain, what osc rdiff prints (buildsvc.Service.Diff
// makes it), or with view=xml its <sourcediff> document (withissues=1 adds the issues the change
// adds, changes or drops; onlyissues=1 gives those alone). filelimit, tarlimit and unified are
// accepted and ignored; withissues and onlyissues change only the XML view (the text diff has no
// place for them).

// diffPackage compares oproject/opackage at ?orev= (old side) with this package at ?rev= (new
// side), expanded with ?expand=1 against ?linkrev= and ?olinkrev=.
func (a *api) diffPackage(c *fiber.Ctx) error {
	oproject, opackage := otherPackage(c)
	o := buildsvc.DiffOptions{
		OldProject: oproject, OldPackage: opackage, Rev: c.Query("rev"), OldRev: c.Query("orev"),
		Expand: boolParam(c, "expand"), LinkRev: c.Query("linkrev"), OldLinkRev: c.Query("olinkrev")}
	switch view := c.Query("view"); view {
	case "xml":
		only := boolParam(c, "onlyissues")
		issues := only || boolParam(c, "withissues")
		d, err := a.Svc.StructuredDiff(personOf(c), pathParam(c, "project"), pathParam(c, "package"), o, issues)
		if err != nil {
			return err
		}
		return sendXML(c, sourceDiffDoc(d, issues, only))
	case "":
	default:
		return buildsvc.BadRequest("400", "unknown view '%s' for cmd=diff (xml, or none for text)", view)
	}
	text, err := a.Svc.Diff(personOf(c), pathParam(c, "project"), pathParam(c, "package"), o)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "text/plain; charset=utf-8")
	return c.SendString(text)
}

// sourceDiffXML is the backend's <sourcediff> (BSXML sourcediff).
type sourceDiffXML struct {
	XMLName xml.Name       `xml:"sourcediff"`
	Key     string         `xml:"key,attr"`
	Old     diffSideXML    `xml:"old"`
	New     diffSideXML    `xml:"new"`
	Files   *diffFilesXML  `xml:"files"`
	Issues  *diffIssuesXML `xml:"issues"`
}

type diffSideXML struct {
	Project string `xml:"project,attr"`
	Package string `xml:"package,attr"`
	Rev     string `xml:"rev,attr"`
	Srcmd5  string `xml:"srcmd5,attr"`
}

type diffFilesXML struct {
	Files []diffFileXML `xml:"file"`
}

type diffFileXML struct {
	State string        `xml:"state,attr"`
	Old   *diffEntryXML `xml:"old"`
	New   *diffEntryXML `xml:"new"`
	Diff  diffTextXML   `xml:"diff"`
}

type diffEntryXML struct {
	Name  string `xml:"name,attr"`
	MD5   string `xml:"md5,attr"`
	Size  int64  `xml:"size,attr"`
	MTime int64  `xml:"mtime,attr,omitempty"`
}

// diffTextXML is a file's hunks; Text is written escaped by diffText with its newlines as they
// are (encoding/xml's chardata would write each as &#xA;, which parsers read the same but people
// and OBS's own output do not).
type diffTextXML struct {
	Binary string `xml:"binary,attr,omitempty"`
	Lines  int    `xml:"lines,attr"`
	Text   string `xml:",innerxml"`
}

// diffText escapes s for an element's content: &, < and > as entities, and each character XML
// 1.0 does not allow (the controls but tab, newline and return) as U+FFFD, as encoding/xml does.
func diffText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r < 0x20 && r != '\t' && r != '\n' && r != '\r', r == 0xFFFE, r == 0xFFFF:
			b.WriteRune('\uFFFD')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

type diffIssuesXML struct {
	Issues []diffIssueXML `xml:"issue"`
}

type diffIssueXML struct {
	State   string `xml:"state,attr"`
	Tracker string `xml:"tracker,attr"`
	Name    string `xml:"name,attr"`
	Label   string `xml:"label,attr"`
	URL     string `xml:"url,attr"`
}

// sourceDiffDoc renders d, with its issues when withIssues, without its files when onlyIssues.
// The key names the pair of trees (OBS keys its diff cache so).
func sourceDiffDoc(d buildsvc.StructuredDiff, withIssues, onlyIssues bool) sourceDiffXML {
	sum := md5.Sum([]byte(d.Old.SrcMD5 + "/" + d.New.SrcMD5))
	out := sourceDiffXML{Key: hex.EncodeToString(sum[:]),
		Old: diffSideXML{Project: d.Old.Project, Package: d.Old.Package, Rev: d.Old.Rev, Srcmd5: d.Old.SrcMD5},
		New: diffSideXML{Project: d.New.Project, Package: d.New.Package, Rev: d.New.Rev, Srcmd5: d.New.SrcMD5}}
	if !onlyIssues {
		out.Files = &diffFilesXML{}
		for _, f := range d.Files {
			x := diffFileXML{State: f.State(), Old: diffEntry(f.Old), New: diffEntry(f.New)}
			if f.Binary {
				x.Diff = diffTextXML{Binary: "1", Lines: 1, Text: "Binary file differs\n"}
			} else {
				x.Diff = diffTextXML{Lines: strings.Count(f.Hunks, "\n"), Text: diffText(f.Hunks)}
			}
			out.Files.Files = append(out.Files.Files, x)
		}
	}
	if withIssues {
		out.Issues = &diffIssuesXML{}
		for _, i := range d.Issues {
			out.Issues.Issues = append(out.Issues.Issues, diffIssueXML{State: i.State, Tracker: i.Tracker, Name: i.Name, Label: i.Label, URL: i.URL})
		}
	}
	return out
}

func diffEntry(f *buildstore.FileEntry) *diffEntryXML {
	if f == nil {
		return nil
	}
	return &diffEntryXML{Name: f.Name, MD5: f.MD5, Size: f.Size, MTime: f.MTime}
}
