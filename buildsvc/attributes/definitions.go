package attributes

import (
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Attribute definitions (/attribute/NS/NAME/_meta): changed by Admin and by whom their
// namespace's rules name. The codes are the 2.7-era AttributeController's: 400
// unknown_namespace for listing an unknown namespace, 400 unknown_attribute_namespace for a
// definition under a missing one, 404 unknown_attribute for a missing definition.

// AttributeDefinitions lists the names of a namespace's definitions; an unknown namespace is
// the service's 400 unknown_namespace here (not a 404, unlike its _meta).
func (s *Service) AttributeDefinitions(namespace string) ([]string, error) {
	var names []string
	err := s.Store().View(func(tx kv.Tx) error {
		if _, err := buildstore.GetAttributeNamespace(tx, namespace); err != nil {
			return buildsvc.BadRequest("unknown_namespace", "Attribute namespace does not exist: %s", namespace)
		}
		list, err := buildstore.AttributeDefinitions(tx, namespace)
		for _, d := range list {
			names = append(names, d.Name)
		}
		return err
	})
	return names, err
}

// AttributeDefinition reads namespace:name.
func (s *Service) AttributeDefinition(namespace, name string) (buildstore.AttributeDefinition, error) {
	var d buildstore.AttributeDefinition
	err := s.Store().View(func(tx kv.Tx) error {
		if _, err := definitionNamespace(tx, namespace); err != nil {
			return err
		}
		var err error
		if d, err = buildstore.GetAttributeDefinition(tx, namespace, name); err != nil {
			return fault.NotFound("unknown_attribute", "Unknown attribute '%s':'%s'", namespace, name)
		}
		return nil
	})
	return d, err
}

// definitionNamespace reads the namespace of a definition route: missing is the service's 400
// unknown_attribute_namespace (the 404 is for the namespace's own _meta).
func definitionNamespace(tx kv.Tx, name string) (buildstore.AttributeNamespace, error) {
	ns, err := buildstore.GetAttributeNamespace(tx, name)
	if err != nil {
		return ns, buildsvc.BadRequest("unknown_attribute_namespace", "Specified attribute namespace does not exist: '%s'", name)
	}
	return ns, nil
}

// definitionsOf is the first step of every definition write: the namespace exists and who may
// change its definitions.
func definitionsOf(who buildstore.Person, namespace string) attributeStep {
	return func(tx kv.Tx) error {
		ns, err := definitionNamespace(tx, namespace)
		if err != nil {
			return err
		}
		if !mayChangeDefinitions(tx, who, ns) {
			return buildsvc.Forbidden("admin_required", "Attribute type changes are not permitted")
		}
		return nil
	}
}

// PutAttributeDefinition creates or replaces definition d (its namespace and name are the
// URL's, whatever doc held). Values already set stay, as in the service, even where the new
// definition would refuse them. The checks run in the service's order: size, namespace,
// permission, name, document, rules.
func (s *Service) PutAttributeDefinition(who buildstore.Person, d buildstore.AttributeDefinition, doc AttributeDoc) error {
	return s.writeAttributes(doc,
		definitionsOf(who, d.Namespace),
		refusal(validAttributeName("attribute", d.Name)),
		refusal(doc.Err),
		func(tx kv.Tx) error { return checkRules(tx, "attribute definition", d.ModifiableBy, true) },
		func(tx kv.Tx) error { return buildstore.PutAttributeDefinition(tx, d) })
}

// DeleteAttributeDefinition removes a definition and every value set for it. A definition
// that does not exist is no error (the service answers ok); a missing namespace is.
func (s *Service) DeleteAttributeDefinition(who buildstore.Person, namespace, name string) error {
	return s.writeAttributes(AttributeDoc{},
		definitionsOf(who, namespace),
		func(tx kv.Tx) error {
			if _, err := buildstore.GetAttributeDefinition(tx, namespace, name); err != nil {
				return nil
			}
			return buildstore.DeleteAttributeDefinition(tx, namespace, name)
		})
}
