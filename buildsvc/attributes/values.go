package attributes

import (
	"slices"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Attribute values on projects, packages and binaries (/source/P[/K[/B]]/_attribute[/NS:NAME]).
// The rules and wording are the 2.7-era service's (AttributeController#cmd_attribute,
// HasAttributes#check_attrib!): an unknown definition is 404 unknown_attribute_type, a value
// that breaks the definition 400 attribute_save_error, a write the caller may not make 403
// change_attribute_no_permission. Attribute changes keep no history here, so a comment is not
// stored.

// AttributeRoute is what a …/_attribute URL names. Package "" is the project itself (the URL's
// "_project"); Binary is the path's, or ?binary= on a package route; Attribute is the URL's
// "NAMESPACE:NAME", if any.
type AttributeRoute struct {
	Project, Package, Binary, Attribute string
}

// AttributeQuery says what a read of a container's attributes shows besides its own.
type AttributeQuery struct {
	// WithDefault shows the definition's default values for an attribute set without values.
	WithDefault bool
	// WithProject adds the project's attributes to a package's.
	WithProject bool
}

// attributeTarget is the container a route resolved to.
type attributeTarget struct {
	project buildstore.Project
	pkg     *buildstore.Package // nil: the project's own attributes
}

func (t attributeTarget) pkgName() string {
	if t.pkg == nil {
		return ""
	}
	return t.pkg.Name
}

// unlocked: a locked project locks its packages too.
func (t attributeTarget) unlocked() error {
	if t.project.Locked || (t.pkg != nil && t.pkg.Locked) {
		return buildsvc.Forbidden("project_locked", "The target project is locked")
	}
	return nil
}

// resolve reads the container (unknown_project, unknown_package), checks the binary, and reads
// the definition the URL names, if any (invalid_attribute, unknown_attribute_type).
func (r AttributeRoute) resolve(tx kv.Tx) (attributeTarget, *buildstore.AttributeDefinition, error) {
	var t attributeTarget
	if r.Package == "" {
		p, err := buildstore.GetProject(tx, r.Project)
		if err != nil {
			return t, nil, buildsvc.NotFoundAs(err, "unknown_project")
		}
		t.project = p
	} else {
		p, k, err := buildsvc.LookupPackage(tx, r.Project, r.Package)
		if err != nil {
			return t, nil, err
		}
		t.project, t.pkg = p, &k
	}
	if err := checkBinary(t, r.Binary); err != nil {
		return t, nil, err
	}
	if r.Attribute == "" {
		return t, nil, nil
	}
	ns, name, err := buildsvc.SplitAttribute(r.Attribute)
	if err != nil {
		return t, nil, err
	}
	d, err := buildstore.GetAttributeDefinition(tx, ns, name)
	if err != nil {
		return t, nil, buildsvc.NotFoundAs(err, "unknown_attribute_type")
	}
	return t, &d, nil
}

// checkBinary: binaries belong to packages, and their names are file names.
func checkBinary(t attributeTarget, binary string) error {
	if binary == "" {
		return nil
	}
	if t.pkg == nil {
		return buildsvc.BadRequest("attribute_save_error", "binary packages are not allowed in project attributes")
	}
	if !buildstore.ValidBinaryName(binary) {
		return buildsvc.BadRequest("invalid_binary_name", "invalid binary name '%s'", binary)
	}
	return nil
}

// Attributes lists a container's attributes: a project's own; a package's own and its
// binaries' (only one binary's on a binary route), plus the project's with WithProject; only
// the route's attribute when it names one. Each comes with the values to show: with
// WithDefault, the definition's defaults for an attribute set without values.
func (s *Service) Attributes(r AttributeRoute, q AttributeQuery) ([]buildstore.Attribute, error) {
	var out []buildstore.Attribute
	err := s.Store().View(func(tx kv.Tx) error {
		t, def, err := r.resolve(tx)
		if err != nil {
			return err
		}
		list, err := buildstore.Attributes(tx, t.project.Name, t.pkgName())
		if err != nil {
			return err
		}
		if q.WithProject && t.pkg != nil {
			own, err := buildstore.Attributes(tx, t.project.Name, "")
			if err != nil {
				return err
			}
			list = append(list, own...)
		}
		for _, at := range list {
			if (def != nil && (at.Namespace != def.Namespace || at.Name != def.Name)) || (r.Binary != "" && at.Binary != r.Binary) {
				continue
			}
			if len(at.Values) == 0 && q.WithDefault {
				if d, err := buildstore.GetAttributeDefinition(tx, at.Namespace, at.Name); err == nil {
					at.Values = d.Default
				}
			}
			out = append(out, at)
		}
		return nil
	})
	return out, err
}

// bodyBinary picks the binary an attribute of a write goes to: the route's; else the
// document's (packages only). A document naming another binary than the route is refused.
func bodyBinary(r AttributeRoute, t attributeTarget, binary string) (string, error) {
	if binary == "" || binary == r.Binary {
		return r.Binary, nil
	}
	if r.Binary != "" {
		return "", buildsvc.BadRequest("illegal_request", "binary in xml data ('%s') does not match resource path component ('%s')", binary, r.Binary)
	}
	return binary, checkBinary(t, binary)
}

// SetAttributes sets the attributes of a document on the route's container, replacing their
// values and issues (the others stay). list holds what the document names (namespace, name,
// binary, values, issues); doc is the document itself. Everything is checked before anything
// is written, so a document is stored whole or not at all: every definition exists and may be
// set by who, the container is not locked, every value fits its definition.
func (s *Service) SetAttributes(who buildstore.Person, r AttributeRoute, list []buildstore.Attribute, doc AttributeDoc) error {
	return s.writeAttributes(doc, func(tx kv.Tx) error { return SetAttributesTx(tx, who, r, list, doc, s.Clock().Now()) })
}

// SetAttributesTx is SetAttributes at now (when the issues it names are noted) inside the
// caller's transaction (the fixtures set the demo attributes in theirs).
func SetAttributesTx(tx kv.Tx, who buildstore.Person, r AttributeRoute, list []buildstore.Attribute, doc AttributeDoc, now time.Time) error {
	var t attributeTarget
	var attrs []buildstore.Attribute
	var defs []buildstore.AttributeDefinition
	return runAttributeSteps(tx, doc,
		func(tx kv.Tx) (err error) { t, _, err = r.resolve(tx); return err },
		refusal(doc.Err),
		func(tx kv.Tx) (err error) { attrs, defs, err = attributesOf(tx, who, r, t, list); return err },
		func(kv.Tx) error {
			if len(attrs) == 0 {
				return nil
			}
			return t.unlocked()
		},
		func(tx kv.Tx) error {
			for i, at := range attrs {
				if err := checkValues(tx, defs[i], at); err != nil {
					return err
				}
			}
			return nil
		},
		func(tx kv.Tx) error {
			for _, at := range attrs {
				if err := buildstore.PutAttribute(tx, at); err != nil {
					return err
				}
				// The issues it names join the issue records, as OBS's attribute update
				// creates them (the attribute keeps its own list for ?view=issues).
				if err := buildstore.NoteAttributeIssues(tx, at, now); err != nil {
					return err
				}
			}
			return nil
		})
}

// attributesOf turns a document's list into the attributes to store on t, each with its
// definition, checking that each names a definition who may set and a binary it may go to.
func attributesOf(tx kv.Tx, who buildstore.Person, r AttributeRoute, t attributeTarget, list []buildstore.Attribute) ([]buildstore.Attribute, []buildstore.AttributeDefinition, error) {
	attrs, defs := make([]buildstore.Attribute, 0, len(list)), make([]buildstore.AttributeDefinition, 0, len(list))
	for _, x := range list {
		if x.Namespace == "" || x.Name == "" {
			return nil, nil, buildsvc.BadRequest("change_attribute_attribute_error", "Need namespace and name as parameters")
		}
		def, err := buildstore.GetAttributeDefinition(tx, x.Namespace, x.Name)
		if err != nil {
			return nil, nil, buildsvc.NotFoundAs(err, "unknown_attribute_type")
		}
		if err := mayChangeValue(tx, who, def, t); err != nil {
			return nil, nil, err
		}
		binary, err := bodyBinary(r, t, x.Binary)
		if err != nil {
			return nil, nil, err
		}
		at := buildstore.Attribute{Project: t.project.Name, Package: t.pkgName(), Binary: binary, Namespace: def.Namespace,
			Name: def.Name, Values: x.Values}
		for _, is := range x.Issues {
			if !slices.Contains(at.Issues, is) {
				at.Issues = append(at.Issues, is)
			}
		}
		attrs, defs = append(attrs, at), append(defs, def)
	}
	return attrs, defs, nil
}

// DeleteAttribute removes the route's attribute from its container (a package's own, or the
// route's binary's).
func (s *Service) DeleteAttribute(who buildstore.Person, r AttributeRoute) error {
	var t attributeTarget
	var def *buildstore.AttributeDefinition
	return s.writeAttributes(AttributeDoc{},
		func(tx kv.Tx) (err error) { t, def, err = r.resolve(tx); return err },
		func(tx kv.Tx) error {
			if def == nil {
				return buildsvc.BadRequest("missing_attribute", "No attribute got specified for delete")
			}
			_, err := buildstore.GetAttribute(tx, t.project.Name, t.pkgName(), r.Binary, def.Namespace, def.Name)
			return buildsvc.NotFoundAs(err, "not_found")
		},
		func(tx kv.Tx) error { return mayChangeValue(tx, who, *def, t) },
		func(kv.Tx) error { return t.unlocked() },
		func(tx kv.Tx) error {
			return buildstore.DeleteAttribute(tx, t.project.Name, t.pkgName(), r.Binary, def.Namespace, def.Name)
		})
}
