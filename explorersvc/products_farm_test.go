package explorersvc

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"testing"
	"testing/fstest"
	"time"

	"github.com/pocketforge/pocketforge/packaging/rpmout"
	"github.com/pocketforge/pocketforge/spdx"
)

// TestFollowProductsFarmWriters: a medium written as the farm writes one — the SBOM by
// spdx.WriteDocument, the file lists by rpmout's repodata writer over a real RPM — is followed
// into the searches: the package with its version, git reference and disturl, its files by
// path and by basename.
func TestFollowProductsFarmWriters(t *testing.T) {
	e, b := newFollowEnv(t)
	const (
		full    = "Pocket-1.0-x86_64-Build4.2"
		disturl = "obs://pocketforge/devel:tools/standard/0123456789abcdef0123456789abcdef-forge-utils"
		commit  = "6453ba4e9bca19430b74358237e2bb4228771b183172fb1bf3433eb2a2d44d34"
	)
	built := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	rpm := rpmout.RPM{Name: "forge-utils", Version: "1.4", Release: "2.1", Arch: "x86_64", Summary: "forge tools",
		Description: "Tools.", License: "MIT", Vendor: "pocketforge", DistURL: disturl, BuildTime: built,
		Files: []rpmout.File{{Path: "/usr/bin/forge-sync", Body: []byte("#!/bin/sh\n"), Mode: 0o755},
			{Path: "/usr/share/doc/forge-utils/README", Body: []byte("readme\n")}}}
	var file bytes.Buffer
	if err := rpmout.Write(&file, rpm); err != nil {
		t.Fatal(err)
	}
	entry, err := rpmout.NewEntry("x86_64/"+rpmout.Filename(rpm), rpm, file.Bytes(), built)
	if err != nil {
		t.Fatal(err)
	}
	repodata, err := rpmout.Repodata([]rpmout.Entry{entry}, built)
	if err != nil {
		t.Fatal(err)
	}
	var doc bytes.Buffer
	err = spdx.WriteDocument(&doc, spdx.ProductSBOM{Name: "Pocket", Version: "1.0", Arch: "x86_64", Build: "Build4.2",
		DistURL: "obs://pocketforge/" + productsProject + "/product/0123456789abcdef0123456789abcdef-000productcompose",
		Created: built, Tool: "pocketforge-test", Distro: "pocket-1.0",
		Packages: []spdx.ShippedRPM{{Name: "forge-utils", Version: "1.4", Release: "2.1", Arch: "x86_64", License: "MIT",
			Supplier: "pocketforge", DistURL: disturl, Filename: rpmout.Filename(rpm),
			Git: &spdx.GitRef{BaseURL: "https://src.pocketforge.test", Org: "pool", Repo: "forge-utils", Branch: "pocket-1.0", Commit: commit}}}})
	if err != nil {
		t.Fatal(err)
	}
	files := fstest.MapFS{full + SBOMSuffix: {Data: doc.Bytes()}}
	for name, data := range repodata {
		files[name] = &fstest.MapFile{Data: data}
	}
	sum := sha256.Sum256(append(doc.Bytes(), repodata["repodata/repomd.xml"]...))
	b.publish(productsProject, publishedMedium{ProductMedium: ProductMedium{Project: productsProject, Repository: "product",
		Arch: "x86_64", Package: "000productcompose", Name: full, Digest: hex.EncodeToString(sum[:])}, files: files})
	e.tick()

	if !hasEntry(e.packages(t, "forge-utils"), map[string]string{"package_name": "forge-utils", "arch": "x86_64",
		"filename": "forge-utils-1.4-2.1.x86_64.rpm", "vcs_org": "pool", "tracking_branch": "pocket-1.0", "commit_hash": commit,
		"disturl": disturl, "product.full_name": full, "product.build_number": "Build4.2"}) {
		t.Errorf("the farm's package is not found as written: %+v", e.packages(t, "forge-utils"))
	}
	for _, q := range []string{"/usr/bin/forge-sync", "forge-sync", "README"} {
		found := e.files(t, q)
		if len(found) != 1 || found[0].RPM != "forge-utils-1.4-2.1.x86_64.rpm" || len(found[0].Entries) != 1 ||
			found[0].Entries[0].Product.FullName != full {
			t.Errorf("files %q: %+v", q, found)
		}
	}
}
