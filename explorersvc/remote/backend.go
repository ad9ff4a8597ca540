package remote

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/builddoc/resultlist"
	"github.com/pocketforge/pocketforge/explorersvc"
	"github.com/pocketforge/pocketforge/store"
	"github.com/valyala/fasthttp"
)

// Backend is a remote build service as the explorer's backend (--explorer-backend): the
// four reads of explorersvc.Backend, and the fork builds' results (explorersvc.BuildResults),
// made with OBS's own requests — GET /source, /build/<p>/_result and /configuration — through
// the same Do the proxy forwards with (a *Client: one connection pool, one timeout, the
// configured credentials). Its failures are *explorersvc.BackendError: a remote that did not
// answer in time (the APIs' 504), or one that could not be reached, refused the credentials,
// failed or answered nonsense (500), each with a sentence for the user.
type Backend struct {
	// Client sends the requests (normally a *Client).
	Client Doer
	// Poll is how often the results cache rereads the remote (--explorer-poll): OBS has no
	// change mark a client can read cheaply, so Changes moves once per Poll. 0: 30 s.
	Poll time.Duration
	// Now is the appliance's clock (nil: time.Now).
	Now func() time.Time
}

// Doer answers a request the way fasthttp.Client.Do does: it fills resp from req, or fails
// when no answer came (a *Client; the explorer's proxy forwards through the same interface).
type Doer interface {
	Do(req *fasthttp.Request, resp *fasthttp.Response) error
}

var (
	_ explorersvc.Backend      = (*Backend)(nil)
	_ explorersvc.BuildResults = (*Backend)(nil)
	_ explorersvc.Detached     = (*Backend)(nil)
	_ Doer                     = (*Client)(nil)
)

// errMissing is a 404 from the remote; each caller turns it into its own "not found".
var errMissing = errors.New("not found on the build service")

// failed is a remote's failure of code (500 in every API), with a formatted message.
func failed(code, format string, args ...any) *explorersvc.BackendError {
	return &explorersvc.BackendError{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// get sends GET path (relative to the build API's root, already escaped) and decodes the XML
// answer into v.
func (b *Backend) get(ctx context.Context, path string, v any) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	req := fasthttp.AcquireRequest()
	defer fasthttp.ReleaseRequest(req)
	resp := fasthttp.AcquireResponse()
	defer fasthttp.ReleaseResponse(resp)
	req.Header.SetMethod(fasthttp.MethodGet)
	req.SetRequestURI(path)
	req.Header.Set(fasthttp.HeaderAccept, "application/xml")
	if err := b.Client.Do(req, resp); err != nil {
		if errors.Is(err, ErrTimeout) {
			return &explorersvc.BackendError{Code: "backend_timeout", Timeout: true, Msg: "The build service did not answer in time: " + err.Error()}
		}
		return failed("backend_unreachable", "The build service could not be reached: %s", err)
	}
	switch code := resp.StatusCode(); {
	case code == http.StatusNotFound:
		return errMissing
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		return failed("backend_refused", "The build service refused the explorer's credentials (%d on GET %s); the operator has to fix --explorer-backend-user and --explorer-backend-password", code, clipText(path, 200))
	case code != http.StatusOK:
		return failed("backend_failed", "The build service answered %d on GET %s: %s", code, clipText(path, 200), statusSummary(resp.Body()))
	}
	if err := xml.Unmarshal(resp.Body(), v); err != nil {
		return failed("backend_failed", "The build service's answer to GET %s is not the document OBS sends: %v", clipText(path, 200), err)
	}
	return nil
}

// clipText shortens what is quoted back of a request or an answer.
func clipText(s string, n int) string {
	if len(s) > n {
		s = s[:n] + "…"
	}
	return strings.ToValidUTF8(s, "?")
}

// statusSummary is the <summary> of an OBS <status> document, or the start of whatever else
// the body is.
func statusSummary(body []byte) string {
	var st struct {
		Code    string `xml:"code,attr"`
		Summary string `xml:"summary"`
	}
	if xml.Unmarshal(body, &st) == nil && st.Summary != "" {
		return clipText(st.Summary, 300)
	}
	return clipText(strings.TrimSpace(string(body)), 300)
}

// Projects lists GET /source: the projects the remote shows the explorer's identity (OBS
// hides the access-restricted ones from a non-member, as the in-process backend does).
func (b *Backend) Projects(ctx context.Context) ([]string, error) {
	var dir struct {
		Entries []struct {
			Name string `xml:"name,attr"`
		} `xml:"entry"`
	}
	if err := b.get(ctx, "/source", &dir); err != nil {
		if errors.Is(err, errMissing) {
			return nil, failed("backend_failed", "The build service has no /source: is --explorer-backend an OBS API root?")
		}
		return nil, err
	}
	out := make([]string, 0, len(dir.Entries))
	for _, e := range dir.Entries {
		if e.Name != "" {
			out = append(out, e.Name)
		}
	}
	return out, nil
}

// results reads GET /build/<project>/_result (query: extra parameters, escaped).
func (b *Backend) results(ctx context.Context, project, query string) (resultlist.List, error) {
	var list resultlist.List
	path := "/build/" + url.PathEscape(project) + "/_result"
	if query != "" {
		path += "?" + query
	}
	return list, b.get(ctx, path, &list)
}

// Results is the project's GET /build/<project>/_result. A 404 (unknown, or hidden from the
// explorer's identity) is ErrNoProject. OBS writes a result's state twice (code and the older
// state); code wins, state stands in when code is missing.
func (b *Backend) Results(ctx context.Context, project string) (explorersvc.ProjectResults, error) {
	list, err := b.results(ctx, project, "")
	if errors.Is(err, errMissing) {
		return explorersvc.ProjectResults{}, errors.Join(explorersvc.ErrNoProject,
			fmt.Errorf("project %s: %w", project, store.ErrNotFound))
	}
	if err != nil {
		return explorersvc.ProjectResults{}, err
	}
	out := explorersvc.ProjectResults{Project: project, Results: make([]explorersvc.RepoResult, len(list.Results))}
	for i := range list.Results {
		r := &list.Results[i]
		rr := explorersvc.RepoResult{Repository: r.Repository, Arch: r.Arch, Code: r.RepoCode(), Details: r.Details,
			Dirty: r.IsDirty(), Statuses: make([]explorersvc.PackageStatus, len(r.Statuses))}
		for j, st := range r.Statuses {
			rr.Statuses[j] = explorersvc.PackageStatus{Package: st.Package, Code: st.Code, Details: strings.TrimSpace(st.Details)}
		}
		out.Results[i] = rr
	}
	return out, nil
}

// PackageResults is explorersvc.BuildResults over the remote: GET
// /build/<project>/_result?package=<pkg>, a 404 being store.ErrNotFound (the fork-builds
// answer leaves the fork's results out).
func (b *Backend) PackageResults(project, pkg string) ([]explorersvc.BuildResult, error) {
	list, err := b.results(context.Background(), project, "package="+url.QueryEscape(pkg))
	if errors.Is(err, errMissing) {
		return nil, fmt.Errorf("project %s: %w", project, store.ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	var out []explorersvc.BuildResult
	for _, r := range list.Results {
		for _, st := range r.Statuses {
			out = append(out, explorersvc.BuildResult{Project: project, Package: st.Package,
				Repository: r.Repository, Arch: r.Arch, Status: st.Code})
		}
	}
	return out, nil
}

// Configuration is GET /configuration: <schedulers>'s archs, and every other element with
// text, by its name and in the document's order, as the remote wrote them (a real OBS has
// title, description, name, anonymous, registration, download_url, …; the appliance's own
// build API writes fewer, and the in-process backend adds what the appliance knows beside).
func (b *Backend) Configuration(ctx context.Context) (explorersvc.BackendConfig, error) {
	var doc struct {
		Elements []struct {
			XMLName xml.Name
			Text    string   `xml:",chardata"`
			Archs   []string `xml:"arch"`
		} `xml:",any"`
	}
	if err := b.get(ctx, "/configuration", &doc); err != nil {
		if errors.Is(err, errMissing) {
			return explorersvc.BackendConfig{}, failed("backend_failed", "The build service has no /configuration")
		}
		return explorersvc.BackendConfig{}, err
	}
	var out explorersvc.BackendConfig
	for _, e := range doc.Elements {
		if e.XMLName.Local == "schedulers" {
			for _, a := range e.Archs {
				if a = strings.TrimSpace(a); a != "" {
					out.Schedulers = append(out.Schedulers, a)
				}
			}
			continue
		}
		if v := strings.TrimSpace(e.Text); v != "" {
			out.Settings = append(out.Settings, explorersvc.Setting{Name: e.XMLName.Local, Value: v})
		}
	}
	return out, nil
}

// Detached: a remote's reads may each take up to the client's timeout, so the results cache
// refreshes beside the appliance's job runner, never holding up the build farm's jobs.
func (b *Backend) Detached() bool { return true }

// Changes moves once per Poll: the cache then rereads the remote's projects (and keeps what
// did not change as it was).
func (b *Backend) Changes(context.Context) (uint64, error) {
	poll := b.Poll
	if poll <= 0 {
		poll = 30 * time.Second
	}
	now := time.Now
	if b.Now != nil {
		now = b.Now
	}
	return uint64(now().UnixNano() / int64(poll)), nil
}

// Products: a remote build service's product media are not followed — where OBS publishes a
// product build's SBOM and file lists in its published tree (and how a client would list
// them) is unverified, so the remote backend lists none rather than guess a layout. The
// explorer then imports no product from it; products come from files (import-spdx, the
// admin import, --spdx-dir) instead.
func (b *Backend) Products(context.Context, string) ([]explorersvc.ProductMedium, error) {
	return nil, nil
}

// ProductFiles: none, as Products lists none.
func (b *Backend) ProductFiles(context.Context, explorersvc.ProductMedium) (fs.FS, error) {
	return nil, nil
}
