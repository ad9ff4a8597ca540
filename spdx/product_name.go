package spdx

import "strings"

// knownArchs are the architecture names a product name may carry, as OBS and product-composer
// spell them. A product name has no separator between its parts other than "-", so the
// architectures can only be told from the rest by name.
var knownArchs = map[string]bool{
	"x86_64": true, "x86_64_v2": true, "x86_64_v3": true, "x86_64_v4": true,
	"i386": true, "i486": true, "i586": true, "i686": true,
	"aarch64": true, "aarch64_ilp32": true,
	"armv5tel": true, "armv6l": true, "armv6hl": true, "armv7l": true, "armv7hl": true,
	"ppc": true, "ppc64": true, "ppc64le": true, "ppc64p7": true,
	"s390": true, "s390x": true,
	"riscv64": true, "loongarch64": true, "ia64": true, "sparc64": true, "m68k": true,
	"noarch": true,
}

// flavorWords name a medium rather than the product ("openSUSE-Tumbleweed-DVD"); they are
// dropped from a name that has no version segment, so the DVD and NET media of one snapshot
// share a product name. Compared without case.
var flavorWords = map[string]bool{
	"dvd": true, "net": true, "full": true, "online": true, "offline": true, "minimal": true,
	"live": true, "cd": true, "rescue": true, "installer": true, "kde": true, "gnome": true,
	"xfce": true,
}

// buildPrefixes start the build segment: OBS build counters (Build50.2), Tumbleweed snapshots
// (Snapshot20240401) and media numbers (Media1).
var buildPrefixes = []string{"Build", "Snapshot", "Media"}

// ParseProductName splits a product's full name, as OBS products are named
// ("<name>-<version>[-<flavor>…]-<arch>[-<arch>…]-<build>"), into the parts the explorer shows:
//
//   - build: the last segment when it is Build*, Snapshot* or Media* followed by a digit;
//   - arch: the run of known architecture names (knownArchs) before it, joined with "-"
//     ("aarch64-ppc64le-s390x-x86_64");
//   - version: the last remaining segment that starts with a digit; every segment after it is a
//     flavor (Full, online-installer, …) and dropped. Without such a segment the version is the
//     snapshot date of a Snapshot build, and trailing flavor words (DVD, NET, …) are dropped;
//   - name: the segments before the version.
//
// So "Leap-16.1-aarch64-ppc64le-s390x-x86_64-Build50.2" is Leap, 16.1,
// aarch64-ppc64le-s390x-x86_64, Build50.2, and "openSUSE-Tumbleweed-DVD-x86_64-Snapshot20240401"
// is openSUSE-Tumbleweed, 20240401, x86_64, Snapshot20240401 (the explorer docs' example). A name
// with neither a build segment nor an architecture, or that would leave the name empty, is not
// split: name is full and the rest "", so a foreign SBOM still shows under its own name.
func ParseProductName(full string) (name, version, arch, build string) {
	segments := strings.Split(full, "-")
	if n := len(segments); n > 1 && isBuildSegment(segments[n-1]) {
		build = segments[n-1]
		segments = segments[:n-1]
	}
	archStart := len(segments)
	for archStart > 1 && knownArchs[segments[archStart-1]] {
		archStart--
	}
	arch = strings.Join(segments[archStart:], "-")
	segments = segments[:archStart]
	if build == "" && arch == "" {
		return full, "", "", ""
	}
	if v := lastNumeric(segments); v >= 0 {
		version, segments = segments[v], segments[:v]
	} else {
		if date, ok := strings.CutPrefix(build, "Snapshot"); ok {
			version = date
		}
		for len(segments) > 1 && flavorWords[strings.ToLower(segments[len(segments)-1])] {
			segments = segments[:len(segments)-1]
		}
	}
	name = strings.Join(segments, "-")
	if name == "" {
		return full, "", "", ""
	}
	return name, version, arch, build
}

// lastNumeric returns the index of the last segment that starts with a digit, or -1.
func lastNumeric(segments []string) int {
	for i := len(segments) - 1; i >= 0; i-- {
		if s := segments[i]; s != "" && s[0] >= '0' && s[0] <= '9' {
			return i
		}
	}
	return -1
}

// isBuildSegment reports whether s is a build segment: a known prefix and then a digit.
func isBuildSegment(s string) bool {
	for _, p := range buildPrefixes {
		if rest, ok := strings.CutPrefix(s, p); ok && rest != "" && rest[0] >= '0' && rest[0] <= '9' {
			return true
		}
	}
	return false
}
