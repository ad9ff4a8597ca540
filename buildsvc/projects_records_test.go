package buildsvc

import (
	"testing"

	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// TestNewRecordCmd: the checks a lock or flag command passes before any lookup, each refusal
// with the service's code.
func TestNewRecordCmd(t *testing.T) {
	for _, c := range []struct {
		name, cmd, comment string
		flag               buildstore.Flag
		code               string // "" when accepted
		want               buildstore.Flag
	}{
		{"lock", "lock", "", buildstore.Flag{}, "", buildstore.Flag{}},
		{"unlock without comment", "unlock", "", buildstore.Flag{}, "missing_parameter", buildstore.Flag{}},
		{"unlock", "unlock", "done", buildstore.Flag{}, "", buildstore.Flag{}},
		{"unknown flag", "set_flag", "", buildstore.Flag{Name: "bogus", Status: "enable"}, "invalid_flag", buildstore.Flag{}},
		{"unknown status", "set_flag", "", buildstore.Flag{Name: "build", Status: "maybe"}, "invalid_flag", buildstore.Flag{}},
		{"unknown arch", "set_flag", "", buildstore.Flag{Name: "build", Status: "disable", Arch: "z80"}, "invalid_flag", buildstore.Flag{}},
		{"set_flag", "set_flag", "", buildstore.Flag{Name: "build", Status: "disable", Repository: "r", Arch: "x86_64"}, "",
			buildstore.Flag{Name: "build", Status: "disable", Repository: "r", Arch: "x86_64"}},
		{"remove_flag ignores a status", "remove_flag", "", buildstore.Flag{Name: "publish", Status: "maybe"}, "", buildstore.Flag{Name: "publish"}},
		{"remove_flag, no flag", "remove_flag", "", buildstore.Flag{}, "invalid_flag", buildstore.Flag{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rc, err := NewRecordCmd(c.cmd, c.comment, c.flag)
			if c.code != "" {
				if f, ok := err.(*fault.Error); !ok || f.Code != c.code {
					t.Fatalf("err %v, want code %s", err, c.code)
				}
				return
			}
			if err != nil || rc.Cmd != c.cmd || rc.Flag != c.want {
				t.Fatalf("got %+v, %v; want flag %+v", rc, err, c.want)
			}
		})
	}
}

// TestRecordCmdApply: lock and unlock set the lock; a flag change on a locked record is
// refused; set_flag replaces an entry, remove_flag drops it.
func TestRecordCmdApply(t *testing.T) {
	locked, flags := false, []buildstore.Flag(nil)
	run := func(cmd, comment string, f buildstore.Flag) error {
		rc, err := NewRecordCmd(cmd, comment, f)
		if err != nil {
			t.Fatal(err)
		}
		return rc.apply(&locked, &flags)
	}
	build := buildstore.Flag{Name: "build", Status: "disable"}
	if err := run("set_flag", "", build); err != nil || len(flags) != 1 {
		t.Fatalf("set_flag: %v %+v", err, flags)
	}
	if err := run("set_flag", "", buildstore.Flag{Name: "build", Status: "enable"}); err != nil || len(flags) != 1 || flags[0].Status != "enable" {
		t.Fatalf("set_flag again: %v %+v", err, flags)
	}
	if err := run("lock", "", buildstore.Flag{}); err != nil || !locked {
		t.Fatalf("lock: %v %v", err, locked)
	}
	if err := run("remove_flag", "", build); err == nil || err.(*fault.Error).Code != "project_locked" {
		t.Fatalf("remove_flag on a locked record: %v", err)
	}
	if err := run("unlock", "x", buildstore.Flag{}); err != nil || locked {
		t.Fatalf("unlock: %v %v", err, locked)
	}
	if err := run("remove_flag", "", build); err != nil || len(flags) != 0 {
		t.Fatalf("remove_flag: %v %+v", err, flags)
	}
}
