package web

import (
	"net/url"
	"strings"
)

// The web interface's addresses that other parts of the appliance link to (the badges and
// tables link to the build monitor and to build logs), in one place so the links and the pages
// cannot drift apart. Each takes the external URL (--external-url) and returns an absolute URL;
// names are path-escaped segment by segment, so a project's colons stay readable and nothing in
// a name can add a segment.

// MonitorURL is a project's build monitor (its monitor tab), narrowed to one package and to
// the packages in one badge state ("failed", "building", …) when pkg and state are set.
func MonitorURL(base, project, pkg, state string) string {
	u := strings.TrimSuffix(base, "/") + "/projects/" + url.PathEscape(project) + "/monitor"
	sep := "?"
	if pkg != "" {
		u += sep + "package=" + url.QueryEscape(pkg)
		sep = "&"
	}
	if state != "" {
		u += sep + "state=" + url.QueryEscape(state)
	}
	return u
}

// LogURL is the build log of a package in a repository and arch, the page the monitor and the
// table badge open in a popup window.
func LogURL(base, project, pkg, repo, arch string) string {
	return strings.TrimSuffix(base, "/") + "/projects/" + url.PathEscape(project) + "/packages/" +
		url.PathEscape(pkg) + "/logs/" + url.PathEscape(repo) + "/" + url.PathEscape(arch)
}

// SafeNext keeps next, where a sign-in form sends its user afterwards, only when it is a page of
// area ("/console", "/appliance"): area itself, a path below it or area with a query, holding no
// backslash, line break or "//" — so a crafted link cannot make a form send anyone to another
// site (no open redirect). "" otherwise: the caller's own page then.
func SafeNext(next, area string) string {
	if next != area && !strings.HasPrefix(next, area+"/") && !strings.HasPrefix(next, area+"?") {
		return ""
	}
	if strings.ContainsAny(next, "\\\r\n") || strings.Contains(next, "//") {
		return ""
	}
	return next
}
