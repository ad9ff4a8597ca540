package farm

import (
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// TestFarmFlagsInThePass: the build flags of the project's and the package's metas decide, per
// repository and arch, which statuses a pass marks disabled (FlagEnabled's resolution, through
// the scheduler), and a disabled package starts no job.
func TestFarmFlagsInThePass(t *testing.T) {
	disable := func(repo, arch string) buildstore.Flag {
		return buildstore.Flag{Name: "build", Status: "disable", Repository: repo, Arch: arch}
	}
	enable := func(repo, arch string) buildstore.Flag {
		return buildstore.Flag{Name: "build", Status: "enable", Repository: repo, Arch: arch}
	}
	cases := []struct {
		name         string
		project, pkg []buildstore.Flag
		x86, aarch64 string // the package's code in each arch after the first tick
	}{
		{"no flags", nil, nil, "building", "building"},
		{"the package disables aarch64", nil, []buildstore.Flag{disable("", "aarch64")}, "building", "disabled"},
		{"the project disables everything", []buildstore.Flag{disable("", "")}, nil, "disabled", "disabled"},
		{"the package enables over the project", []buildstore.Flag{disable("", "")}, []buildstore.Flag{enable("", "")}, "building", "building"},
		{"the package enables one arch over the project", []buildstore.Flag{disable("", "")}, []buildstore.Flag{enable("", "x86_64")}, "building", "disabled"},
		{"the repository outweighs the arch", nil, []buildstore.Flag{disable("", "x86_64"), enable("standard", "")}, "building", "building"},
		{"another repository's entry does not apply", nil, []buildstore.Flag{disable("other", "")}, "building", "building"},
		{"a publish flag does not disable building", []buildstore.Flag{{Name: "publish", Status: "disable"}}, nil, "building", "building"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFarmWorld(t, "x86_64", "aarch64")
			f.write(func(tx kv.Tx) error {
				p, err := buildstore.GetProject(tx, "dev")
				if err != nil {
					return err
				}
				p.Flags = c.project
				if err := buildstore.PutProject(tx, p); err != nil {
					return err
				}
				return buildstore.PutPackage(tx, buildstore.Package{Project: "dev", Name: "app", Flags: c.pkg})
			})
			f.commit("app", spec("app", ""))
			f.tick()
			for arch, want := range map[string]string{"x86_64": c.x86, "aarch64": c.aarch64} {
				got := f.codes(arch)
				if code, _, _ := strings.Cut(strings.TrimPrefix(got, "app:"), " "); code != want {
					t.Errorf("%s: %s, want app:%s", arch, got, want)
				}
			}
		})
	}
}
