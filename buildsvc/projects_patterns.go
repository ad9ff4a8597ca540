package buildsvc

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Project patterns: a pattern is an installer's package group (pattern.rng); the appliance
// keeps it as sent after checking that it is a well-formed XML document with a <pattern> root,
// in whatever namespace (the real files use http://novell.com/package/metadata/suse/pattern).

// checkPatternName refuses what the backend refuses as a file name: empty, a "/", a leading
// ".", control characters, more than 200 bytes, not UTF-8 (see CheckFileName).
func checkPatternName(name string) error {
	if !utf8.ValidString(name) {
		return BadRequest("invalid_filename", "'%s' is not a valid pattern file name: not UTF-8", strings.ToValidUTF8(name, "\uFFFD"))
	}
	if name == "" || strings.Contains(name, "/") || strings.HasPrefix(name, ".") || len(name) > 200 ||
		strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return BadRequest("invalid_filename", "'%s' is not a valid pattern file name", name)
	}
	return nil
}

// checkPatternXML accepts one well-formed XML document whose root element is <pattern>.
// encoding/xml checks nesting and entities and never expands external ones.
func checkPatternXML(body []byte) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return Invalid("pattern", "Document is empty")
	}
	dec := xml.NewDecoder(bytes.NewReader(body))
	depth, roots := 0, 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return Invalid("pattern", "%v", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				if roots++; roots > 1 {
					return Invalid("pattern", "more than one root element")
				}
				if t.Name.Local != "pattern" {
					return Invalid("pattern", "the root element must be <pattern>, not <%s>", t.Name.Local)
				}
			}
			depth++
		case xml.EndElement:
			depth--
		case xml.CharData:
			if depth == 0 && len(bytes.TrimSpace(t)) > 0 {
				return Invalid("pattern", "text outside the root element")
			}
		}
	}
	if roots == 0 {
		return Invalid("pattern", "no root element")
	}
	return nil
}

// Patterns lists the project's pattern files.
func (s *Service) Patterns(project string) (all []buildstore.Pattern, err error) {
	err = s.db.View(func(tx kv.Tx) error {
		if err := buildstore.CheckProject(tx, project); err != nil {
			return NotFoundAs(err, "unknown_project")
		}
		all, err = buildstore.Patterns(tx, project)
		return err
	})
	return all, err
}

// Pattern reads a pattern file as it was stored; a missing one is the backend's 404.
func (s *Service) Pattern(project, name string) (p buildstore.Pattern, err error) {
	err = s.db.View(func(tx kv.Tx) error {
		if err := buildstore.CheckProject(tx, project); err != nil {
			return NotFoundAs(err, "unknown_project")
		}
		if p, err = buildstore.GetPattern(tx, project, name); err != nil {
			return NoSuchFile(name)
		}
		return nil
	})
	return p, err
}

// PutPattern stores a pattern file (new or replaced) after the document and name checks.
func (s *Service) PutPattern(who buildstore.Person, project, name string, body []byte) error {
	if err := checkPatternXML(body); err != nil {
		return err
	}
	now := s.clk.Now().Unix()
	return s.patternWrite(who, project, name, "no permission to store pattern", func(tx kv.Tx) error {
		return buildstore.PutPattern(tx, project, buildstore.Pattern{Name: name, Data: body, MTime: now})
	})
}

// DeletePattern removes a pattern file; a missing one is the backend's 404.
func (s *Service) DeletePattern(who buildstore.Person, project, name string) error {
	return s.patternWrite(who, project, name, "no permission to delete pattern", func(tx kv.Tx) error {
		if err := buildstore.DeletePattern(tx, project, name); err != nil {
			return NoSuchFile(name)
		}
		return nil
	})
}

// patternWrite runs a pattern write for a maintainer of the project (or Admin): the service
// answers change_project_no_permission with its own sentence (denied) otherwise, and
// project_locked on a locked project.
func (s *Service) patternWrite(who buildstore.Person, project, name, denied string, write func(tx kv.Tx) error) error {
	if err := checkPatternName(name); err != nil {
		return err
	}
	return s.db.Write(func(tx kv.Tx) error {
		_, err := ProjectOfMaintainer(tx, who, project, true, Forbidden("change_project_no_permission", "%s in project '%s'", denied, project))
		if err != nil {
			return err
		}
		return write(tx)
	})
}
