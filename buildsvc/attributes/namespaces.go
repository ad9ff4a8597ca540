package attributes

import (
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Attribute namespaces (/attribute/NS/_meta): Admin's alone to create, change and delete;
// their modifiable_by rules say who else may change the definitions in them.

// AttributeNamespaces lists the names of the namespaces.
func (s *Service) AttributeNamespaces() ([]string, error) {
	var names []string
	err := s.Store().View(func(tx kv.Tx) error {
		list, err := buildstore.AttributeNamespaces(tx)
		for _, ns := range list {
			names = append(names, ns.Name)
		}
		return err
	})
	return names, err
}

// AttributeNamespace reads one namespace: 404 unknown_attribute_namespace when missing.
func (s *Service) AttributeNamespace(name string) (buildstore.AttributeNamespace, error) {
	return buildsvc.ViewOne(s.Service, func(tx kv.Tx) (buildstore.AttributeNamespace, error) {
		ns, err := buildstore.GetAttributeNamespace(tx, name)
		return ns, buildsvc.NotFoundAs(err, "unknown_attribute_namespace")
	})
}

// namespaceAdmin: namespaces are Admin's alone.
func namespaceAdmin(who buildstore.Person) error {
	if who.IsAdmin() {
		return nil
	}
	return buildsvc.Forbidden("admin_required", "Namespace changes are only permitted by the administrator")
}

// validAttributeName refuses a namespace or attribute name the store cannot key (kind says
// which, in the message).
func validAttributeName(kind, name string) error {
	if buildstore.ValidAttributeName(name) {
		return nil
	}
	return buildsvc.BadRequest("invalid_attribute_name", "invalid %s name '%s'", kind, name)
}

// PutAttributeNamespace creates namespace ns or replaces its rules (Admin only); its
// definitions stay. doc is the document ns was read from; the checks run in the service's
// order: Admin, size, name, document, rules.
func (s *Service) PutAttributeNamespace(who buildstore.Person, ns buildstore.AttributeNamespace, doc AttributeDoc) error {
	if err := namespaceAdmin(who); err != nil {
		return err
	}
	return s.writeAttributes(doc,
		refusal(validAttributeName("attribute namespace", ns.Name)),
		refusal(doc.Err),
		func(tx kv.Tx) error { return checkRules(tx, "attribute namespace", ns.ModifiableBy, false) },
		func(tx kv.Tx) error { return buildstore.PutAttributeNamespace(tx, ns) })
}

// DeleteAttributeNamespace removes a namespace with its definitions and their values (Admin
// only). A namespace that does not exist is no error: the service answers ok, so a cleanup
// script can run twice.
func (s *Service) DeleteAttributeNamespace(who buildstore.Person, name string) error {
	if err := namespaceAdmin(who); err != nil {
		return err
	}
	return s.writeAttributes(AttributeDoc{}, func(tx kv.Tx) error {
		if _, err := buildstore.GetAttributeNamespace(tx, name); err != nil {
			return nil
		}
		return buildstore.DeleteAttributeNamespace(tx, name)
	})
}
