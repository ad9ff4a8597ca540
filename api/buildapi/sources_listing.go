package buildapi

import (
	"strconv"

	"github.com/pocketforge/pocketforge/buildsvc"
)

// The package listing as the API renders a source view (buildsvc.SourceView resolves which
// tree a request sees): the directory with its entries and, for a link, <linkinfo>.

// linkinfoXML is <linkinfo>: the target, the target tree used, and either the expansion's
// xsrcmd5 (unexpanded listing), the link's own srcmd5 (expanded listing) or the link error.
type linkinfoXML struct {
	Project   string `xml:"project,attr"`
	Package   string `xml:"package,attr"`
	Srcmd5    string `xml:"srcmd5,attr,omitempty"`
	BaseRev   string `xml:"baserev,attr,omitempty"`
	Rev       string `xml:"rev,attr,omitempty"`
	XSrcmd5   string `xml:"xsrcmd5,attr,omitempty"`
	LSrcmd5   string `xml:"lsrcmd5,attr,omitempty"`
	Error     string `xml:"error,attr,omitempty"`
	MissingOK string `xml:"missingok,attr,omitempty"`
}

// listingDoc renders a view as the package's directory listing.
func listingDoc(name string, v buildsvc.SourceView) fileDirXML {
	d := dirDoc(name, v.Tree)
	if v.Expanded {
		d.Rev, d.VRev = v.Tree.SrcMD5, strconv.FormatUint(v.Tree.VRev, 10)
	}
	if l := v.Link; l != nil {
		d.Linkinfo = &linkinfoXML{Project: l.Project, Package: l.Package, Srcmd5: l.SrcMD5, BaseRev: l.BaseRev, Rev: l.Rev,
			XSrcmd5: l.XSrcMD5, LSrcmd5: l.LSrcMD5, Error: l.Error}
		if l.MissingOK {
			d.Linkinfo.MissingOK = "true"
		}
	}
	return d
}
