package remote

import (
	"context"
	"errors"
	"net/url"
	"strings"

	"github.com/pocketforge/pocketforge/builddoc/binarycoll"
	"github.com/pocketforge/pocketforge/explorersvc"
)

// Binaries asks the remote's published binary search, GET
// /search/published/binary/id?match=@name='<name>', as the explorer's identity (OBS leaves the
// access-restricted projects out for a non-member). OBS's filepath
// (home:/alice/standard/x86_64/bash-….rpm) is the file's path under its download_url, which is
// what Path is. OBS's answer names no scmsync, so SourceURL stays empty and the explorer looks
// the git source up in its product data, as for the in-process backend.
func (b *Backend) Binaries(ctx context.Context, name string) ([]explorersvc.Binary, error) {
	lit, ok := explorersvc.XPathLiteral(name)
	if !ok {
		return nil, explorersvc.ErrUnquotable(name)
	}
	var coll binarycoll.Collection
	if err := b.get(ctx, "/search/published/binary/id?match="+url.QueryEscape("@name="+lit), &coll); err != nil {
		if errors.Is(err, errMissing) {
			return nil, failed("backend_failed", "The build service has no published binary search (/search/published/binary/id)")
		}
		return nil, err
	}
	out := make([]explorersvc.Binary, 0, len(coll.Binaries))
	for _, x := range coll.Binaries {
		segs := strings.Split(strings.TrimPrefix(x.Filepath, "/"), "/")
		for i, s := range segs {
			segs[i] = url.PathEscape(s)
		}
		out = append(out, explorersvc.Binary{Name: x.Name, Filename: x.Filename, Package: x.Package,
			Project: x.Project, Repository: x.Repository, Arch: x.Arch, Version: x.Version,
			Release: x.Release, Path: strings.Join(segs, "/")})
	}
	return out, nil
}
