package buildapi

import (
	"strings"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/buildsvc/metadoc"
)

// The checks a meta PUT goes through, and who may write what. Every rejection carries the
// build service's error code; its summary is a sentence, because osc prints it to the user.

// parseMeta decodes a meta body within metadoc's bounds on repeated elements (a document over
// one is refused as soon as the decoder reaches it). encoding/xml never expands external
// entities, and osc sends the body as application/octet-stream, so the content type is not
// looked at.
func parseMeta(body []byte, v any, kind string) error {
	if len(strings.TrimSpace(string(body))) == 0 {
		return buildsvc.Invalid(kind, "Document is empty")
	}
	if err := metadoc.Unmarshal(body, v); err != nil {
		return buildsvc.Invalid(kind, "%v", err)
	}
	return nil
}
