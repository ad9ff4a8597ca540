package buildstore

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

func openAttributes(t *testing.T) *store.DB {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "d.db"), store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	err = db.Write(func(tx kv.Tx) error {
		for _, ns := range []string{"OBS", "Pocket"} {
			if err := PutAttributeNamespace(tx, AttributeNamespace{Name: ns}); err != nil {
				return err
			}
		}
		for _, d := range []AttributeDefinition{{Namespace: "OBS", Name: "Maintained"}, {Namespace: "OBS", Name: "Issues"},
			{Namespace: "Pocket", Name: "Tier"}} {
			if err := PutAttributeDefinition(tx, d); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// attributesOf lists what is set on a container as "binary/ns:name=values".
func attributesOf(t *testing.T, db *store.DB, project, pkg string) string {
	t.Helper()
	var out []string
	db.View(func(tx kv.Tx) error {
		list, err := Attributes(tx, project, pkg)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range list {
			out = append(out, a.Binary+"/"+a.FullName()+"="+strings.Join(a.Values, ","))
		}
		return nil
	})
	return strings.Join(out, " ")
}

// indexSize counts the definition→values index entries, which every delete must clean.
func indexSize(db *store.DB) int {
	n := 0
	db.View(func(tx kv.Tx) error {
		n = tx.Bucket([]byte(store.BuildAttributeDefinitionValues)).KeyN()
		return nil
	})
	return n
}

func putAttributes(t *testing.T, db *store.DB, list ...Attribute) {
	t.Helper()
	if err := db.Write(func(tx kv.Tx) error {
		for _, a := range list {
			if err := PutAttribute(tx, a); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// TestAttributeContainers: a project's own, a package's own and its binaries' are kept apart,
// and prefixes never mix projects "a" and "a:b" or packages "x" and "xy".
func TestAttributeContainers(t *testing.T) {
	db := openAttributes(t)
	putAttributes(t, db,
		Attribute{Project: "a", Namespace: "OBS", Name: "Maintained"},
		Attribute{Project: "a", Package: "x", Namespace: "OBS", Name: "Maintained"},
		Attribute{Project: "a", Package: "x", Binary: "x-doc", Namespace: "Pocket", Name: "Tier", Values: []string{"1"}},
		Attribute{Project: "a", Package: "xy", Namespace: "Pocket", Name: "Tier", Values: []string{"2"}},
		Attribute{Project: "a:b", Namespace: "OBS", Name: "Issues", Values: []string{"i"}},
	)
	cases := []struct{ project, pkg, want string }{
		{"a", "", "/OBS:Maintained="},
		{"a", "x", "/OBS:Maintained= x-doc/Pocket:Tier=1"},
		{"a", "xy", "/Pocket:Tier=2"},
		{"a:b", "", "/OBS:Issues=i"},
		{"b", "", ""},
	}
	for _, c := range cases {
		t.Run(c.project+"/"+c.pkg, func(t *testing.T) {
			if got := attributesOf(t, db, c.project, c.pkg); got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
	// Replacing keeps one record.
	putAttributes(t, db, Attribute{Project: "a", Package: "xy", Namespace: "Pocket", Name: "Tier", Values: []string{"3"}})
	if got := attributesOf(t, db, "a", "xy"); got != "/Pocket:Tier=3" {
		t.Fatalf("after replace: %q", got)
	}
	// A package's delete leaves its neighbour and the project; the project's takes the rest.
	db.Write(func(tx kv.Tx) error { return DeleteAttributes(tx, "a", "x") })
	if got := attributesOf(t, db, "a", "x") + "|" + attributesOf(t, db, "a", "xy") + "|" + attributesOf(t, db, "a", ""); got != "|/Pocket:Tier=3|/OBS:Maintained=" {
		t.Fatalf("after package delete: %q", got)
	}
	db.Write(func(tx kv.Tx) error { return DeleteAttributes(tx, "a", "") })
	if got := attributesOf(t, db, "a", "xy") + "|" + attributesOf(t, db, "a", "") + "|" + attributesOf(t, db, "a:b", ""); got != "||/OBS:Issues=i" {
		t.Fatalf("after project delete: %q", got)
	}
	if n := indexSize(db); n != 1 {
		t.Fatalf("index keeps %d entries, want 1", n)
	}
	if err := db.Write(func(tx kv.Tx) error { return DeleteAttributes(tx, "nothing", "") }); err != nil {
		t.Fatalf("deleting nothing: %v", err)
	}
}

// TestAttributeDefinitionDeletes: a definition's delete takes its values everywhere; a
// namespace's takes its definitions and theirs; others stay.
func TestAttributeDefinitionDeletes(t *testing.T) {
	db := openAttributes(t)
	putAttributes(t, db,
		Attribute{Project: "a", Namespace: "OBS", Name: "Maintained"},
		Attribute{Project: "b", Package: "k", Binary: "bin", Namespace: "OBS", Name: "Maintained"},
		Attribute{Project: "a", Namespace: "OBS", Name: "Issues"},
		Attribute{Project: "a", Namespace: "Pocket", Name: "Tier"},
	)
	err := db.Write(func(tx kv.Tx) error { return DeleteAttributeDefinition(tx, "OBS", "Maintained") })
	if err != nil {
		t.Fatal(err)
	}
	if got := attributesOf(t, db, "a", "") + "|" + attributesOf(t, db, "b", "k"); got != "/OBS:Issues= /Pocket:Tier=|" {
		t.Fatalf("after definition delete: %q", got)
	}
	err = db.Write(func(tx kv.Tx) error { return DeleteAttributeNamespace(tx, "OBS") })
	if err != nil {
		t.Fatal(err)
	}
	if got := attributesOf(t, db, "a", ""); got != "/Pocket:Tier=" {
		t.Fatalf("after namespace delete: %q", got)
	}
	db.View(func(tx kv.Tx) error {
		if defs, _ := AttributeDefinitions(tx, "OBS"); len(defs) != 0 {
			t.Errorf("definitions left: %v", defs)
		}
		if _, err := GetAttributeNamespace(tx, "OBS"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("namespace: %v", err)
		}
		if err := DeleteAttributeNamespace(tx, "OBS"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("second delete: %v", err)
		}
		return nil
	})
	if n := indexSize(db); n != 1 {
		t.Fatalf("index keeps %d entries, want 1", n)
	}
	// A definition made again under the old name does not bring old values back.
	db.Write(func(tx kv.Tx) error {
		PutAttributeNamespace(tx, AttributeNamespace{Name: "OBS"})
		return PutAttributeDefinition(tx, AttributeDefinition{Namespace: "OBS", Name: "Maintained"})
	})
	if got := attributesOf(t, db, "b", "k"); got != "" {
		t.Fatalf("values came back: %q", got)
	}
}

// TestAttributeRules: what the store itself refuses.
func TestAttributeRules(t *testing.T) {
	db := openAttributes(t)
	cases := []struct {
		name string
		fn   func(tx kv.Tx) error
		want error
	}{
		{"value without definition", func(tx kv.Tx) error {
			return PutAttribute(tx, Attribute{Project: "a", Namespace: "OBS", Name: "Nope"})
		}, store.ErrNotFound},
		{"binary on a project", func(tx kv.Tx) error {
			return PutAttribute(tx, Attribute{Project: "a", Binary: "b", Namespace: "OBS", Name: "Maintained"})
		}, store.ErrInvalid},
		{"NUL in a name", func(tx kv.Tx) error {
			return PutAttribute(tx, Attribute{Project: "a", Package: "k\x00", Namespace: "OBS", Name: "Maintained"})
		}, store.ErrInvalid},
		{"no project", func(tx kv.Tx) error {
			return PutAttribute(tx, Attribute{Namespace: "OBS", Name: "Maintained"})
		}, store.ErrInvalid},
		{"definition without namespace", func(tx kv.Tx) error {
			return PutAttributeDefinition(tx, AttributeDefinition{Namespace: "Nope", Name: "X"})
		}, store.ErrNotFound},
		{"bad definition name", func(tx kv.Tx) error {
			return PutAttributeDefinition(tx, AttributeDefinition{Namespace: "OBS", Name: "a:b"})
		}, store.ErrInvalid},
		{"bad namespace name", func(tx kv.Tx) error { return PutAttributeNamespace(tx, AttributeNamespace{Name: ""}) }, store.ErrInvalid},
		{"delete unset", func(tx kv.Tx) error { return DeleteAttribute(tx, "a", "", "", "OBS", "Maintained") }, store.ErrNotFound},
		{"delete unknown definition", func(tx kv.Tx) error { return DeleteAttributeDefinition(tx, "OBS", "Nope") }, store.ErrNotFound},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := db.Write(c.fn)
			if !errors.Is(err, c.want) {
				t.Fatalf("got %v, want %v", err, c.want)
			}
		})
	}
}

func TestAttributeNames(t *testing.T) {
	for name, want := range map[string]bool{
		"OBS": true, "QualityCategory": true, "_x": true, "a.b-c+d": true, strings.Repeat("a", MaxNameLength): true,
		"": false, "a:b": false, "-a": false, ".a": false, "a b": false, "a\x00": false, strings.Repeat("a", MaxNameLength+1): false,
	} {
		if got := ValidAttributeName(name); got != want {
			t.Errorf("ValidAttributeName(%q) = %v", name, got)
		}
	}
	for name, want := range map[string]bool{
		"pocket-cli-doc": true, "pocket-cli-1.0-1.1.x86_64.rpm": true, "a~b^c": true,
		"": false, ".": false, "..": false, "a/b": false, "a\tb": false, "a\x7f": false, strings.Repeat("b", MaxNameLength+1): false,
	} {
		if got := ValidBinaryName(name); got != want {
			t.Errorf("ValidBinaryName(%q) = %v", name, got)
		}
	}
	if got := fmt.Sprint(AttributeDefinition{Namespace: "OBS", Name: "Maintained"}.FullName()); got != "OBS:Maintained" {
		t.Errorf("FullName %q", got)
	}
}
