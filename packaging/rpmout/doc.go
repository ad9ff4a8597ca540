// Package rpmout writes what a simulated build publishes: real RPM files (binary and source
// packages, written with github.com/google/rpmpack), the rpm-md metadata of a published
// repository (repodata/repomd.xml with primary, filelists and other, laid out byte for byte as
// createrepo_c writes them), and the one-click-install (ymp) document of a binary.
//
// It is pure: metadata in, bytes or document structs out; it reads no clock (build and
// publish times are passed in), touches no disk, and starts no goroutines of its own (rpmpack's
// gzip, klauspost/pgzip, compresses in goroutines inside Write). It leaves out what needs the
// farm's state: which binaries a repository holds, where they are stored, when a repository is
// published, and the HTTP rendering of the ymp document; and what no simulated build produces:
// signatures, changelogs, scriptlets, weak dependencies, file digests in filelists-ext and the
// sqlite databases createrepo_c adds by default (dnf and zypper read the XML).
package rpmout
