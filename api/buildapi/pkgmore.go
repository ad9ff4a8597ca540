package buildapi

import (
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"go.etcd.io/bbolt"
)

// The remaining package commands: linkdiff (what a link changes against its target),
// createSpecFileTemplate, and those that need the build farm or the source-service runner,
// which are refused with a sentence saying so (needsFarm, projlife.go).

// packageFarmCommands are the package commands that work on built binaries, channels or
// maintenance updates, with what each does.
var packageFarmCommands = map[string]string{
	"release":         "copies built binaries into the release targets",
	"rebuild":         "rebuilds the package's binaries",
	"wipe":            "deletes the package's built binaries",
	"instantiate":     "creates a package inherited through a project link for a maintenance update",
	"collectbuildenv": "collects the build environments of another package's builds",
	"importchannel":   "imports a channel file into repositories of the build farm",
	"enablechannel":   "enables a channel package and its repositories",
	"updatepatchinfo": "updates a patchinfo of a maintenance update",
}

// farmPackageCmd refuses a build-farm command after the usual checks (missing package,
// permission), so the user learns those first.
func (a *api) farmPackageCmd(c *fiber.Ctx, cmd string) error {
	project, pkg, who := pathParam(c, "project"), pathParam(c, "package"), personOf(c)
	err := a.Store.View(func(tx *bbolt.Tx) error {
		return buildsvc.Writable(tx, who, project, pkg, "cmd_execution_no_permission")
	})
	if err != nil {
		return err
	}
	return needsFarm(cmd, packageFarmCommands[cmd])
}

// linkDiff answers cmd=linkdiff: the unified diff from the link's target tree to the link's
// expansion, i.e. what the link changes (empty for a package that is not a link).
func (a *api) linkDiff(c *fiber.Ctx) error {
	project, pkg, who := pathParam(c, "project"), pathParam(c, "package"), personOf(c)
	var text string
	err := a.Store.View(func(tx *bbolt.Tx) error {
		if _, _, err := buildsvc.LookupPackage(tx, project, pkg); err != nil {
			return err
		}
		unexpanded, err := buildsvc.ReadView(tx, who, project, pkg, c.Query("rev"), false, c.Query("linkrev"))
		if err != nil || unexpanded.Link == nil {
			return err
		}
		if unexpanded.Link.Error != "" {
			return buildsvc.LinkError(unexpanded.Link.Error)
		}
		expanded, err := buildsvc.ReadView(tx, who, project, pkg, c.Query("rev"), true, c.Query("linkrev"))
		if err != nil {
			return err
		}
		l := unexpanded.Link
		target, found, err := buildstore.ResolveRevision(tx, l.Project, l.Package, l.SrcMD5)
		if err != nil {
			return err
		}
		if !found {
			target = buildstore.Revision{SrcMD5: buildstore.EmptySrcMD5}
		}
		text, err = sourceDiff(tx, buildsvc.SourceView{Tree: target}, expanded)
		return err
	})
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "text/plain; charset=utf-8")
	return c.SendString(text)
}

// specTemplate is the spec file createSpecFileTemplate commits; %{name} keeps it right
// whatever the package is called.
const specTemplate = `#
# spec file for package @NAME@
#
# Please submit bugfixes or comments via the issue tracker of this build service.
#

Name:           @NAME@
Version:        0
Release:        0
Summary:        @NAME@
License:        MIT
URL:            https://example.org/%{name}
Source0:        %{name}-%{version}.tar.gz
BuildRequires:  gcc
BuildRequires:  make

%description
Describe %{name} here.

%prep
%autosetup

%build
%configure
%make_build

%install
%make_install

%files
%license COPYING
%doc README

%changelog
`

// createSpecFileTemplate commits <package>.spec from a template; a package that has one
// already is refused, as the service does.
func (a *api) createSpecFileTemplate(c *fiber.Ctx) error {
	project, pkg, who := pathParam(c, "project"), pathParam(c, "package"), personOf(c)
	comment := strings.Clone(c.Query("comment"))
	if comment == "" {
		comment = "created spec file template"
	}
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		if err := buildsvc.Writable(tx, who, project, pkg, "cmd_execution_no_permission"); err != nil {
			return err
		}
		files, err := buildsvc.LatestFiles(tx, project, pkg)
		if err != nil {
			return err
		}
		if _, exists := (buildstore.Revision{Files: files}).File(pkg + ".spec"); exists {
			return buildsvc.BadRequest("spec_file_exists", "SPEC file already exists.")
		}
		sum, err := buildstore.PutBlob(tx, []byte(strings.ReplaceAll(specTemplate, "@NAME@", pkg)))
		if err != nil {
			return err
		}
		_, err = buildstore.Commit(tx, project, pkg, append(files, buildstore.FileEntry{Name: pkg + ".spec", MD5: sum}), who.Login, comment, a.Clock.Now())
		return err
	})
	if err != nil {
		return err
	}
	return sendOK(c)
}
