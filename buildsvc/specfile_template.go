package buildsvc

import (
	"strings"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// specTemplate is the spec file CreateSpecFileTemplate commits; %{name} keeps it right
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

// DefaultSpecTemplateComment is the comment of a template commit that names none.
const DefaultSpecTemplateComment = "created spec file template"

// CreateSpecFileTemplate commits <package>.spec from a template (cmd=createSpecFileTemplate);
// a package that has one already is refused, as the service does.
func (s *Service) CreateSpecFileTemplate(who buildstore.Person, project, pkg, comment string) error {
	if comment == "" {
		comment = DefaultSpecTemplateComment
	}
	return s.db.Write(func(tx kv.Tx) error {
		if err := Writable(tx, who, project, pkg, "cmd_execution_no_permission"); err != nil {
			return err
		}
		files, err := LatestFiles(tx, project, pkg)
		if err != nil {
			return err
		}
		if _, exists := (buildstore.Revision{Files: files}).File(pkg + ".spec"); exists {
			return BadRequest("spec_file_exists", "SPEC file already exists.")
		}
		sum, err := buildstore.PutBlob(tx, []byte(strings.ReplaceAll(specTemplate, "@NAME@", pkg)))
		if err != nil {
			return err
		}
		files = append(files, buildstore.FileEntry{Name: pkg + ".spec", MD5: sum})
		_, err = CommitTree(tx, project, pkg, files, who.Login, s.clk.Now(), CommitOptions{Comment: comment})
		return err
	})
}
