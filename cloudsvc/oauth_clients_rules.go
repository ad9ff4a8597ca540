package cloudsvc

import (
	"bytes"
	"fmt"
	"image/png"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// checkClientInput adds the problems of a client create (every field required) or update (only
// the fields sent are checked).
func checkClientInput(in cloudstore.ClientInput, create bool) error {
	var p store.Problems
	switch {
	case in.Label == nil && create:
		p.Add("label", "Label is required")
	case in.Label != nil && (utf8.RuneCountInString(*in.Label) < 1 || utf8.RuneCountInString(*in.Label) > 512):
		p.Add("label", "Length must be 1-512 characters")
	}
	switch {
	case in.RedirectURI == nil && create:
		p.Add("redirect_uri", "Redirect URI is required")
	case in.RedirectURI != nil && !validRedirect(*in.RedirectURI):
		p.Add("redirect_uri", "Must be a valid absolute URL (http or https, with a host)")
	}
	return p.Err()
}

// validRedirect accepts an absolute http(s) URL with a host, no fragment (RFC 6749 §3.1.2) and
// no dot segment in its path (a registered "/cb/.." would make every path of the host "under" it).
func validRedirect(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && u.Fragment == "" && len(s) <= 2048 &&
		!hasDotSegment(u.EscapedPath())
}

// RedirectAllowed reports whether an authorization request may send the browser to asked: the
// registered URI itself, or one under it, as the real login server allows — the same scheme,
// host (in any case) and port, no user info of its own, no fragment, and a path equal to or
// below the registered path. A path with a dot segment is refused however it is written ("..",
// "%2e%2e", "..%2f", "%252e%252e", a backslash for a slash): a browser or the client's server
// would resolve "/callback/../../evil" to "/evil", a page the client never registered, and the
// code would be sent there.
func RedirectAllowed(registered, asked string) bool {
	if asked == registered {
		return true
	}
	ru, err1 := url.Parse(registered)
	au, err2 := url.Parse(asked)
	if err1 != nil || err2 != nil || au.Fragment != "" || au.Opaque != "" || ru.Scheme != au.Scheme ||
		!strings.EqualFold(ru.Host, au.Host) || au.User.String() != ru.User.String() || hasDotSegment(au.EscapedPath()) {
		return false
	}
	base := strings.TrimSuffix(ru.Path, "/")
	return au.Path == ru.Path || strings.HasPrefix(au.Path, base+"/")
}

// hasDotSegment reports whether a URL path, as sent, has a "." or ".." segment once its
// percent-encoding is undone, one layer at a time (%25 hides a %; more than four layers are
// refused outright), with a backslash
// read as a slash, as browsers read it in http URLs — or a segment with a ";" path parameter:
// Tomcat and Jetty read "/callback/..;/evil" as "/callback/../evil" (issue 32).
func hasDotSegment(rawPath string) bool {
	p := rawPath
	for layer := 0; ; layer++ {
		for _, seg := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' }) {
			if seg == "." || seg == ".." || strings.ContainsRune(seg, ';') {
				return true
			}
		}
		next, err := url.PathUnescape(p)
		if err != nil {
			return true // a broken escape is no path a client registered
		}
		if next == p {
			return false
		}
		if layer == 4 {
			return true // still encoded after four layers: no path a client registered
		}
		p = next
	}
}

// createClient registers an OAuth client of account and returns it with its plaintext secret.
func createClient(tx kv.Tx, account uint64, in cloudstore.ClientInput, now time.Time) (cloudstore.Client, string, error) {
	if err := checkClientInput(in, true); err != nil {
		return cloudstore.Client{}, "", err
	}
	c := cloudstore.Client{ID: store.RandomHex(10), AccountID: account, Label: *in.Label, RedirectURI: *in.RedirectURI, Status: "active", Created: now}
	if in.Public != nil {
		c.Public = *in.Public
	}
	secret := store.RandomHex(32)
	if err := cloudstore.AddClient(tx, c, secret); err != nil {
		return c, "", err
	}
	c.SecretHash = cloudstore.HashToken(secret)
	return c, secret, nil
}

// updateClient applies the sent fields.
func updateClient(tx kv.Tx, c cloudstore.Client, in cloudstore.ClientInput) (cloudstore.Client, error) {
	if err := checkClientInput(in, false); err != nil {
		return c, err
	}
	if in.Label != nil {
		c.Label = *in.Label
	}
	if in.RedirectURI != nil {
		c.RedirectURI = *in.RedirectURI
	}
	if in.Public != nil {
		c.Public = *in.Public
	}
	return c, cloudstore.PutClient(tx, c)
}

// MaxThumbnail is the largest thumbnail accepted (the real service does not say; 1 MiB keeps the
// public thumbnail endpoint cheap).
const MaxThumbnail = 1 << 20

// pngMagic starts every PNG file.
var pngMagic = []byte("\x89PNG\r\n\x1a\n")

// setThumbnail stores a PNG image as the client's thumbnail, checked by content.
func setThumbnail(tx kv.Tx, c cloudstore.Client, png []byte) error {
	switch {
	case len(png) == 0:
		return store.Problems{{Reason: "A PNG image is required as the request body"}}
	case len(png) > MaxThumbnail:
		return store.Problems{{Reason: fmt.Sprintf("Thumbnail must be at most %d bytes", MaxThumbnail)}}
	case !isPNG(png):
		return store.Problems{{Reason: "Thumbnail must be a PNG image"}}
	}
	return cloudstore.PutThumbnail(tx, c, png)
}

// isPNG reports whether data is a decodable PNG image: the magic bytes and a valid header, so a
// text file renamed .png is refused. Only the header is decoded (DecodeConfig), not the pixels.
func isPNG(data []byte) bool {
	if !bytes.HasPrefix(data, pngMagic) {
		return false
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	return err == nil && cfg.Width > 0 && cfg.Height > 0 && cfg.Width <= 4096 && cfg.Height <= 4096
}
