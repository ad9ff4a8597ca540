package spdx

import "testing"

const (
	commit64 = "4ef8b1f01b5d7198feaa49116232f53ccf0c372d4c3fd8e7a0d3004db6b703f0"
	commit40 = "0765e5c4f3b2a1d0e9f8a7b6c5d4e3f2a1b0c9d8"
)

func TestParseVCS(t *testing.T) {
	tests := []struct {
		name    string
		locator string
		want    VCS
		ok      bool
	}{
		{"tracking branch and 64-hex commit",
			"https://src.opensuse.org/pool/bash?trackingbranch=factory#" + commit64,
			VCS{URL: "https://src.opensuse.org/pool/bash", Org: "pool", Repo: "bash", Branch: "factory", Commit: commit64}, true},
		{"40-hex commit",
			"https://src.suse.de/pool/jtidy?trackingbranch=slfo-1.2#" + commit40,
			VCS{URL: "https://src.suse.de/pool/jtidy", Org: "pool", Repo: "jtidy", Branch: "slfo-1.2", Commit: commit40}, true},
		{"upper-case commit is lower-cased",
			"https://src.opensuse.org/pool/bash#DEADBEEF01",
			VCS{URL: "https://src.opensuse.org/pool/bash", Org: "pool", Repo: "bash", Commit: "deadbeef01"}, true},
		{"8 hex is the shortest commit",
			"https://src.opensuse.org/pool/bash#deadbeef",
			VCS{URL: "https://src.opensuse.org/pool/bash", Org: "pool", Repo: "bash", Commit: "deadbeef"}, true},
		{"7 hex is a branch",
			"https://src.opensuse.org/pool/bash#deadbee",
			VCS{URL: "https://src.opensuse.org/pool/bash", Org: "pool", Repo: "bash", Branch: "deadbee"}, true},
		{"non-hex fragment and subdir query: a branch or tag",
			"https://src.suse.de/products/SLES?subdir=000release-packages#16.0",
			VCS{URL: "https://src.suse.de/products/SLES", Org: "products", Repo: "SLES", Branch: "16.0"}, true},
		{"trackingbranch wins over a non-hex fragment",
			"https://src.opensuse.org/pool/bash?trackingbranch=factory#v5.2",
			VCS{URL: "https://src.opensuse.org/pool/bash", Org: "pool", Repo: "bash", Branch: "factory"}, true},
		{".git suffix stripped from Repo only",
			"https://github.com/bminor/bash.git#" + commit40,
			VCS{URL: "https://github.com/bminor/bash.git", Org: "bminor", Repo: "bash", Commit: commit40}, true},
		{"no query, no fragment",
			"https://src.opensuse.org/pool/bash",
			VCS{URL: "https://src.opensuse.org/pool/bash", Org: "pool", Repo: "bash"}, true},
		{"nested path: first and last segment",
			"https://gitlab.example.org/group/sub/proj/",
			VCS{URL: "https://gitlab.example.org/group/sub/proj", Org: "group", Repo: "proj"}, true},
		{"credentials dropped",
			"https://user:secret@src.opensuse.org/pool/bash",
			VCS{URL: "https://src.opensuse.org/pool/bash", Org: "pool", Repo: "bash"}, true},
		{"git+https scheme kept",
			"git+https://src.opensuse.org/pool/bash#main",
			VCS{URL: "git+https://src.opensuse.org/pool/bash", Org: "pool", Repo: "bash", Branch: "main"}, true},
		{"port kept",
			"http://localhost:3000/pool/bash",
			VCS{URL: "http://localhost:3000/pool/bash", Org: "pool", Repo: "bash"}, true},
		{"escaped name",
			"https://src.opensuse.org/pool/libstdc%2B%2B?trackingbranch=factory",
			VCS{URL: "https://src.opensuse.org/pool/libstdc%2B%2B", Org: "pool", Repo: "libstdc++", Branch: "factory"}, true},
		{"escaped slash stays in its segment",
			"https://git.example.org/a%2Fb/c",
			VCS{URL: "https://git.example.org/a%2Fb/c", Org: "a/b", Repo: "c"}, true},
		{"empty segment before the repository",
			"https://git.example.org/org//repo",
			VCS{URL: "https://git.example.org/org//repo", Org: "org", Repo: "repo"}, true},
		{"empty", "", VCS{}, false},
		{"no scheme", "src.opensuse.org/pool/bash", VCS{}, false},
		{"scp-like", "git@github.com:foo/bar.git", VCS{}, false},
		{"no host", "file:///srv/git/bash", VCS{}, false},
		{"empty path", "https://src.opensuse.org/", VCS{}, false},
		{"only .git", "https://src.opensuse.org/.git", VCS{}, false},
		{"opaque", "mailto:someone@example.org", VCS{}, false},
		{"bad escape", "https://src.opensuse.org/pool/%zz", VCS{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ParseVCS(tt.locator)
			if got != tt.want || ok != tt.ok {
				t.Errorf("ParseVCS(%q) = %+v, %v; want %+v, %v", tt.locator, got, ok, tt.want, tt.ok)
			}
		})
	}
}
