package product

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

const tail = "architectures: [x86_64]\npackagesets:\n- packages: [a]\n"

// TestParseBad: every kind of bad definition is an *Error whose text names the line, the
// element and the problem, as the build service shows it for a failed product build.
func TestParseBad(t *testing.T) {
	deep := head + "architectures: [x86_64]\nscc: " + strings.Repeat("[", 20) + strings.Repeat("]", 20) + "\npackagesets:\n- packages: [a]\n"
	many := head + "architectures: [x86_64]\npackagesets:\n- packages: [" + strings.Repeat("a,", MaxPackages) + "b]\n"
	for _, c := range []struct{ name, src, want string }{
		{"empty", "", "the file is empty"},
		{"only a comment", "# nothing\n", "the file is empty"},
		{"not YAML", "name: [unclosed\nversion: 1\n", "line 1: not valid YAML: did not find expected ',' or ']'"},
		{"tabs", "name:\n\t- x\n", "line 2: not valid YAML: found character that cannot start any token"},
		{"XML", "<?xml version=\"1.0\"?>\n<productdefinition/>\n", "this is XML (a kiwi or _product description?); a product definition is productcompose YAML"},
		{"kiwi", "  <image schemaversion=\"6.8\" name=\"Pocket\"/>", "this is XML"},
		{"a list", "- a\n- b\n", "line 1: not a productcompose definition: the top level is a list, not a mapping of keys"},
		{"a value", "Pocket 1.0\n", "line 1: not a productcompose definition: the top level is a single value"},
		{"two documents", head + tail + "---\nname: other\n", "line 8: a second YAML document starts here; a definition is one document"},
		{"not UTF-8", head + "summary: caf\xe9\n" + tail, "line 5: the file is not UTF-8 text"},
		{"missing schema", "vendor: P\nname: P\nversion: 1\n" + tail, "product_compose_schema: missing: give the productcompose schema version, 0.1 or 0.2"},
		{"bad schema", strings.Replace(head, "0.2", "0.3", 1) + tail, `line 1: product_compose_schema: unsupported schema version "0.3": product-composer reads 0.1 and 0.2`},
		{"missing vendor", strings.Replace(head, "vendor: Pocket\n", "", 1) + tail, "vendor: missing: the SBOM names the vendor"},
		{"missing name", strings.Replace(head, "name: Pocket\n", "", 1) + tail, "name: missing: every product needs a name"},
		{"missing version", strings.Replace(head, "version: 1.0\n", "", 1) + tail, "version: missing: every product needs a version"},
		{"empty version", strings.Replace(head, "version: 1.0", "version:", 1) + tail, "line 4: version: is empty"},
		{"version with -", strings.Replace(head, "1.0", "1.0-2", 1) + tail, `line 4: version: "1.0-2" is not a valid version: "-" is not allowed`},
		{"version without a digit", strings.Replace(head, "1.0", "Tumbleweed", 1) + tail, `line 4: version: "Tumbleweed" must start with a digit`},
		{"version_from_package", head + "version_from_package: pocket-release\n" + tail, "line 5: version_from_package: version_from_package is not supported: give the version"},
		{"missing architectures", head + "packagesets:\n- packages: [a]\n", "architectures: missing: list the architectures"},
		{"empty architectures", head + "architectures: []\npackagesets:\n- packages: [a]\n", "line 5: architectures: is empty"},
		{"architectures not a list", head + "architectures: x86_64\npackagesets:\n- packages: [a]\n", "line 5: architectures: must be a list, not a single value"},
		{"unknown arch", head + "architectures: [x86_64, amd64]\npackagesets:\n- packages: [a]\n", `line 5: architectures[1]: unknown architecture "amd64"`},
		{"noarch", head + "architectures: [noarch]\npackagesets:\n- packages: [a]\n", "architectures[0]: noarch is not a product architecture"},
		{"arch twice", head + "architectures: [x86_64, x86_64]\npackagesets:\n- packages: [a]\n", "line 5: architectures[1]: x86_64 is listed twice"},
		{"too many arches", head + "architectures: [" + strings.Repeat("x86_64, ", MaxArchitectures) + "aarch64]\n", "architectures: lists 17 architectures; at most 16 are allowed"},
		{"missing packagesets", head + "architectures: [x86_64]\n", "packagesets: missing"},
		{"top-level packages", head + "architectures: [x86_64]\npackages: [a]\n", "line 6: packages: a top-level packages list is ignored by product-composer: put the packages in a package set"},
		{"flavors", head + tail + "flavors:\n  small: {}\n", "line 8: flavors: flavors are not supported: the farm builds the product once for each of its architectures"},
		{"unknown key", head + "architecture: [x86_64]\n" + tail, `line 5: unknown key "architecture"`},
		{"key twice", head + "name: Other\n" + tail, "line 5: name: given twice (first on line 3)"},
		{"key not a name", head + "[a]: b\n" + tail, "line 5: a key must be a plain name, not a list"},
		{"name a list", strings.Replace(head, "name: Pocket", "name: [Pocket]", 1) + tail, "line 3: name: must be a single value, not a list"},
		{"name with space", strings.Replace(head, "name: Pocket", "name: Pocket OS", 1) + tail, `line 3: name: "Pocket OS" is not a valid product name: " " is not allowed`},
		{"name with --", strings.Replace(head, "name: Pocket", "name: Pocket--OS", 1) + tail, "has an empty part"},
		{"name with slash", strings.Replace(head, "name: Pocket", "name: ../../etc", 1) + tail, `"/" is not allowed`},
		{"long name", strings.Replace(head, "name: Pocket", "name: "+strings.Repeat("P", 101), 1) + tail, "is longer than 100 bytes"},
		{"vendor with a newline", strings.Replace(head, "vendor: Pocket", `vendor: "Pocket\nInc"`, 1) + tail, `line 2: vendor: "Pocket\nInc" holds the character U+000A, which is not printable`},
		{"vendor with an escape", strings.Replace(head, "vendor: Pocket", `vendor: "Pocket\e[31m"`, 1) + tail, "U+001B, which is not printable"},
		{"long summary", head + "summary: " + strings.Repeat("s", MaxTextLen+1) + "\n" + tail, "line 5: summary: longer than 1000 bytes"},
		{"bad product type", head + "product-type: os\n" + tail, `line 5: product-type: "os" is not base, module or extension`},
		{"bad milestone", head + "milestone: Beta 1\n" + tail, `line 5: milestone: "Beta 1" is not a valid milestone`},
		{"packagesets not a list", head + "architectures: [x86_64]\npackagesets: {packages: [a]}\n", "line 6: packagesets: must be a list, not a mapping"},
		{"set not a mapping", head + "architectures: [x86_64]\npackagesets:\n- a\n", "line 7: packagesets[0]: a package set must be a mapping"},
		{"no packages", head + "architectures: [x86_64]\npackagesets:\n- packages: []\n", "packagesets: the product ships no packages on x86_64"},
		{"no packages on one arch", head + "architectures: [x86_64, aarch64]\npackagesets:\n- architectures: [x86_64]\n  packages: [a]\n", "packagesets: the product ships no packages on aarch64"},
		{"no main set", head + "architectures: [x86_64]\npackagesets:\n- name: base\n  packages: [a]\n", `content: package set "main" does not exist: name one package set main`},
		{"duplicate package", head + "architectures: [x86_64]\npackagesets:\n- packages:\n  - pocket-base\n  - pocket-cli\n  - pocket-base\n", "line 10: packagesets[0].packages[2]: pocket-base is listed twice (first on line 8)"},
		{"duplicate package with versions", head + "architectures: [x86_64]\npackagesets:\n- packages: [a > 1, a < 2]\n", "a is listed twice"},
		{"two constraints", head + "architectures: [x86_64]\npackagesets:\n- packages: [a > 1]\n  add: [b]\n- name: b\n  packages: [a > 2]\n", "line 10: packagesets[1].packages[0]: a is also listed with another version constraint on line 7; give one"},
		{"bad package name", head + "architectures: [x86_64]\npackagesets:\n- packages: [-rf]\n", `line 7: packagesets[0].packages[0]: "-rf" is not a valid package name: it must start with a letter or digit`},
		{"package name with a slash", head + "architectures: [x86_64]\npackagesets:\n- packages: [../x]\n", "not a valid package name"},
		{"package name with unicode", head + "architectures: [x86_64]\npackagesets:\n- packages: [pockét]\n", `"pockét" is not a valid package name: the byte 0xc3 is not allowed`},
		{"package a mapping", head + "architectures: [x86_64]\npackagesets:\n- packages: [{name: a}]\n", "packagesets[0].packages[0]: must be a single value, not a mapping"},
		{"long package name", head + "architectures: [x86_64]\npackagesets:\n- packages: [" + strings.Repeat("a", MaxNameLen+1) + "]\n", "is longer than 200 bytes"},
		{"bad constraint", head + "architectures: [x86_64]\npackagesets:\n- packages: [a >= ]\n", "a: the version is empty"},
		{"bad op", head + "architectures: [x86_64]\npackagesets:\n- packages: [a => 1]\n", `a: ">1" is not a valid version: ">" is not allowed`},
		{"bad epoch", head + "architectures: [x86_64]\npackagesets:\n- packages: [a > x:1]\n", "the epoch must be a number"},
		{"bad release", head + "architectures: [x86_64]\npackagesets:\n- packages: [a > 1-2-3]\n", `"1-2-3" is not [epoch:]version[-release]`},
		{"unknown set key", head + "architectures: [x86_64]\npackagesets:\n- packages: [a]\n  package: [b]\n", `line 8: packagesets[0]: unknown package set key "package"`},
		{"set flavors", head + "architectures: [x86_64]\npackagesets:\n- packages: [a]\n  flavors: [dvd]\n", "line 8: packagesets[0].flavors: flavors are not supported"},
		{"sub", head + "architectures: [x86_64]\npackagesets:\n- packages: [a]\n  sub: [b]\n", "packagesets[0].sub: sub is not supported"},
		{"__all__", head + "architectures: [x86_64]\npackagesets:\n- packages: [a]\n  add: [__all__]\n", "line 8: packagesets[0].add[0]: the __all__ package set (every package available) is not supported"},
		{"override", head + "architectures: [x86_64]\npackagesets:\n- packages: [a]\n  add: [b architecture=aarch64]\n", "set names with architecture= or flavor= overrides are not supported"},
		{"unknown set", head + "architectures: [x86_64]\npackagesets:\n- packages: [a]\n  add: [b]\n", `line 8: packagesets[0].add[0]: package set "b" does not exist`},
		{"unknown content set", head + "architectures: [x86_64]\ncontent: [base]\npackagesets:\n- packages: [a]\n", `line 6: content[0]: package set "base" does not exist`},
		{"cycle", head + "architectures: [x86_64]\npackagesets:\n- packages: [a]\n  add: [b]\n- name: b\n  add: [c]\n- name: c\n  add: [b]\n", `line 12: packagesets[2].add[0]: package set "b" includes itself (main → b → c → b)`},
		{"set defined twice", head + "architectures: [x86_64]\npackagesets:\n- packages: [a]\n- packages: [b]\n", `line 8: packagesets[1]: package set "main" is already defined for x86_64 on line 7`},
		{"empty set architectures", head + "architectures: [x86_64]\npackagesets:\n- packages: [a]\n  architectures: []\n", "packagesets[0].architectures: is empty"},
		{"repository without /", head + "repositories: [Pocket:1.0]\n" + tail, `line 5: repositories[0]: "Pocket:1.0" is not project/repository (as Pocket:1.0/standard)`},
		{"repository with two /", head + "repositories: [a/b/c]\n" + tail, "is not project/repository"},
		{"bad project", head + "repositories: [\":x/standard\"]\n" + tail, `":x" is not a valid project name`},
		{"project with ::", head + "repositories: [\"a::b/standard\"]\n" + tail, `"a::b" is not a valid project name`},
		{"bad repository", head + "repositories: [\"Pocket:1.0/_x\"]\n" + tail, `"_x" is not a valid repository name`},
		{"repository with a space", head + "repositories: [\"Pocket:1.0/open SUSE\"]\n" + tail, `" " is not allowed`},
		{"repository twice", head + "repositories: [a/b, a/b]\n" + tail, "line 5: repositories[1]: a/b is listed twice"},
		{"deep nesting", deep, "nested deeper than 8 levels"},
		{"alias", head + "architectures: &a [x86_64]\npackagesets:\n- packages: *a\n", "line 5: YAML anchors (&a) are not supported"},
		{"merge key", head + tail + "iso: {<<: {a: 1}}\n", "YAML merge keys (<<) are not supported"},
		{"too many packages", many, "the package sets list more than 10000 packages"},
		{"too large", head + tail + "# " + strings.Repeat("x", MaxSize) + "\n", "the definition is larger than 262144 bytes"},
		{"bidi override in a name", head + "architectures: [x86_64]\npackagesets:\n- packages: [\"a\u202eb\"]\n", `"a\u202eb" is not a valid package name: the byte 0xe2 is not allowed`},
		{"hostile name cut in messages", head + "architectures: [x86_64]\npackagesets:\n- packages: [\"a\u202e" + strings.Repeat("b", 300) + "\"]\n", `"a\u202ebbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"… is longer than 200 bytes`},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, err := Parse(strings.NewReader(c.src))
			if err == nil {
				t.Fatalf("parsed %+v", d)
			}
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("%v is a %T", err, err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q\nwant it to contain %q", err, c.want)
			}
			if len(err.Error()) > 400 {
				t.Errorf("error is %d bytes long", len(err.Error()))
			}
		})
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, fmt.Errorf("disk on fire") }

// TestParseReaderError: a failing reader is the reader's error, not the definition's.
func TestParseReaderError(t *testing.T) {
	_, err := Parse(io.MultiReader(strings.NewReader(head), failingReader{}))
	var pe *Error
	if err == nil || errors.As(err, &pe) || !strings.Contains(err.Error(), "disk on fire") {
		t.Fatalf("got %v", err)
	}
}
