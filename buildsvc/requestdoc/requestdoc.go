// Package requestdoc is the request document of the build API (request.rng, as the service
// renders a request): the XML shape, its rendering from a stored request and its parsing from
// a posted one. The API answers with it, and the search evaluates xpath predicates over it, so
// both see one shape. It holds no rule: what a request may contain beyond the schema is decided
// in buildsvc.
package requestdoc

import (
	"encoding/xml"
	"strconv"
	"time"

	"github.com/pocketforge/pocketforge/store/buildstore"
)

// TimeLayout is how the document writes times: the service's local time without a zone,
// which on the appliance is UTC.
const TimeLayout = "2006-01-02T15:04:05"

// History says how much history a rendering carries.
type History int

const (
	// NoHistory renders the request as it stands.
	NoHistory History = iota
	// WithHistory adds the request's history (withhistory=1).
	WithHistory
	// WithFullHistory adds the reviews' histories too (withfullhistory=1).
	WithFullHistory
)

// Request is the <request> document.
type Request struct {
	XMLName     xml.Name `xml:"request"`
	ID          string   `xml:"id,attr,omitempty"`
	Creator     string   `xml:"creator,attr,omitempty"`
	Actions     []Action `xml:"action"`
	Priority    string   `xml:"priority,omitempty"`
	State       *State   `xml:"state"`
	Reviews     []Review `xml:"review"`
	History     []Event  `xml:"history"`
	AcceptAt    string   `xml:"accept_at,omitempty"`
	Description *string  `xml:"description"`
}

// Event is a <history> element: one change of the request or of a review.
type Event struct {
	Who         string `xml:"who,attr"`
	When        string `xml:"when,attr"`
	Description string `xml:"description"`
	Comment     string `xml:"comment,omitempty"`
}

// Action is an <action>.
type Action struct {
	Type       string      `xml:"type,attr"`
	Source     *Source     `xml:"source"`
	Target     *Target     `xml:"target"`
	Person     *Role       `xml:"person"`
	Group      *Role       `xml:"group"`
	Grouped    []Grouped   `xml:"grouped"`
	Options    *Options    `xml:"options"`
	AcceptInfo *AcceptInfo `xml:"acceptinfo"`
}

// Source is an action's <source>.
type Source struct {
	Project string `xml:"project,attr"`
	Package string `xml:"package,attr,omitempty"`
	Rev     string `xml:"rev,attr,omitempty"`
}

// Target is an action's <target>.
type Target struct {
	Project        string `xml:"project,attr"`
	Package        string `xml:"package,attr,omitempty"`
	ReleaseProject string `xml:"releaseproject,attr,omitempty"`
	Repository     string `xml:"repository,attr,omitempty"`
}

// Role is an action's <person> or <group>.
type Role struct {
	Name string `xml:"name,attr"`
	Role string `xml:"role,attr,omitempty"`
}

// Grouped is one request a group action holds.
type Grouped struct {
	ID string `xml:"id,attr"`
}

// Options are a submit's <options>.
type Options struct {
	SourceUpdate    string `xml:"sourceupdate,omitempty"`
	UpdateLink      string `xml:"updatelink,omitempty"`
	MakeOriginOlder string `xml:"makeoriginolder,omitempty"`
}

// AcceptInfo is an accepted submit's <acceptinfo>.
type AcceptInfo struct {
	Rev      string `xml:"rev,attr"`
	SrcMD5   string `xml:"srcmd5,attr"`
	OSrcMD5  string `xml:"osrcmd5,attr"`
	OProject string `xml:"oproject,attr,omitempty"`
	OPackage string `xml:"opackage,attr,omitempty"`
	XSrcMD5  string `xml:"xsrcmd5,attr,omitempty"`
	OXSrcMD5 string `xml:"oxsrcmd5,attr,omitempty"`
}

// State is the request's <state>.
type State struct {
	Name         string  `xml:"name,attr"`
	Who          string  `xml:"who,attr,omitempty"`
	When         string  `xml:"when,attr,omitempty"`
	Created      string  `xml:"created,attr,omitempty"`
	SupersededBy string  `xml:"superseded_by,attr,omitempty"`
	Approver     string  `xml:"approver,attr,omitempty"`
	Comment      *string `xml:"comment"`
}

// Review is a <review>.
type Review struct {
	State     string  `xml:"state,attr"`
	When      string  `xml:"when,attr,omitempty"`
	Who       string  `xml:"who,attr,omitempty"`
	ByUser    string  `xml:"by_user,attr,omitempty"`
	ByGroup   string  `xml:"by_group,attr,omitempty"`
	ByProject string  `xml:"by_project,attr,omitempty"`
	ByPackage string  `xml:"by_package,attr,omitempty"`
	Comment   string  `xml:"comment,omitempty"`
	History   []Event `xml:"history"`
}

// Time writes t as the document does ("" for the zero time).
func Time(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(TimeLayout)
}

// Render is the document of r with as much history as h asks for.
func Render(r buildstore.Request, h History) Request {
	d := Request{ID: strconv.FormatUint(r.ID, 10), Creator: r.Creator, Priority: r.Priority}
	for _, a := range r.Actions {
		d.Actions = append(d.Actions, renderAction(a))
	}
	comment := r.State.Comment
	d.State = &State{Name: r.State.Name, Who: r.State.Who, When: Time(r.State.When), Created: Time(r.State.Created),
		Approver: r.State.Approver, Comment: &comment}
	if r.State.SupersededBy != 0 {
		d.State.SupersededBy = strconv.FormatUint(r.State.SupersededBy, 10)
	}
	for _, v := range r.Reviews {
		rv := Review{State: v.State, When: Time(v.When), Who: v.Who, ByUser: v.ByUser, ByGroup: v.ByGroup,
			ByProject: v.ByProject, ByPackage: v.ByPackage, Comment: v.Comment}
		if h == WithFullHistory {
			rv.History = renderHistory(v.History)
		}
		d.Reviews = append(d.Reviews, rv)
	}
	if h != NoHistory {
		d.History = renderHistory(r.History)
	}
	if r.AcceptAt != nil {
		d.AcceptAt = r.AcceptAt.UTC().Format("2006-01-02 15:04:05 UTC")
	}
	desc := r.Description
	d.Description = &desc
	return d
}

func renderHistory(list []buildstore.HistoryRecord) []Event {
	var out []Event
	for _, h := range list {
		out = append(out, Event{Who: h.Who, When: Time(h.When), Description: h.Description, Comment: h.Comment})
	}
	return out
}

func renderAction(a buildstore.RequestAction) Action {
	d := Action{Type: a.Type}
	if a.Source != nil {
		d.Source = &Source{Project: a.Source.Project, Package: a.Source.Package, Rev: a.Source.Rev}
	}
	if a.Target != nil {
		d.Target = &Target{Project: a.Target.Project, Package: a.Target.Package,
			ReleaseProject: a.Target.ReleaseProject, Repository: a.Target.Repository}
	}
	if a.Person != nil {
		d.Person = &Role{Name: a.Person.Name, Role: a.Person.Role}
	}
	if a.Group != nil {
		d.Group = &Role{Name: a.Group.Name, Role: a.Group.Role}
	}
	for _, id := range a.Grouped {
		d.Grouped = append(d.Grouped, Grouped{ID: strconv.FormatUint(id, 10)})
	}
	o := a.Options
	if o.SourceUpdate != "" || o.UpdateLink || o.MakeOriginOlder {
		d.Options = &Options{SourceUpdate: o.SourceUpdate}
		if o.UpdateLink {
			d.Options.UpdateLink = "true"
		}
		if o.MakeOriginOlder {
			d.Options.MakeOriginOlder = "true"
		}
	}
	if i := a.AcceptInfo; i != nil {
		d.AcceptInfo = &AcceptInfo{Rev: i.Rev, SrcMD5: i.SrcMD5, OSrcMD5: i.OSrcMD5, OProject: i.OProject,
			OPackage: i.OPackage, XSrcMD5: i.XSrcMD5, OXSrcMD5: i.OXSrcMD5}
	}
	return d
}
