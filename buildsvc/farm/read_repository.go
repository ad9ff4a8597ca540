package farm

import (
	"regexp"
	"strings"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/packaging/resolve"
	"github.com/pocketforge/pocketforge/packaging/rpmout"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// A where's repository (GET/POST/PUT /build/<project>/<repository>/<arch>/_repository): the
// binaries it offers to builds, as OBS keeps them in :full — one per name, the highest version
// of any package of the where, named "<name>.rpm" — and the binaries an administrator puts
// there by hand (stored as package RepositoryPackage, so no build replaces them).

// repositoryBinaries returns the binaries w offers, one per name, by name. Source RPMs and
// binaries for another arch are not offered.
func repositoryBinaries(tx kv.Tx, w buildstore.Where) ([]buildstore.Binary, error) {
	pool := resolve.NewPool([]resolve.Layer{{Project: w.Project, Repository: w.Repository, Binaries: resolveBinaries(tx, w)}}, resolve.Config{}, w.Arch)
	var out []buildstore.Binary
	for _, rb := range pool.Binaries() {
		b, err := buildstore.GetBinary(tx, w, rb.Package, rb.Filename)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// RepositoryName is the name a binary has in a repository listing: "<name>.rpm".
func RepositoryName(b buildstore.Binary) string { return b.Name + ".rpm" }

// RepositoryList answers GET …/_repository: the binaries w offers to builds, by name (their
// Filename is the stored one; the listing names them RepositoryName).
func (s *Farm) RepositoryList(who buildstore.Person, w buildstore.Where) ([]buildstore.Binary, error) {
	var out []buildstore.Binary
	err := s.db.View(func(tx kv.Tx) error {
		if _, err := buildsvc.ReadableWhere(tx, who, w); err != nil {
			return err
		}
		var err error
		out, err = repositoryBinaries(tx, w)
		return err
	})
	return out, err
}

// repositoryBinary finds the binary w offers under name ("<name>.rpm", or the bare name as
// osc also asks).
func repositoryBinary(tx kv.Tx, who buildstore.Person, w buildstore.Where, name string) (buildstore.Binary, error) {
	if _, err := buildsvc.ReadableWhere(tx, who, w); err != nil {
		return buildstore.Binary{}, err
	}
	if err := validBinaryName(name); err != nil {
		return buildstore.Binary{}, err
	}
	list, err := repositoryBinaries(tx, w)
	if err != nil {
		return buildstore.Binary{}, err
	}
	want := strings.TrimSuffix(name, ".rpm")
	for _, b := range list {
		if b.Name == want || b.Filename == name {
			return b, nil
		}
	}
	return buildstore.Binary{}, binaryNotFound(name)
}

// RepositoryFile answers GET …/_repository/<binary>: the binary's record and a copy of its
// bytes.
func (s *Farm) RepositoryFile(who buildstore.Person, w buildstore.Where, name string) (buildstore.Binary, []byte, error) {
	var b buildstore.Binary
	var data []byte
	err := s.db.View(func(tx kv.Tx) error {
		var err error
		if b, err = repositoryBinary(tx, who, w, name); err != nil {
			return err
		}
		data = append([]byte(nil), buildstore.BinaryFile(tx, w, b.Package, b.Filename)...)
		return nil
	})
	return b, data, err
}

// repositoryAdmin refuses everyone but an administrator: the repository's binaries are what
// every build of the where installs, so only Admin changes or queries them directly.
func repositoryAdmin(who buildstore.Person) error {
	if who.IsAdmin() {
		return nil
	}
	return buildsvc.Forbidden("admin_required", "Only an administrator may change or query the build repository directly")
}

// MatchRepository answers POST …/_repository?match=: the names of the binaries builds in w may
// install — along the whole path chain, one per name as the resolver sees them — that match,
// by name. Admin only. match is the backend's XPath predicate over a binary's data, of which
// the forms people write are understood: name='x' (also @name, version, release, arch,
// provides, requires), starts-with(name,'x') and contains(name,'x') (the same fields), each
// optionally in [ ]; anything else is 400.
func (s *Farm) MatchRepository(who buildstore.Person, w buildstore.Where, match string) ([]string, error) {
	pred, err := parseMatch(match)
	if err != nil {
		return nil, err
	}
	var out []string
	err = s.db.View(func(tx kv.Tx) error {
		if _, err := buildsvc.ReadableWhere(tx, who, w); err != nil {
			return err
		}
		if err := repositoryAdmin(who); err != nil {
			return err
		}
		env, err := loadWhereEnv(tx, w)
		if err != nil {
			return err
		}
		for _, b := range env.pool.Binaries() {
			if pred(b) {
				out = append(out, b.Name)
			}
		}
		return nil
	})
	return out, err
}

var (
	matchEq   = regexp.MustCompile(`^@?(name|version|release|arch|provides|requires)\s*=\s*'([^']*)'$`)
	matchFunc = regexp.MustCompile(`^(starts-with|contains)\(\s*@?(name|version|release|arch|provides|requires)\s*,\s*'([^']*)'\s*\)$`)
)

// parseMatch turns a match predicate into a test of a binary.
func parseMatch(match string) (func(resolve.Binary) bool, error) {
	m := strings.TrimSpace(match)
	if strings.HasPrefix(m, "[") && strings.HasSuffix(m, "]") {
		m = strings.TrimSpace(m[1 : len(m)-1])
	}
	var field, op, value string
	if g := matchEq.FindStringSubmatch(m); g != nil {
		field, op, value = g[1], "=", g[2]
	} else if g := matchFunc.FindStringSubmatch(m); g != nil {
		field, op, value = g[2], g[1], g[3]
	} else {
		return nil, buildsvc.BadRequest("400", "unsupported match '%s': use name='x', starts-with(name,'x') or contains(name,'x')", match)
	}
	test := func(v string) bool {
		switch op {
		case "starts-with":
			return strings.HasPrefix(v, value)
		case "contains":
			return strings.Contains(v, value)
		}
		return v == value
	}
	return func(b resolve.Binary) bool {
		var values []string
		switch field {
		case "name":
			values = []string{b.Name}
		case "version":
			values = []string{b.Version}
		case "release":
			values = []string{b.Release}
		case "arch":
			values = []string{b.Arch}
		case "provides":
			values = []string{b.Name}
			for _, d := range b.Provides {
				values = append(values, d.Name)
			}
		case "requires":
			for _, d := range b.Requires {
				values = append(values, d.Name)
			}
		}
		for _, v := range values {
			if test(v) {
				return true
			}
		}
		return false
	}, nil
}

// PutRepositoryBinary answers PUT …/_repository/<file>: Admin uploads an RPM that builds in w
// (and in every repository whose path leads here) may install. Its header is read as a built
// binary's would be; it is stored under its canonical file name (the highest version of a name
// is what builds see), and the project and its dependents are queued so that waiting builds resolve.
func (s *Farm) PutRepositoryBinary(who buildstore.Person, w buildstore.Where, name string, data []byte) (buildstore.Binary, error) {
	var b buildstore.Binary
	err := s.db.Write(func(tx kv.Tx) error {
		if _, err := buildsvc.ReadableWhere(tx, who, w); err != nil {
			return err
		}
		if err := repositoryAdmin(who); err != nil {
			return err
		}
		if err := validBinaryName(name); err != nil {
			return err
		}
		if !strings.HasSuffix(name, ".rpm") {
			return buildsvc.BadRequest("400", "file name must end in .rpm")
		}
		r, err := rpmout.ReadHeader(data)
		if err != nil {
			return buildsvc.BadRequest("400", "%s: not an RPM package: %v", name, err)
		}
		if r.Arch != w.Arch && r.Arch != "noarch" {
			return buildsvc.BadRequest("400", "%s: an RPM for %s cannot be used by builds for %s", name, r.Arch, w.Arch)
		}
		b = buildsvc.BinaryRecord(RepositoryPackage, r, data, s.clk.Now())
		if err := buildstore.PutBinary(tx, w, b, data); err != nil {
			return err
		}
		return queueDependents(tx, w.Project)
	})
	return b, err
}
