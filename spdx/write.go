package spdx

import (
	"bytes"
	"cmp"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ProductSBOM is what the build farm knows of a built product when it writes the product's
// SBOM: the product's identity, when and by what the SBOM was made, and the RPMs it ships.
// WriteDocument turns it into the SPDX 2.3 JSON that OBS's generate_sbom writes for a product,
// so the explorer imports a farm-built product exactly like one published by OBS.
type ProductSBOM struct {
	// Name, Version, Arch and Build make the root package's name Name-Version-Arch-Build
	// ("Pocket-1.0-x86_64-Build1.1"), the key the explorer files the product under. Empty parts
	// are left out; Name and at least Arch or Build are needed, and the name must read back as
	// these parts (ParseProductName), or WriteDocument fails.
	Name, Version, Arch, Build string
	// DistURL is the product build's own disturl (obs://…), the root's obs-disturl reference.
	DistURL string
	// Git is the git reference of the product definition, the root's vcs reference; nil when
	// the product's sources are not in git.
	Git *GitRef
	// Created is when the SBOM was made: the build's finish time, not the time of writing, so a
	// rewrite of the same build gives the same bytes. Written in UTC to the second; required.
	Created time.Time
	// Tool names the program that wrote the SBOM with its version ("pocketforge-1.0"), written
	// as the creator "Tool: <Tool>"; required.
	Tool string
	// LicenseListVersion is the SPDX license list version the licenses follow ("3.26"), or "".
	LicenseListVersion string
	// Distro is the purl distro qualifier of every package ("pocket-1.0"), or "".
	Distro string
	// Packages are the RPMs the product ships; their order does not matter, WriteDocument sorts.
	Packages []ShippedRPM
}

// ShippedRPM is one RPM of a product, with the header tags generate_sbom reads from it.
type ShippedRPM struct {
	Name    string // NAME; required, as the explorer cannot search a nameless package
	Epoch   uint32 // EPOCH; 0 is none, as generate_sbom writes no epoch 0
	Version string // VERSION
	Release string // RELEASE
	Arch    string // ARCH, the purl's arch qualifier the explorer reads the arch from
	// License is the LICENSE tag. A valid SPDX license expression is written as it is; any
	// other text becomes a LicenseRef- declared in hasExtractedLicensingInfos, as generate_sbom
	// does for licenses it does not know. "" is NOASSERTION.
	License string
	// Supplier is the VENDOR tag ("SUSE LLC <https://www.suse.com/>"): written as supplier and
	// originator "Organization: <Supplier>", and its first word, lower-cased, is the purl
	// namespace. "" is NOASSERTION and no namespace.
	Supplier  string
	Summary   string  // SUMMARY, or ""
	Homepage  string  // URL, or ""
	SourceRPM string  // SOURCERPM, the purl's upstream qualifier, or ""
	Git       *GitRef // the source's git reference (scmsync), the vcs reference; nil for none
	// DistURL is the DISTURL tag, obs://<instance>/<project>/<repository>/<srcmd5>-<package>,
	// the obs-disturl reference; "" for none.
	DistURL   string
	Filename  string     // the RPM file name, packageFileName; "" for none
	Checksums []Checksum // of the RPM file; may be empty
}

// GitRef is a commit of a git repository on a git server, as an RPM's VCS tag names it:
// written as <BaseURL>/<Org>/<Repo>?trackingbranch=<Branch>#<Commit>, the locator ParseVCS
// reads back.
type GitRef struct {
	BaseURL string // scheme and host of the git server, "https://src.opensuse.org"; no path
	Org     string // required
	Repo    string // required
	Branch  string // the tracking branch, or ""
	Commit  string // the commit in hex (8 to 64 digits), or "" when only the branch is known
}

// Checksum is one digest of an RPM file.
type Checksum struct {
	Algorithm string // an SPDX checksum algorithm: SHA256, SHA1, MD5, …
	Value     string // the digest in hex
}

// namespacePrefix is generate_sbom's documentNamespace prefix; the explorer does not read it,
// but keeping it keeps the documents of the farm and of OBS alike.
const namespacePrefix = "http://open-build-service.org/spdx/"

// namespaceUUID is generate_sbom's namespace for the name-based UUID of a document.
var namespaceUUID, _ = hex.DecodeString("1e9d579964de4594a4e835719a1c259f")

// WriteDocument writes p as an SPDX 2.3 JSON document in the shape generate_sbom writes for a
// product (explorer-notes §3): field order, two-space indentation and unescaped "&" as there,
// the root package SPDXRef-DOCUMENT-ROOT named Name-Version-Arch-Build, one package per RPM
// with purl, vcs and obs-disturl references, CONTAINS relationships from the root to each
// package and a DESCRIBES relationship from the document to the root.
//
// The output depends on p alone, never on the order of p.Packages, the clock or chance:
// packages are sorted, SPDXIDs are SPDXRef-Package-rpm-<name>-<arch> (reduced to SPDX's
// idstring characters, numbered when two would clash), and documentNamespace ends in a
// name-based UUID of the rest of the document (as generate_sbom derives it), so a rebuilt
// product with the same content gives the same bytes and one with other content another
// namespace. Input that cannot make a valid document the explorer reads back as p (a nameless
// package, a commit that is not hex, a disturl ParseDistURL rejects, …) is an error and nothing
// is written.
func WriteDocument(w io.Writer, p ProductSBOM) error {
	doc, err := buildDocument(p)
	if err != nil {
		return err
	}
	// The namespace is a hash of the document without it, then set, then the whole encoded.
	body, err := encode(doc)
	if err != nil {
		return err
	}
	doc.DocumentNamespace = namespacePrefix + obsEscape(doc.Name, "") + "-" + nameUUID(body)
	if body, err = encode(doc); err != nil {
		return err
	}
	_, err = w.Write(body)
	return err
}

// The document's JSON shapes, fields in generate_sbom's order: its _order lists first, then
// the keys it does not list in sorted order, as its JSON writer puts them.
type (
	jsonDocument struct {
		SPDXVersion          string             `json:"spdxVersion"`
		DataLicense          string             `json:"dataLicense"`
		SPDXID               string             `json:"SPDXID"`
		Name                 string             `json:"name"`
		DocumentNamespace    string             `json:"documentNamespace,omitempty"`
		CreationInfo         jsonCreationInfo   `json:"creationInfo"`
		Packages             []jsonPackage      `json:"packages"`
		ExtractedLicenseInfo []jsonExtracted    `json:"hasExtractedLicensingInfos,omitempty"`
		Relationships        []jsonRelationship `json:"relationships"`
	}
	jsonCreationInfo struct {
		Created            string   `json:"created"`
		Creators           []string `json:"creators"`
		LicenseListVersion string   `json:"licenseListVersion,omitempty"`
	}
	jsonPackage struct {
		Name             string         `json:"name"`
		SPDXID           string         `json:"SPDXID"`
		VersionInfo      string         `json:"versionInfo,omitempty"`
		Supplier         string         `json:"supplier"`
		Originator       string         `json:"originator,omitempty"`
		DownloadLocation string         `json:"downloadLocation"`
		SourceInfo       string         `json:"sourceInfo,omitempty"`
		Homepage         string         `json:"homepage,omitempty"`
		LicenseConcluded string         `json:"licenseConcluded"`
		LicenseDeclared  string         `json:"licenseDeclared"`
		CopyrightText    string         `json:"copyrightText"`
		ExternalRefs     []jsonRef      `json:"externalRefs,omitempty"`
		Checksums        []jsonChecksum `json:"checksums,omitempty"`
		PackageFileName  string         `json:"packageFileName,omitempty"`
		PrimaryPurpose   string         `json:"primaryPackagePurpose,omitempty"`
		Summary          string         `json:"summary,omitempty"`
	}
	jsonRef struct {
		Category string `json:"referenceCategory"`
		Type     string `json:"referenceType"`
		Locator  string `json:"referenceLocator"`
	}
	jsonChecksum struct {
		Algorithm string `json:"algorithm"`
		Value     string `json:"checksumValue"`
	}
	jsonExtracted struct {
		LicenseID     string `json:"licenseId"`
		ExtractedText string `json:"extractedText"`
	}
	jsonRelationship struct {
		From string `json:"spdxElementId"`
		To   string `json:"relatedSpdxElement"`
		Type string `json:"relationshipType"`
	}
)

const noAssertion = "NOASSERTION"

// buildDocument checks p and lays out the document, all but its namespace.
func buildDocument(p ProductSBOM) (*jsonDocument, error) {
	full, err := productFullName(p)
	if err != nil {
		return nil, err
	}
	if p.Created.IsZero() {
		return nil, errors.New("sbom: no creation time: pass the build's finish time, so a rewrite gives the same bytes")
	}
	if strings.TrimSpace(p.Tool) == "" {
		return nil, errors.New("sbom: no creator tool")
	}
	root := jsonPackage{Name: full, SPDXID: rootSPDXID, Supplier: noAssertion, DownloadLocation: noAssertion,
		LicenseConcluded: noAssertion, LicenseDeclared: noAssertion, CopyrightText: noAssertion,
		PrimaryPurpose: "LIBRARY"} // generate_sbom's type of a product
	if root.ExternalRefs, err = sourceRefs(p.Git, p.DistURL); err != nil {
		return nil, fmt.Errorf("sbom: product %s: %w", full, err)
	}
	doc := &jsonDocument{
		SPDXVersion: "SPDX-2.3", DataLicense: "CC0-1.0", SPDXID: documentSPDXID, Name: full,
		CreationInfo: jsonCreationInfo{
			Created:            p.Created.UTC().Format("2006-01-02T15:04:05Z"),
			Creators:           []string{"Tool: " + p.Tool},
			LicenseListVersion: p.LicenseListVersion,
		},
		Packages: append(make([]jsonPackage, 0, len(p.Packages)+1), root),
	}
	rpms := slices.Clone(p.Packages)
	slices.SortFunc(rpms, compareRPMs)
	licenses := licenseRefs{}
	ids := make(map[string]bool, len(rpms))
	for i := range rpms {
		pkg, err := encodeRPM(&rpms[i], p.Distro, licenses)
		if err != nil {
			return nil, fmt.Errorf("sbom: package %q (%s): %w", rpms[i].Name, rpms[i].Arch, err)
		}
		pkg.SPDXID = uniqueID(packageID(rpms[i]), ids)
		doc.Packages = append(doc.Packages, pkg)
		doc.Relationships = append(doc.Relationships, jsonRelationship{rootSPDXID, pkg.SPDXID, "CONTAINS"})
	}
	doc.Relationships = append(doc.Relationships, jsonRelationship{documentSPDXID, rootSPDXID, "DESCRIBES"})
	doc.ExtractedLicenseInfo = licenses.list()
	return doc, nil
}

// productFullName joins the product's parts into the root package's name and refuses parts
// that would read back as another product, because the explorer files the product by them.
func productFullName(p ProductSBOM) (string, error) {
	var parts []string
	for _, s := range []string{p.Name, p.Version, p.Arch, p.Build} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	full := strings.Join(parts, "-")
	if p.Name == "" {
		return "", fmt.Errorf("sbom: product %q has no name", full)
	}
	name, version, arch, build := ParseProductName(full)
	if name != p.Name || version != p.Version || arch != p.Arch || build != p.Build {
		return "", fmt.Errorf("sbom: product name %q would read back as name %q, version %q, arch %q, build %q",
			full, name, version, arch, build)
	}
	return full, nil
}

// compareRPMs orders packages by name, arch and version first, as a reader scans them, then
// by every other field, so the order never depends on the order the caller gave.
func compareRPMs(a, b ShippedRPM) int {
	return cmp.Or(
		strings.Compare(a.Name, b.Name), strings.Compare(a.Arch, b.Arch),
		cmp.Compare(a.Epoch, b.Epoch), strings.Compare(a.Version, b.Version),
		strings.Compare(a.Release, b.Release), strings.Compare(a.Filename, b.Filename),
		strings.Compare(a.License, b.License), strings.Compare(a.Supplier, b.Supplier),
		strings.Compare(a.Summary, b.Summary), strings.Compare(a.Homepage, b.Homepage),
		strings.Compare(a.SourceRPM, b.SourceRPM), strings.Compare(a.DistURL, b.DistURL),
		compareGit(a.Git, b.Git), slices.CompareFunc(a.Checksums, b.Checksums, compareChecksums),
	)
}

func compareGit(a, b *GitRef) int {
	if a == nil || b == nil {
		return cmp.Compare(boolInt(a != nil), boolInt(b != nil))
	}
	return cmp.Or(strings.Compare(a.BaseURL, b.BaseURL), strings.Compare(a.Org, b.Org),
		strings.Compare(a.Repo, b.Repo), strings.Compare(a.Branch, b.Branch), strings.Compare(a.Commit, b.Commit))
}

func compareChecksums(a, b Checksum) int {
	return cmp.Or(strings.Compare(a.Algorithm, b.Algorithm), strings.Compare(a.Value, b.Value))
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// encodeRPM lays out one RPM's package as generate_sbom's spdx_encode_pkg does; the SPDXID is
// set by the caller, which knows the others.
func encodeRPM(r *ShippedRPM, distro string, licenses licenseRefs) (jsonPackage, error) {
	if r.Name == "" {
		return jsonPackage{}, errors.New("no name")
	}
	pkg := jsonPackage{Name: r.Name, VersionInfo: rpmEVR(r), Supplier: noAssertion,
		DownloadLocation: noAssertion, SourceInfo: "acquired package info from RPM DB",
		Homepage: r.Homepage, CopyrightText: noAssertion, PackageFileName: r.Filename, Summary: r.Summary}
	if r.Supplier != "" {
		pkg.Originator = "Organization: " + r.Supplier
		pkg.Supplier = pkg.Originator // as generate_sbom (OBS-247)
	}
	pkg.LicenseConcluded = licenses.expression(r.License)
	pkg.LicenseDeclared = pkg.LicenseConcluded
	pkg.ExternalRefs = []jsonRef{{"PACKAGE-MANAGER", "purl", rpmPurl(r, distro)}}
	refs, err := sourceRefs(r.Git, r.DistURL)
	if err != nil {
		return jsonPackage{}, err
	}
	pkg.ExternalRefs = append(pkg.ExternalRefs, refs...)
	for _, c := range r.Checksums {
		sum, err := checksum(c)
		if err != nil {
			return jsonPackage{}, err
		}
		pkg.Checksums = append(pkg.Checksums, sum)
	}
	slices.SortFunc(pkg.Checksums, func(a, b jsonChecksum) int {
		return compareChecksums(Checksum(a), Checksum(b))
	})
	return pkg, nil
}

// rpmEVR is versionInfo: [epoch:]version[-release], "" when the version is unknown.
func rpmEVR(r *ShippedRPM) string {
	vr := r.Version
	if r.Release != "" {
		vr += "-" + r.Release
	}
	if r.Epoch != 0 && vr != "" {
		vr = strconv.FormatUint(uint64(r.Epoch), 10) + ":" + vr
	}
	return vr
}

// sourceRefs are the vcs and obs-disturl references, in generate_sbom's order.
func sourceRefs(git *GitRef, distURL string) ([]jsonRef, error) {
	var refs []jsonRef
	if git != nil {
		loc, err := vcsLocator(*git)
		if err != nil {
			return nil, fmt.Errorf("git reference: %w", err)
		}
		refs = append(refs, jsonRef{"OTHER", "vcs", loc})
	}
	if distURL != "" {
		if _, _, _, _, _, ok := ParseDistURL(distURL); !ok || strings.ContainsFunc(distURL, isSpace) || distURL != strings.TrimSpace(distURL) {
			return nil, fmt.Errorf("disturl %q is not obs://<instance>/<project>/<repository>/<srcmd5>-<package>", distURL)
		}
		refs = append(refs, jsonRef{"OTHER", "obs-disturl", distURL})
	}
	return refs, nil
}

// checksum checks one digest against what SPDX allows: a known algorithm and hex digits,
// written lower-cased as SPDX asks.
func checksum(c Checksum) (jsonChecksum, error) {
	if !slices.Contains(checksumAlgorithms, c.Algorithm) {
		return jsonChecksum{}, fmt.Errorf("checksum algorithm %q is not one of SPDX's %v", c.Algorithm, checksumAlgorithms)
	}
	if !isHex(c.Value) {
		return jsonChecksum{}, fmt.Errorf("%s checksum %q is not hex", c.Algorithm, c.Value)
	}
	return jsonChecksum{c.Algorithm, strings.ToLower(c.Value)}, nil
}

// checksumAlgorithms are the algorithms of the SPDX 2.3 schema.
var checksumAlgorithms = []string{"SHA1", "SHA224", "SHA256", "SHA384", "SHA512", "SHA3-256", "SHA3-384",
	"SHA3-512", "BLAKE2b-256", "BLAKE2b-384", "BLAKE2b-512", "BLAKE3", "MD2", "MD4", "MD5", "MD6", "ADLER32"}

// encode writes v as generate_sbom's documents are: indented by two spaces, "&" and "<" not
// escaped (they are common in purls and suppliers), a final newline.
func encode(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("sbom: encoding: %w", err)
	}
	return b.Bytes(), nil
}

// nameUUID is generate_sbom's gen_uuid: a version 5 UUID of the document's bytes in its own
// namespace, so equal documents get equal namespaces and different ones different.
func nameUUID(body []byte) string {
	h := sha1.New()
	h.Write(namespaceUUID)
	h.Write(body)
	u := h.Sum(nil)[:16]
	u[6] = u[6]&0x0f | 0x50
	u[8] = u[8]&0x3f | 0x80
	x := hex.EncodeToString(u)
	return x[:8] + "-" + x[8:12] + "-" + x[12:16] + "-" + x[16:20] + "-" + x[20:]
}
