package rpmout

import (
	"slices"
	"strings"

	"github.com/pocketforge/pocketforge/packaging/specfile"
)

// primaryRequires filters the requires as createrepo_c does for primary.xml: rpmlib()
// requirements, requirements on the package's own primary files, requirements equal to one of
// its provides, and repeats of the requirement last kept for the same name are left out; of
// the libc.so.6… requirements only the highest is kept, and listed last.
func primaryRequires(r *RPM, provides []specfile.Dep) []specfile.Dep {
	var out []specfile.Dep
	var libc *specfile.Dep
	last := map[string]specfile.Dep{}
	for _, d := range r.Requires {
		if strings.HasPrefix(d.Name, "rpmlib(") || slices.Contains(provides, d) {
			continue
		}
		if strings.HasPrefix(d.Name, "/") && isPrimaryFile(d.Name) &&
			slices.ContainsFunc(r.Files, func(f File) bool { return f.Path == d.Name }) {
			continue
		}
		if prev, ok := last[d.Name]; ok && prev == d {
			continue
		}
		if strings.HasPrefix(d.Name, "libc.so.6") {
			if libc == nil || compareLibc(libc.Name, d.Name) == 2 {
				libc = &d
			}
			continue
		}
		last[d.Name] = d
		out = append(out, d)
	}
	if libc != nil {
		out = append(out, *libc)
	}
	return out
}

// isPrimaryFile is createrepo_c's rule for the files primary.xml lists, the ones dependency
// resolution most often asks for: anything under /etc/, any path containing "bin/", and
// /usr/lib/sendmail.
func isPrimaryFile(p string) bool {
	return strings.HasPrefix(p, "/etc/") || strings.Contains(p, "bin/") || p == "/usr/lib/sendmail"
}

// compareLibc orders two libc.so.6 capabilities by the version in their first parentheses,
// libc.so.6() < libc.so.6(GLIBC_2.3.4)(64bit) < libc.so.6(GLIBC_2.4), as createrepo_c does:
// 0 same, 1 the first is higher, 2 the second is, -1 neither has a closing parenthesis.
func compareLibc(a, b string) int {
	if a == b {
		return 0
	}
	i, j := strings.IndexByte(a, '('), strings.IndexByte(b, '(')
	switch {
	case i < 0 && j < 0:
		return 0
	case i < 0:
		return 2
	case j < 0:
		return 1
	}
	a, b = a[i+1:], b[j+1:]
	ie, je := strings.IndexByte(a, ')'), strings.IndexByte(b, ')')
	switch {
	case ie < 0 && je < 0:
		return -1
	case ie < 0:
		return 2
	case je < 0:
		return 1
	case ie == 0 && je == 0:
		return 0
	case ie == 0:
		return 2
	case je == 0:
		return 1
	}
	// From the first digit to the closing parenthesis.
	di, dj := strings.IndexAny(a, "0123456789"), strings.IndexAny(b, "0123456789")
	if di < 0 {
		di = len(a)
	}
	if dj < 0 {
		dj = len(b)
	}
	switch {
	case di > ie && dj > je:
		return 0
	case di > ie:
		return 2
	case dj > je:
		return 1
	}
	if c := specfile.Vercmp(a[di:ie], b[dj:je]); c < 0 {
		return 2
	} else {
		return c
	}
}
