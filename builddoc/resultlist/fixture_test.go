package resultlist

// The fixture every golden file of testdata/ was written from. The goldens were first written
// by the two renderers this package replaced (api/buildapi's renderResults, every combination
// of views, and api/explorerapi's renderResultList, status only), fed these same results, so
// they pin the bytes — and the state — both APIs answered before.

type fxStatus struct{ Package, Code, Details string }

type fxBinary struct {
	Filename    string
	Size, MTime int64
}

type fxResult struct {
	Project, Repository, Arch, Code, Details string
	Dirty                                    bool
	Statuses                                 []fxStatus
	Binaries                                 map[string][]fxBinary
}

// fxProject names every result's project (the explorer writes one project for all).
const fxProject = `home:a&b"<x>'`

// fixture is results with everything a document can carry: each attribute needing escapes,
// dirty and clean results, details on a result and on statuses, codes repeated out of order
// (the summary counts them in order of first appearance), packages with binaries and without,
// and a result with no packages at all.
func fixture() []fxResult {
	return []fxResult{
		{Project: fxProject, Repository: "standard", Arch: "x86_64", Code: "published", Statuses: []fxStatus{
			{Package: "pocket-cli", Code: "succeeded"},
			{Package: "pocket-base", Code: "failed", Details: "build failed: exit 1 & <more>"},
			{Package: "zsh", Code: "succeeded"},
			{Package: `odd"name'`, Code: "unresolvable", Details: "nothing provides libfoo.so()(64bit) >= 2\n\tneeded by \"odd\""},
			{Package: "ünïcode", Code: "blocked", Details: "bad\xffutf8 ctl\x01 del\x7f"},
			{Package: "vim", Code: "failed"},
		}, Binaries: map[string][]fxBinary{
			"pocket-cli":  {{Filename: "pocket-cli-1.0-1.1.x86_64.rpm", Size: 12345, MTime: 1700000000}, {Filename: "_statistics", Size: 0, MTime: 0}},
			"pocket-base": nil,
			"zsh":         {{Filename: "zsh&<1>.rpm", Size: 1, MTime: -1}},
		}},
		{Project: fxProject, Repository: "images", Arch: "aarch64", Code: "building", Dirty: true, Details: "waiting for 2 \"jobs\"", Statuses: []fxStatus{
			{Package: "pocket-cli", Code: "scheduled", Details: "waiting"},
			{Package: "zsh", Code: "excluded"},
		}},
		{Project: fxProject, Repository: "tab\trepo", Arch: "line\nbreak", Code: "unknown", Dirty: true},
	}
}
