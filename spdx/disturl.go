package spdx

import "strings"

// ParseDistURL splits an OBS disturl (the RPM DISTURL tag, the SBOM's obs-disturl reference),
// obs://<instance>/<project>/<repository>/<srcmd5>-<package>, so the explorer can link a
// package to the build service project it was built in. It parses from the right, because
// project names may hold anything but the last two segments never do: the last segment is
// <srcmd5>-<package>, where the package keeps a multibuild ":flavor" suffix
// ("000productcompose:leap_oss"); the one before it is the repository; everything between the
// instance and the repository is the project ("openSUSE:Leap:16.0:Products"). ok is false
// unless the scheme is obs, every part is non-empty and srcmd5 is hex.
func ParseDistURL(s string) (instance, project, repository, srcmd5, pkg string, ok bool) {
	rest, found := strings.CutPrefix(strings.TrimSpace(s), "obs://")
	if !found {
		return "", "", "", "", "", false
	}
	instance, rest, _ = strings.Cut(rest, "/")
	i := strings.LastIndexByte(rest, '/')
	if i < 0 {
		return "", "", "", "", "", false
	}
	last := rest[i+1:]
	rest = rest[:i]
	i = strings.LastIndexByte(rest, '/')
	if i < 0 {
		return "", "", "", "", "", false
	}
	project, repository = rest[:i], rest[i+1:]
	srcmd5, pkg, _ = strings.Cut(last, "-")
	if instance == "" || project == "" || repository == "" || pkg == "" || !isHex(srcmd5) {
		return "", "", "", "", "", false
	}
	return instance, project, repository, srcmd5, pkg, true
}
