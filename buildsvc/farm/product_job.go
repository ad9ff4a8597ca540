package farm

import (
	"bytes"
	"crypto/md5"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/internal/signkey"
	"github.com/pocketforge/pocketforge/packaging/resolve"
	"github.com/pocketforge/pocketforge/packaging/rpmout"
	"github.com/pocketforge/pocketforge/packaging/specfile"
	"github.com/pocketforge/pocketforge/spdx"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// sbomTool is the creator the farm's SBOMs name, as generate_sbom names itself
// ("Tool: obs_build_generate_sbom-1.1").
const sbomTool = "pocketforge_generate_sbom-1.0"

// sbomLicenseList is the SPDX license list version the SBOMs declare.
const sbomLicenseList = "3.26"

// planProductJob fixes the course of a product job: the log of its composition and its
// outcome, which the composition at the job's start decides (a package it lists has gone, or
// the build of one it ships failed: the job fails and says which).
func planProductJob(tx kv.Tx, w buildstore.Where, st buildstore.BuildStatus, d time.Duration, src sources, chain []buildstore.Path) jobRun {
	var l logWriter
	l.add(fmt.Sprintf("Using BUILD_ROOT=/var/cache/obs/worker/root_%s", strings.TrimPrefix(st.Worker, "pocketforge:")))
	l.add("Using BUILD_ARCH=" + w.Arch)
	l.add("")
	l.add(fmt.Sprintf("pocketforge %s started \"build %s\" at %s.", st.Worker, src.productName, st.StartTime.UTC().Format(time.UnixDate)))
	l.add("")
	l.add(fmt.Sprintf("Building %s for project '%s' repository '%s' arch '%s' srcmd5 '%s'", st.Package, w.Project, w.Repository, w.Arch, st.SrcMD5))
	l.add("")
	run := jobRun{}
	end := func(verb string) jobRun {
		l.add("")
		l.add(fmt.Sprintf("pocketforge %s %s \"build %s\" at %s.", st.Worker, verb, src.productName, st.StartTime.Add(d).UTC().Format(time.UnixDate)))
		run.lines = l.timed(d)
		return run
	}
	fail := func(msg string) jobRun {
		run.failure = &specfile.Failure{Msg: msg}
		l.add("error: " + msg)
		return end("failed")
	}
	c, why := composeAt(tx, w, src, chain)
	if why != "" {
		return fail(why)
	}
	name := c.def.ProductName(w.Arch, productBuild(st))
	l.add("processing recipe /home/abuild/rpmbuild/SOURCES/" + src.productName + " ...")
	l.add(fmt.Sprintf("composing %s: %d packages", name, len(c.shipped)))
	for i, b := range c.shipped {
		l.add(fmt.Sprintf("[%d/%d] taking %s from %s/%s", i+1, len(c.shipped), b.Filename, b.Project, b.Repository))
	}
	l.add("")
	switch {
	case len(c.missing) > 0:
		return fail("nothing provides " + strings.Join(c.missing, ", nothing provides "))
	case len(c.failed) > 0:
		return fail("the product ships the binaries of " + strings.Join(c.failed, ", ") +
			", whose build failed: a product is only made of binaries its sources build")
	}
	run.product = &c
	l.add("generating the SBOM of " + name + " (SPDX 2.3)")
	l.add("generating the rpm-md metadata of " + strconv.Itoa(len(c.shipped)) + " packages")
	l.add("Wrote: /home/abuild/rpmbuild/OTHER/" + name + ".spdx.json")
	l.add("Wrote: /home/abuild/rpmbuild/OTHER/repodata/repomd.xml")
	return end("finished")
}

// composeAt is the composition of src's product in w from the store, or why there is none.
func composeAt(tx kv.Tx, w buildstore.Where, src sources, chain []buildstore.Path) (composition, string) {
	def, broken := parseProduct(src)
	if broken != "" {
		return composition{}, broken
	}
	repos, broken := productRepositories(def, chain)
	if broken != "" {
		return composition{}, broken
	}
	status := func(w buildstore.Where, pkg string) (buildstore.BuildStatus, bool) {
		st, err := buildstore.GetStatus(tx, w, pkg)
		return st, err == nil
	}
	return compose(def, w, repos, func(w buildstore.Where) []resolve.Binary { return resolveBinaries(tx, w) }, status), ""
}

// productBuild is a product job's build label: OBS's Build<checkin>.<rebuild> from the job's
// release number ("Build1.1" for the first build of the first revision).
func productBuild(st buildstore.BuildStatus) string {
	return "Build" + st.ReleaseNumber()
}

// distURL is the disturl the farm stamps into what a job of st in w builds.
func distURL(w buildstore.Where, st buildstore.BuildStatus) string {
	return fmt.Sprintf("obs://pocketforge/%s/%s/%s-%s", w.Project, w.Repository, st.SrcMD5, st.Package)
}

// storeProductBinaries writes a product job's binaries, replacing the package's old ones in
// w: the SBOM <name>.spdx.json, the shipped RPMs (signed with the product's key where they were
// not) and the rpm-md metadata over them (repomd.xml, its signature and key, and the files it
// names), each marked with the medium's name so publishing lays them out as a medium:
// <name>/<name>.spdx.json, <name>/<arch>/<rpm> and <name>/repodata/….
func (s *Farm) storeProductBinaries(tx kv.Tx, w buildstore.Where, st buildstore.BuildStatus, c composition, now time.Time) error {
	signer, err := buildsvc.ProjectSigner(tx, w.Project)
	if err != nil {
		return err
	}
	return s.storeProductWith(tx, w, st, c, signer, now)
}

// storeProductWith is storeProductBinaries with the product's signer (nil: nothing is signed).
func (s *Farm) storeProductWith(tx kv.Tx, w buildstore.Where, st buildstore.BuildStatus, c composition, signer *signkey.Signer, now time.Time) error {
	if err := buildstore.DeleteBinaries(tx, w, st.Package); err != nil {
		return err
	}
	name := c.def.ProductName(w.Arch, productBuild(st))
	k, _ := buildstore.GetPackage(tx, w.Project, st.Package)
	sbom := spdx.ProductSBOM{Git: gitRef(vcsTag(k.SCMSync, st.SrcMD5)), Name: c.def.Name, Version: c.def.Version, Arch: w.Arch, Build: productBuild(st),
		DistURL: distURL(w, st), Created: now, Tool: sbomTool, LicenseListVersion: sbomLicenseList,
		Distro: strings.ToLower(c.def.Name) + "-" + c.def.Version}
	var entries []rpmout.Entry
	var rpms []buildstore.Binary // the shipped RPMs, which the medium holds (issue 34: its metadata lists them)
	rpmData := map[string][]byte{}
	for _, b := range c.shipped {
		from := buildstore.Where{Project: b.Project, Repository: b.Repository, Arch: w.Arch}
		stored, err := buildstore.GetBinary(tx, from, b.Package, b.Filename)
		if err != nil {
			return fmt.Errorf("product %s: %s is gone: %w", name, b.Filename, err)
		}
		data := append([]byte(nil), buildstore.BinaryFile(tx, from, b.Package, b.Filename)...)
		if signer != nil && rpmout.IsRPM(data) && !rpmout.Signed(data) { // an imported base package
			if data, err = rpmout.Sign(data, func(m io.Reader) ([]byte, error) { return signer.Sign(m, now) }); err != nil {
				return fmt.Errorf("product %s: signing %s: %w", name, b.Filename, err)
			}
		}
		shipped := stored
		shipped.Package, shipped.Medium, shipped.Size, shipped.MTime = st.Package, name, int64(len(data)), now
		buildsvc.SetDigests(&shipped, data)
		rpms, rpmData[stored.Filename] = append(rpms, shipped), data
		sbom.Packages = append(sbom.Packages, shippedRPM(stored, data))
		e, err := rpmout.NewEntry(stored.Arch+"/"+stored.Filename, binaryRPM(stored), data, stored.MTime)
		if err != nil {
			return fmt.Errorf("product %s: %w", name, err)
		}
		entries = append(entries, e)
	}
	var doc bytes.Buffer
	if err := spdx.WriteDocument(&doc, sbom); err != nil {
		return fmt.Errorf("product %s: %w", name, err)
	}
	files := map[string][]byte{name + ".spdx.json": doc.Bytes()}
	meta, err := rpmout.Repodata(entries, now)
	if err != nil {
		return fmt.Errorf("product %s: %w", name, err)
	}
	for p, data := range meta {
		files[path.Base(p)] = data
	}
	if err := buildsvc.SignRepomd(tx, w.Project, signer, files, "repomd.xml", now); err != nil {
		return err
	}
	for _, b := range rpms {
		if err := buildstore.PutBinary(tx, w, b, rpmData[b.Filename]); err != nil {
			return err
		}
	}
	for file, data := range files {
		m, sh := md5.Sum(data), sha256.Sum256(data)
		b := buildstore.Binary{Package: st.Package, Filename: file, Size: int64(len(data)), MTime: now,
			MD5: hex.EncodeToString(m[:]), SHA256: hex.EncodeToString(sh[:]), Medium: name}
		if err := buildstore.PutBinary(tx, w, b, data); err != nil {
			return err
		}
	}
	return nil
}

// shippedRPM is what the SBOM says of one shipped RPM: the header's own tags where the file
// has them (license, vendor, disturl, source RPM, URL), else what the farm stored of it.
func shippedRPM(b buildstore.Binary, file []byte) spdx.ShippedRPM {
	epoch, _ := strconv.ParseUint(b.Epoch, 10, 32)
	sum := sha256.Sum256(file)
	r := spdx.ShippedRPM{Name: b.Name, Epoch: uint32(epoch), Version: b.Version, Release: b.Release, Arch: b.Arch,
		Summary: b.Summary, Filename: b.Filename, Checksums: []spdx.Checksum{{Algorithm: "SHA256", Value: hex.EncodeToString(sum[:])}}}
	if h, err := rpmout.ReadHeader(file); err == nil {
		r.License, r.Supplier, r.Homepage, r.SourceRPM, r.Git = h.License, h.Vendor, h.URL, h.SourceRPM, gitRef(h.VCS)
		if _, _, _, _, _, ok := spdx.ParseDistURL(h.DistURL); ok {
			r.DistURL = h.DistURL
		}
	}
	return r
}
