package buildstore

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Attributes are typed notes on projects, packages and a package's binaries ("OBS:Maintained"
// on a package marks it for maintenance branches). An attribute namespace ("OBS") groups
// attribute definitions ("Maintained"); a definition says how many values an attribute has,
// which values are allowed, whether it carries issues and who may set it. The values live per
// container and binary.
//
// Key layout:
//   - build/attribute_namespaces: namespace → AttributeNamespace
//   - build/attribute_definitions: namespace 0x00 name → AttributeDefinition
//   - build/attributes: project 0x00 package 0x00 binary 0x00 namespace 0x00 name → Attribute,
//     package "" for the project's own, binary "" for the package's own. No component holds a
//     0x00 (names are checked), so "project 0x00" prefixes everything of one project and
//     "project 0x00 package 0x00" everything of one package.
//   - build/attribute_definition_values: index, namespace 0x00 name → attributes key, so a
//     definition's delete finds its values without a scan.

// ModifiableBy is one access rule of a namespace or definition: every set field must match
// (the person's login, a group the person is a member of, a role the person holds on the
// container). A namespace's rules name persons and groups only.
type ModifiableBy struct {
	User  string `json:"user,omitempty"`
	Group string `json:"group,omitempty"`
	Role  string `json:"role,omitempty"`
}

// AttributeNamespace groups definitions; its rules say who besides Admin may change them.
type AttributeNamespace struct {
	Name         string         `json:"name"`
	ModifiableBy []ModifiableBy `json:"modifiable_by,omitempty"`
}

// AttributeDefinition is one attribute type (the service's attrib_type).
type AttributeDefinition struct {
	Namespace   string  `json:"namespace"`
	Name        string  `json:"name"`
	Description *string `json:"description,omitempty"`
	// Count is the exact number of values an attribute must have; nil means any number.
	Count *int `json:"count,omitempty"`
	// Default is shown for an attribute without values when a reader asks with_default.
	Default []string `json:"default,omitempty"`
	// Allowed, when not empty, lists the only values an attribute may have.
	Allowed []string `json:"allowed,omitempty"`
	// IssueList lets an attribute carry issues (tracker, id).
	IssueList bool `json:"issue_list,omitempty"`
	// ModifiableBy, when not empty, replaces "the container's maintainers" as who may set the
	// attribute (Admin always may).
	ModifiableBy []ModifiableBy `json:"modifiable_by,omitempty"`
}

// FullName is "namespace:name", how the API and osc name an attribute.
func (d AttributeDefinition) FullName() string { return d.Namespace + ":" + d.Name }

// AttributeIssue is an issue an attribute refers to: its id in a tracker.
type AttributeIssue struct {
	Name    string `json:"name"`
	Tracker string `json:"tracker"`
}

// Attribute is an attribute's values on one container: a project (Package ""), a package
// (Binary ""), or one binary of a package.
type Attribute struct {
	Project   string           `json:"project"`
	Package   string           `json:"package,omitempty"`
	Binary    string           `json:"binary,omitempty"`
	Namespace string           `json:"namespace"`
	Name      string           `json:"name"`
	Values    []string         `json:"values,omitempty"`
	Issues    []AttributeIssue `json:"issues,omitempty"`
}

// FullName is "namespace:name".
func (a Attribute) FullName() string { return a.Namespace + ":" + a.Name }

var attributeName = regexp.MustCompile(`^[a-zA-Z0-9_][a-zA-Z0-9_.+-]*$`)

// ValidAttributeName is the rule for namespace and attribute names: letters, digits and _.+-,
// not starting with punctuation other than _, at most MaxNameLength bytes. No ":" — it
// separates the two in "namespace:name" — and no 0x00, which separates key components.
func ValidAttributeName(name string) bool {
	return len(name) <= MaxNameLength && attributeName.MatchString(name)
}

// ValidBinaryName is the rule for the binary an attribute is set on: a file or binary package
// name, so no "/", no control characters, not "." or "..", at most MaxNameLength bytes.
func ValidBinaryName(name string) bool {
	if name == "" || name == "." || name == ".." || len(name) > MaxNameLength || strings.Contains(name, "/") {
		return false
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f {
			return false
		}
	}
	return true
}

func definitionKey(namespace, name string) []byte {
	return []byte(namespace + "\x00" + name)
}

func attributeKey(a Attribute) []byte {
	return []byte(a.Project + "\x00" + a.Package + "\x00" + a.Binary + "\x00" + a.Namespace + "\x00" + a.Name)
}

// containerPrefix is the key prefix of one container's attributes (all its binaries' too).
func containerPrefix(project, pkg string) []byte {
	return []byte(project + "\x00" + pkg + "\x00")
}

// GetAttributeNamespace returns the namespace called name.
func GetAttributeNamespace(tx kv.Tx, name string) (AttributeNamespace, error) {
	ns, err := store.Get[AttributeNamespace](tx, store.BuildAttributeNamespaces, []byte(name))
	if err != nil {
		return ns, store.NotFoundf("Unknown attribute namespace '%s'", name)
	}
	return ns, nil
}

// PutAttributeNamespace creates or replaces a namespace; its definitions stay.
func PutAttributeNamespace(tx kv.Tx, ns AttributeNamespace) error {
	if !ValidAttributeName(ns.Name) {
		return fmt.Errorf("attribute namespace name %q: %w", ns.Name, store.ErrInvalid)
	}
	return store.Put(tx, store.BuildAttributeNamespaces, []byte(ns.Name), ns)
}

// AttributeNamespaces lists every namespace by name.
func AttributeNamespaces(tx kv.Tx) ([]AttributeNamespace, error) {
	var out []AttributeNamespace
	err := store.Each(tx, store.BuildAttributeNamespaces, nil, func(_ []byte, ns AttributeNamespace) (bool, error) {
		out = append(out, ns)
		return true, nil
	})
	return out, err
}

// DeleteAttributeNamespace removes a namespace with its definitions and all their values.
func DeleteAttributeNamespace(tx kv.Tx, name string) error {
	if _, err := GetAttributeNamespace(tx, name); err != nil {
		return err
	}
	defs, err := AttributeDefinitions(tx, name)
	if err != nil {
		return err
	}
	for _, d := range defs {
		if err := DeleteAttributeDefinition(tx, d.Namespace, d.Name); err != nil {
			return err
		}
	}
	return store.Delete(tx, store.BuildAttributeNamespaces, []byte(name))
}

// GetAttributeDefinition returns the definition namespace:name; the not-found message is the
// service's own.
func GetAttributeDefinition(tx kv.Tx, namespace, name string) (AttributeDefinition, error) {
	d, err := store.Get[AttributeDefinition](tx, store.BuildAttributeDefinitions, definitionKey(namespace, name))
	if err != nil {
		return d, store.NotFoundf("Attribute Type %s:%s does not exist", namespace, name)
	}
	return d, nil
}

// PutAttributeDefinition creates or replaces a definition of an existing namespace. Values
// already set stay as they are, even where the new definition would refuse them, as in the
// real service.
func PutAttributeDefinition(tx kv.Tx, d AttributeDefinition) error {
	if !ValidAttributeName(d.Name) {
		return fmt.Errorf("attribute name %q: %w", d.Name, store.ErrInvalid)
	}
	if _, err := GetAttributeNamespace(tx, d.Namespace); err != nil {
		return err
	}
	return store.Put(tx, store.BuildAttributeDefinitions, definitionKey(d.Namespace, d.Name), d)
}

// AttributeDefinitions lists a namespace's definitions by name.
func AttributeDefinitions(tx kv.Tx, namespace string) ([]AttributeDefinition, error) {
	var out []AttributeDefinition
	err := store.Each(tx, store.BuildAttributeDefinitions, []byte(namespace+"\x00"), func(_ []byte, d AttributeDefinition) (bool, error) {
		out = append(out, d)
		return true, nil
	})
	return out, err
}

// DeleteAttributeDefinition removes a definition and every value set for it.
func DeleteAttributeDefinition(tx kv.Tx, namespace, name string) error {
	if _, err := GetAttributeDefinition(tx, namespace, name); err != nil {
		return err
	}
	parent := definitionKey(namespace, name)
	keys, err := store.IndexChildren(tx, store.BuildAttributeDefinitionValues, parent)
	if err != nil {
		return err
	}
	b, err := store.Bucket(tx, store.BuildAttributes)
	if err != nil {
		return err
	}
	for _, k := range keys {
		if err := b.Delete(k); err != nil {
			return err
		}
		if err := store.IndexRemove(tx, store.BuildAttributeDefinitionValues, parent, k); err != nil {
			return err
		}
	}
	return store.Delete(tx, store.BuildAttributeDefinitions, parent)
}

// checkAttribute refuses keys that would be ambiguous: a 0x00 in a component, a binary on a
// project, an empty project, namespace or name.
func checkAttribute(a Attribute) error {
	for _, s := range []string{a.Project, a.Package, a.Binary, a.Namespace, a.Name} {
		if strings.IndexByte(s, 0) >= 0 {
			return fmt.Errorf("attribute %s: a name holds a NUL byte: %w", a.FullName(), store.ErrInvalid)
		}
	}
	if a.Project == "" || a.Namespace == "" || a.Name == "" {
		return fmt.Errorf("attribute %q on %q: project, namespace and name are required: %w", a.FullName(), a.Project, store.ErrInvalid)
	}
	if a.Package == "" && a.Binary != "" {
		return fmt.Errorf("attribute %s: binary packages are not allowed in project attributes: %w", a.FullName(), store.ErrInvalid)
	}
	return nil
}

// GetAttribute returns the attribute namespace:name set on project/pkg/binary (pkg "" for the
// project's own, binary "" for the package's own).
func GetAttribute(tx kv.Tx, project, pkg, binary, namespace, name string) (Attribute, error) {
	a := Attribute{Project: project, Package: pkg, Binary: binary, Namespace: namespace, Name: name}
	if err := checkAttribute(a); err != nil {
		return a, err
	}
	got, err := store.Get[Attribute](tx, store.BuildAttributes, attributeKey(a))
	if err != nil {
		return got, store.NotFoundf("Attribute %s does not exist", a.FullName())
	}
	return got, nil
}

// PutAttribute sets an attribute (replacing its values and issues). Its definition must exist;
// the caller has checked the values against it. The container is not looked up: callers hold
// it already.
func PutAttribute(tx kv.Tx, a Attribute) error {
	if err := checkAttribute(a); err != nil {
		return err
	}
	if _, err := GetAttributeDefinition(tx, a.Namespace, a.Name); err != nil {
		return err
	}
	key := attributeKey(a)
	if err := store.Put(tx, store.BuildAttributes, key, a); err != nil {
		return err
	}
	return store.IndexAdd(tx, store.BuildAttributeDefinitionValues, definitionKey(a.Namespace, a.Name), key)
}

// DeleteAttribute removes one attribute; ErrNotFound when it is not set.
func DeleteAttribute(tx kv.Tx, project, pkg, binary, namespace, name string) error {
	a, err := GetAttribute(tx, project, pkg, binary, namespace, name)
	if err != nil {
		return err
	}
	return deleteAttributeKey(tx, attributeKey(a), a)
}

func deleteAttributeKey(tx kv.Tx, key []byte, a Attribute) error {
	if err := store.Delete(tx, store.BuildAttributes, key); err != nil {
		return err
	}
	return store.IndexRemove(tx, store.BuildAttributeDefinitionValues, definitionKey(a.Namespace, a.Name), key)
}

// Attributes lists the attributes set on a container — the project's own when pkg is "", else
// the package's own and its binaries' — by binary, namespace, name.
func Attributes(tx kv.Tx, project, pkg string) ([]Attribute, error) {
	var out []Attribute
	err := store.Each(tx, store.BuildAttributes, containerPrefix(project, pkg), func(_ []byte, a Attribute) (bool, error) {
		out = append(out, a)
		return true, nil
	})
	return out, err
}

// DeleteAttributes drops the attribute values of a deleted container: with pkg "" the
// project's own and all its packages' (binaries included), else the package's and its
// binaries'. Nothing set is no error. Project and package deletes call it in their
// transaction, so no value outlives its container.
func DeleteAttributes(tx kv.Tx, project, pkg string) error {
	prefix := []byte(project + "\x00")
	if pkg != "" {
		prefix = containerPrefix(project, pkg)
	}
	type doomed struct {
		key []byte
		a   Attribute
	}
	var list []doomed
	err := store.Each(tx, store.BuildAttributes, prefix, func(k []byte, a Attribute) (bool, error) {
		list = append(list, doomed{bytes.Clone(k), a})
		return true, nil
	})
	if err != nil {
		return err
	}
	for _, d := range list {
		if err := deleteAttributeKey(tx, d.key, d.a); err != nil {
			return err
		}
	}
	return nil
}
