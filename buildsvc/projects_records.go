package buildsvc

import (
	"slices"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The lock and flag commands (POST /source/P[/K]?cmd=lock|unlock|set_flag|remove_flag) and the
// project build configuration (/source/P/_config). Every one is a maintainer's (or Admin's)
// edit of the project or package record, so both records share one RecordCmd.

// FlagNames are the flags set_flag and remove_flag take: the meta's flag blocks.
var FlagNames = []string{"build", "publish", "debuginfo", "useforbuild", "binarydownload", "sourceaccess", "access"}

// RecordCmd is a checked lock or flag command, ready to run on a project or a package.
type RecordCmd struct {
	// Cmd is lock, unlock, set_flag or remove_flag.
	Cmd string
	// Flag is the flag set_flag sets (with its Status) or remove_flag removes (no Status).
	Flag buildstore.Flag
	// Comment is the command's comment (unlock needs one; a package's meta history keeps it).
	Comment string
}

// IsRecordCmd reports whether cmd is a lock or flag command.
func IsRecordCmd(cmd string) bool {
	return cmd == "lock" || cmd == "unlock" || cmd == "set_flag" || cmd == "remove_flag"
}

// NewRecordCmd checks a lock or flag command before any lookup, so a bad flag is a 400 whoever
// asks: unlock needs a comment; the flag commands a known flag, set_flag a status of enable or
// disable, and a named architecture must be known (the service answers invalid_flag).
// remove_flag ignores f.Status.
func NewRecordCmd(cmd, comment string, f buildstore.Flag) (RecordCmd, error) {
	rc := RecordCmd{Cmd: cmd, Comment: comment}
	switch cmd {
	case "unlock":
		if comment == "" {
			return rc, BadRequest("missing_parameter", "unlock needs a comment")
		}
	case "set_flag", "remove_flag":
		if !slices.Contains(FlagNames, f.Name) {
			return rc, BadRequest("invalid_flag", "Error: unknown flag type '%s' not found.", f.Name)
		}
		if cmd == "remove_flag" {
			f.Status = ""
		} else if f.Status != "enable" && f.Status != "disable" {
			return rc, BadRequest("invalid_flag", "Error: unknown status for flag '%s'", f.Status)
		}
		if f.Arch != "" && !slices.Contains(Architectures, f.Arch) {
			return rc, BadRequest("invalid_flag", "Error: unknown architecture '%s'", f.Arch)
		}
		rc.Flag = f
	}
	return rc, nil
}

// apply changes a record's lock and flags in place; the caller stores the record. A locked
// record takes no flag change (unlock it first).
func (rc RecordCmd) apply(locked *bool, flags *[]buildstore.Flag) error {
	switch rc.Cmd {
	case "lock":
		*locked = true
	case "unlock":
		*locked = false
	default:
		if *locked {
			return Forbidden("project_locked", "The target project is locked")
		}
		if rc.Flag.Status == "" {
			*flags = buildstore.RemoveFlag(*flags, rc.Flag)
		} else {
			*flags = buildstore.SetFlag(*flags, rc.Flag)
		}
	}
	return nil
}

// EditProject runs a lock or flag command on the project record, for a maintainer or Admin.
func (s *Service) EditProject(who buildstore.Person, name string, rc RecordCmd) error {
	return s.db.Write(func(tx kv.Tx) error {
		p, err := MaintainedProject(tx, who, name, rc.Cmd, false)
		if err != nil {
			return err
		}
		if err := rc.apply(&p.Locked, &p.Flags); err != nil {
			return err
		}
		if err := touchProject(tx, name, s.clk.Now()); err != nil { // latest_updated (statistics.go)
			return err
		}
		return buildstore.PutProject(tx, p)
	})
}

// EditPackage runs a lock or flag command on a package, for a maintainer of the project or
// package, or Admin. A locked project locks its packages too. The change enters the package's
// meta history with the command's comment.
func (s *Service) EditPackage(who buildstore.Person, project, name string, rc RecordCmd) error {
	now := s.clk.Now()
	return s.db.Write(func(tx kv.Tx) error {
		p, k, err := LookupPackage(tx, project, name)
		if err != nil {
			return err
		}
		if !Maintains(tx, who, p.Persons, p.Groups) && !Maintains(tx, who, k.Persons, k.Groups) {
			return Forbidden("cmd_execution_no_permission", "no permission to execute command '%s' on package '%s/%s'", rc.Cmd, project, name)
		}
		if p.Locked {
			return Forbidden("project_locked", "The target project is locked")
		}
		if err := rc.apply(&k.Locked, &k.Flags); err != nil {
			return err
		}
		if err := buildstore.PutPackage(tx, k); err != nil {
			return err
		}
		return RecordMeta(tx, k, who.Login, rc.Comment, now)
	})
}

// ProjectConfig is the project's build configuration as text (empty when none was set).
func (s *Service) ProjectConfig(name string) (string, error) {
	var p buildstore.Project
	err := s.db.View(func(tx kv.Tx) (err error) { p, err = buildstore.GetProject(tx, name); return err })
	return p.Config, NotFoundAs(err, "unknown_project")
}

// SetProjectConfig replaces the build configuration, kept as sent (not parsed); its
// maintainers or Admin may, on an unlocked project.
func (s *Service) SetProjectConfig(who buildstore.Person, name, config string) error {
	return s.db.Write(func(tx kv.Tx) error {
		p, err := ProjectOfMaintainer(tx, who, name, true,
			Forbidden("change_project_no_permission", "no permission to change the config of project '%s'", name))
		if err != nil {
			return err
		}
		p.Config = config
		if err := touchProject(tx, name, s.clk.Now()); err != nil { // latest_updated (statistics.go)
			return err
		}
		return buildstore.PutProject(tx, p)
	})
}
