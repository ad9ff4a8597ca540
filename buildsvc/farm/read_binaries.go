package farm

import (
	"strings"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/packaging/resolve"
	"github.com/pocketforge/pocketforge/packaging/specfile"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Reading built binaries: a package's binary list, one binary's bytes, its fileinfo (what its
// header says, and with fileinfo_ext what satisfies each of its requirements in the where).
// Source RPMs are sources: they also need source access.

// RepositoryPackage is the pseudo package of the binaries a where offers to builds (OBS's
// :full): everything built there, newest per name, and the binaries an administrator uploaded.
const RepositoryPackage = "_repository"

// binaryNotFound is the backend's answer for a binary name it has no file for.
func binaryNotFound(name string) error {
	return fault.NotFound("404", "%s: No such file or directory", name)
}

// validBinaryName refuses names that are no plain file name of a where (a path, "..", a hidden
// file): they can name no binary, so they are 404 like any other unknown name.
func validBinaryName(name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, "/\\\x00") || strings.HasPrefix(name, ".") {
		return binaryNotFound(name)
	}
	return nil
}

// readablePackageWhere checks w for who and that pkg is a package of the project
// (404 unknown_package otherwise).
func readablePackageWhere(tx kv.Tx, who buildstore.Person, w buildstore.Where, pkg string) error {
	if _, err := buildsvc.ReadableWhere(tx, who, w); err != nil {
		return err
	}
	if _, err := buildstore.GetPackage(tx, w.Project, pkg); err != nil {
		return buildsvc.NotFoundAs(err, "unknown_package")
	}
	return nil
}

// BinaryList answers GET /build/<project>/<repository>/<arch>/<package>: the files the
// package's last successful build left in the where, by file name.
func (s *Farm) BinaryList(who buildstore.Person, w buildstore.Where, pkg string) ([]buildstore.Binary, error) {
	var out []buildstore.Binary
	err := s.db.View(func(tx kv.Tx) error {
		if err := readablePackageWhere(tx, who, w, pkg); err != nil {
			return err
		}
		var err error
		out, err = buildstore.Binaries(tx, w, pkg)
		return err
	})
	return out, err
}

// binaryOf reads one binary of pkg in w for who, checked: a source RPM needs source access.
func binaryOf(tx kv.Tx, who buildstore.Person, w buildstore.Where, pkg, name string) (buildstore.Binary, error) {
	if err := readablePackageWhere(tx, who, w, pkg); err != nil {
		return buildstore.Binary{}, err
	}
	if err := validBinaryName(name); err != nil {
		return buildstore.Binary{}, err
	}
	b, err := buildstore.GetBinary(tx, w, pkg, name)
	if err != nil {
		return b, binaryNotFound(name)
	}
	if b.Arch == "src" || b.Arch == "nosrc" {
		if err := buildsvc.SourcesReadable(tx, who, w.Project, pkg); err != nil {
			return b, err
		}
	}
	return b, nil
}

// BinaryFile answers GET /build/<project>/<repository>/<arch>/<package>/<binary>: the binary's
// record and a copy of its bytes.
func (s *Farm) BinaryFile(who buildstore.Person, w buildstore.Where, pkg, name string) (buildstore.Binary, []byte, error) {
	var b buildstore.Binary
	var data []byte
	err := s.db.View(func(tx kv.Tx) error {
		var err error
		if b, err = binaryOf(tx, who, w, pkg, name); err != nil {
			return err
		}
		data = append([]byte(nil), buildstore.BinaryFile(tx, w, pkg, name)...)
		return nil
	})
	return b, data, err
}

// RequireExt is one requirement of a binary with the binaries of the where's path chain that
// satisfy it (fileinfo_ext's <requires_ext>); none means it is unresolvable there.
type RequireExt struct {
	Dep        specfile.Dep
	ProvidedBy []resolve.Binary
}

// ProvideExt is one capability a binary provides with the binaries of the where's path chain
// that require it (fileinfo_ext's <provides_ext>).
type ProvideExt struct {
	Dep        specfile.Dep
	RequiredBy []resolve.Binary
}

// FileInfo is a binary's fileinfo: its header, and for fileinfo_ext who requires what it
// provides and what satisfies what it requires.
type FileInfo struct {
	Binary      buildstore.Binary
	ProvidesExt []ProvideExt // with ext only
	RequiresExt []RequireExt // with ext only
}

// FileInfo answers ?view=fileinfo (ext: fileinfo_ext) of a binary of pkg in w; pkg may be
// RepositoryPackage to describe a binary of the where's repository listing.
func (s *Farm) FileInfo(who buildstore.Person, w buildstore.Where, pkg, name string, ext bool) (FileInfo, error) {
	var fi FileInfo
	err := s.db.View(func(tx kv.Tx) error {
		var err error
		if pkg == RepositoryPackage {
			fi.Binary, err = repositoryBinary(tx, who, w, name)
		} else {
			fi.Binary, err = binaryOf(tx, who, w, pkg, name)
		}
		if err != nil || !fi.Binary.IsRPM() {
			return err
		}
		fi.Binary.Provides = withSelfProvide(fi.Binary)
		if !ext {
			return nil
		}
		env, err := loadWhereEnv(tx, w)
		if err != nil {
			return err
		}
		for _, d := range fi.Binary.Provides {
			fi.ProvidesExt = append(fi.ProvidesExt, ProvideExt{Dep: specfile.Dep(d), RequiredBy: env.pool.WhatRequires(specfile.Dep(d))})
		}
		for _, d := range fi.Binary.Requires {
			fi.RequiresExt = append(fi.RequiresExt, RequireExt{Dep: specfile.Dep(d), ProvidedBy: env.pool.WhatProvides(specfile.Dep(d))})
		}
		return nil
	})
	return fi, err
}

// withSelfProvide is b's provides as its header has them: rpm adds "name = [epoch:]version-
// release" to every package (the stored record, like the spec, leaves it implied).
func withSelfProvide(b buildstore.Binary) []buildstore.Dep {
	evr := b.Version + "-" + b.Release
	if b.Epoch != "" && b.Epoch != "0" {
		evr = b.Epoch + ":" + evr
	}
	self := buildstore.Dep{Name: b.Name, Op: "=", Version: evr}
	for _, d := range b.Provides {
		if d == self {
			return b.Provides
		}
	}
	return append([]buildstore.Dep{self}, b.Provides...)
}
