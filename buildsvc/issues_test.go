package buildsvc

import (
	"reflect"
	"testing"

	"github.com/pocketforge/pocketforge/store/buildstore"
)

// TestPackageKinds: OBS's package kinds, each once, in the order of the files making them.
func TestPackageKinds(t *testing.T) {
	files := []buildstore.FileEntry{{Name: "Pocket.product"}, {Name: "_aggregate"}, {Name: "_link"}, {Name: "_patchinfo"}, {Name: "x.product"}, {Name: "a.spec"}}
	if got, want := packageKinds(files), []string{"product", "aggregate", "link", "patchinfo"}; !reflect.DeepEqual(got, want) {
		t.Errorf("%v, want %v", got, want)
	}
}
