package requestdoc

import (
	"encoding/xml"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/pocketforge/pocketforge/buildsvc/metadoc"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// SchemaError is a posted document request.rng refuses; its message is the schema's complaint.
type SchemaError struct{ Msg string }

func (e *SchemaError) Error() string { return e.Msg }

func schemaErr(format string, args ...any) error {
	return &SchemaError{Msg: fmt.Sprintf(format, args...)}
}

// Priorities are the values <priority> takes (obs-ratings); moderate is the default.
var Priorities = []string{"low", "moderate", "important", "critical"}

// Parse reads a posted request document into a request record: its actions, description,
// priority and the reviews it asks for. What the poster says of id, creator, state and history
// is not taken (the service sets them); PUT by Admin takes the state with ParseState. A document
// request.rng refuses is a *SchemaError.
func Parse(body []byte) (buildstore.Request, Request, error) {
	var d Request
	if err := metadoc.Unmarshal(body, &d); err != nil {
		if e, ok := err.(*metadoc.TooManyError); ok {
			return buildstore.Request{}, d, schemaErr("%v", e)
		}
		var root struct{ XMLName xml.Name }
		if xml.Unmarshal(body, &root) == nil && root.XMLName.Local != "request" {
			return buildstore.Request{}, d, schemaErr("Expecting element request, got %s", root.XMLName.Local)
		}
		return buildstore.Request{}, d, schemaErr("document is not well-formed: %v", err)
	}
	if len(d.Actions) == 0 {
		return buildstore.Request{}, d, schemaErr("Expecting element action, got nothing")
	}
	r := buildstore.Request{}
	for i, a := range d.Actions {
		act, err := parseAction(i+1, a)
		if err != nil {
			return buildstore.Request{}, d, err
		}
		r.Actions = append(r.Actions, act)
	}
	if d.Priority != "" {
		if !slices.Contains(Priorities, d.Priority) {
			return buildstore.Request{}, d, schemaErr("priority: '%s' is not one of %s", d.Priority, strings.Join(Priorities, ", "))
		}
		if d.Priority != "moderate" {
			r.Priority = d.Priority
		}
	}
	if d.Description != nil {
		r.Description = *d.Description
	}
	for _, v := range d.Reviews {
		if v.ByUser == "" && v.ByGroup == "" && v.ByProject == "" {
			return buildstore.Request{}, d, schemaErr("review: by_user, by_group or by_project is required")
		}
		if v.ByPackage != "" && v.ByProject == "" {
			return buildstore.Request{}, d, schemaErr("review: by_package needs by_project")
		}
		r.Reviews = append(r.Reviews, buildstore.Review{State: v.State, ByUser: v.ByUser, ByGroup: v.ByGroup, ByProject: v.ByProject, ByPackage: v.ByPackage})
	}
	return r, d, nil
}

// parseAction checks one action against the schema: a known type, the elements it carries,
// the attributes they need.
func parseAction(n int, a Action) (buildstore.RequestAction, error) {
	out := buildstore.RequestAction{Type: a.Type}
	if !slices.Contains(buildstore.ActionTypes, a.Type) {
		if a.Type == "" {
			return out, schemaErr("action %d: attribute type is required", n)
		}
		return out, schemaErr("action %d: type '%s' is not one of %s", n, a.Type, strings.Join(buildstore.ActionTypes, ", "))
	}
	if a.Source != nil {
		if a.Source.Project == "" {
			return out, schemaErr("action %d: source needs the attribute project", n)
		}
		out.Source = &buildstore.ActionSource{Project: a.Source.Project, Package: a.Source.Package, Rev: a.Source.Rev}
	}
	if a.Target != nil {
		if a.Target.Project == "" {
			return out, schemaErr("action %d: target needs the attribute project", n)
		}
		out.Target = &buildstore.ActionTarget{Project: a.Target.Project, Package: a.Target.Package,
			ReleaseProject: a.Target.ReleaseProject, Repository: a.Target.Repository}
	}
	for _, r := range []struct {
		in  *Role
		out **buildstore.ActionRole
		el  string
	}{{a.Person, &out.Person, "person"}, {a.Group, &out.Group, "group"}} {
		if r.in == nil {
			continue
		}
		if r.in.Name == "" {
			return out, schemaErr("action %d: %s needs the attribute name", n, r.el)
		}
		*r.out = &buildstore.ActionRole{Name: r.in.Name, Role: r.in.Role}
	}
	for _, g := range a.Grouped {
		id, err := strconv.ParseUint(g.ID, 10, 64)
		if err != nil || id == 0 {
			return out, schemaErr("action %d: grouped id '%s' is not a request number", n, g.ID)
		}
		out.Grouped = append(out.Grouped, id)
	}
	if o := a.Options; o != nil {
		if o.SourceUpdate != "" && !slices.Contains([]string{"update", "noupdate", "cleanup"}, o.SourceUpdate) {
			return out, schemaErr("action %d: sourceupdate '%s' is not one of update, noupdate, cleanup", n, o.SourceUpdate)
		}
		for _, b := range []string{o.UpdateLink, o.MakeOriginOlder} {
			if b != "" && b != "true" && b != "false" {
				return out, schemaErr("action %d: options take true or false, not '%s'", n, b)
			}
		}
		out.Options = buildstore.ActionOptions{SourceUpdate: o.SourceUpdate, UpdateLink: o.UpdateLink == "true",
			MakeOriginOlder: o.MakeOriginOlder == "true"}
	}
	return out, nil
}
