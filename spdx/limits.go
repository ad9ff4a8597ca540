package spdx

// The caps below bound the memory and time one input may cost. Product SBOMs and repository
// metadata are downloaded from build services we do not control, so every count the parser
// keeps in memory has a ceiling, and crossing it is an error that names the limit rather than an
// out-of-memory crash of the whole appliance.
const (
	// MaxDocumentBytes is the largest SBOM ParseDocument reads. The biggest real product SBOMs
	// (a full distribution DVD, ~20,000 RPMs) are around 30 MiB; 512 MiB leaves room for
	// multi-arch media while keeping a hostile or broken file from filling memory.
	MaxDocumentBytes = 512 << 20
	// MaxDocumentPackages caps the packages of one SBOM, for the same reason.
	MaxDocumentPackages = 2_000_000
	// MaxRepodataPackages caps the packages of one rpm-md repository, in primary.xml and in
	// filelists.xml alike (the two are read at once and joined after); the largest public ones
	// (openSUSE Tumbleweed with all architectures) hold well under 200,000.
	MaxRepodataPackages = 2_000_000
	// MaxRepodataFiles caps the file-list entries of one repository, summed over its packages;
	// every entry is kept in memory until the caller indexes it.
	MaxRepodataFiles = 50_000_000
	// MaxRepodataXMLBytes caps the decompressed size of one primary or filelists file, so a
	// small gzip bomb cannot keep the parser busy forever. Tumbleweed's filelists.xml
	// decompresses to roughly 1 GiB.
	MaxRepodataXMLBytes = 16 << 30
)

// limits carries the caps through the parsers, so tests can lower them and reach every limit
// with small inputs.
type limits struct {
	docBytes    int64 // MaxDocumentBytes
	docPackages int   // MaxDocumentPackages
	described   int   // root candidates kept from documentDescribes and DESCRIBES relationships
	repomdBytes int64 // size of repomd.xml, which is small by nature
	xmlBytes    int64 // MaxRepodataXMLBytes
	xmlToken    int64 // longest single XML token (a text node or a tag with its attributes)
	xmlDepth    int   // deepest element nesting; primary.xml needs 5
	rpms        int   // MaxRepodataPackages
	files       int   // MaxRepodataFiles
}

// defaultLimits are the caps the exported functions use.
var defaultLimits = limits{
	docBytes:    MaxDocumentBytes,
	docPackages: MaxDocumentPackages,
	described:   1000,
	repomdBytes: 16 << 20,
	xmlBytes:    MaxRepodataXMLBytes,
	xmlToken:    1 << 20,
	xmlDepth:    32,
	rpms:        MaxRepodataPackages,
	files:       MaxRepodataFiles,
}
