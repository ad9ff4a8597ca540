package social

import (
	"encoding/xml"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"

	"github.com/pocketforge/pocketforge/buildsvc/metadoc"
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Messages (GET /message/<id>, GET /message/?limit|project|project&package, PUT
// /message/?project[&package], DELETE /message/<id>), as the 2.7-era MessageController and
// Message model keep them: a message is a note on one project or package.
//   - GET /message/ lists every object's messages; ?project=P only P's own (not its packages');
//     ?project=P&package=K only K's. All newest first; ?limit=N keeps the N newest (0 none).
//   - PUT takes <message severity="N" send_mail="true|false" private="true|false">text</message>
//     — the three attributes are required (the service's message.xsd; a body that fails it is
//     400 validation_failed "message validation error: …"). The project must exist (404
//     unknown_project) and so must the package (404 unknown_package); the writer must be
//     allowed to change the object — a maintainer of the project, for a package also of the
//     package, or Admin — else 403 "permission denied"; without a project it is 400 "error
//     creating message" "must give either project or package". Those two codes are the
//     service's own, spaces and all.
//   - A project with <access><disable/> does not exist for non-members: its messages and its
//     packages' are never listed to them and their ids are unknown (404), as is the project.
//   - Messages die with their object (store/buildstore's delete hooks).
//
// Decided where the service was loose or silent:
//   - ?limit also applies to a project's or package's list (the service applied it only to the
//     list of all); ?package without ?project is 400 missing_parameter (the service ignored it);
//   - private is kept and shown, not enforced: the service's API listed private messages to
//     everyone too; send_mail is kept and shown, no mail is sent (nor was one in 2.7, whose
//     sent_at never got set) and sent_at is never written;
//   - a write to a locked project is 403 project_locked (the service's change permission was
//     false on a locked project, and said "permission denied");
//   - DELETE /message/<id> (routed by the service, which checked no permission for it) needs
//     the writer of the message, a maintainer who could have written it, or Admin; 403
//     "permission denied" otherwise;
//   - the text is at most MaxMessageText bytes and holds no elements (the schema's mixed
//     content without children).

// MessageQuery is a GET /message/ list's parameters, as the URL has them.
type MessageQuery struct {
	Project, Package, Limit string
}

// MessageList is the <messages> document: Project and Package name the object of an object's
// list (empty for the list of all and for one message by id).
type MessageList struct {
	Project, Package string
	Messages         []buildstore.Message
}

// Messages lists the messages q asks for, newest first.
func (s *Service) Messages(who buildstore.Person, q MessageQuery) (MessageList, error) {
	l := MessageList{Project: q.Project, Package: q.Package}
	limit, err := messageLimit(q.Limit)
	if err != nil {
		return l, err
	}
	if q.Project == "" && q.Package != "" {
		return l, buildsvc.BadRequest("missing_parameter", "Parameter project is missing: package %s needs its project", q.Package)
	}
	err = s.Store().View(func(tx kv.Tx) error {
		if q.Project == "" {
			l.Messages, err = buildstore.LatestMessages(tx, limit, func(m buildstore.Message) bool {
				return !buildsvc.ProjectHiddenFrom(tx, who, m.Project)
			})
			return err
		}
		if _, _, err := messageObject(tx, who, q.Project, q.Package); err != nil {
			return err
		}
		l.Messages, err = buildstore.MessagesOn(tx, q.Project, q.Package, limit)
		return err
	})
	return l, err
}

// Message reads one message by the id of the URL, as a list of one.
func (s *Service) Message(who buildstore.Person, id string) (MessageList, error) {
	var l MessageList
	err := s.Store().View(func(tx kv.Tx) error {
		m, err := messageByID(tx, who, id)
		l.Messages = []buildstore.Message{m}
		return err
	})
	return l, err
}

// AddMessage appends the message of a PUT body to project (pkg "") or package project/pkg,
// written by who.
func (s *Service) AddMessage(who buildstore.Person, project, pkg string, body []byte) error {
	m, err := parseMessage(body)
	if err != nil {
		return err
	}
	return s.Store().Write(func(tx kv.Tx) error { return AddMessageTx(tx, who, project, pkg, m, s.Clock().Now()) })
}

// AddMessageTx is AddMessage of a parsed message (its text, severity, send_mail and private)
// at now inside the caller's transaction (the fixtures write the demo messages in theirs).
func AddMessageTx(tx kv.Tx, who buildstore.Person, project, pkg string, m buildstore.Message, now time.Time) error {
	if project == "" {
		return buildsvc.BadRequest("error creating message", "must give either project or package")
	}
	p, k, err := messageObject(tx, who, project, pkg)
	if err != nil {
		return err
	}
	if !mayChangeMessages(tx, who, p, k) {
		return buildsvc.Forbidden("permission denied", "message cannot be created, insufficient permissions")
	}
	if p.Locked || k.Locked {
		return buildsvc.Forbidden("project_locked", "The target project is locked")
	}
	if m.ID, err = buildstore.NewMessageID(tx); err != nil {
		return err
	}
	m.Project, m.Package, m.User, m.Created = project, pkg, who.Login, now.UTC()
	return buildstore.PutMessage(tx, m)
}

// DeleteMessage removes the message of the URL's id.
func (s *Service) DeleteMessage(who buildstore.Person, id string) error {
	return s.Store().Write(func(tx kv.Tx) error {
		m, err := messageByID(tx, who, id)
		if err != nil {
			return err
		}
		if m.User != who.Login {
			p, _ := buildstore.GetProject(tx, m.Project)
			var k buildstore.Package
			if m.Package != "" {
				k, _ = buildstore.GetPackage(tx, m.Project, m.Package)
			}
			if !mayChangeMessages(tx, who, p, k) {
				return buildsvc.Forbidden("permission denied", "message cannot be deleted, insufficient permissions")
			}
		}
		return buildstore.DeleteMessage(tx, m)
	})
}

// messageObject reads the object of a message route for who: 404 unknown_project (missing or
// hidden from who) or unknown_package. k is empty for a project.
func messageObject(tx kv.Tx, who buildstore.Person, project, pkg string) (buildstore.Project, buildstore.Package, error) {
	if err := buildsvc.VisibleProject(tx, who, project); err != nil {
		return buildstore.Project{}, buildstore.Package{}, err
	}
	if pkg == "" {
		p, err := buildstore.GetProject(tx, project)
		return p, buildstore.Package{}, buildsvc.NotFoundAs(err, "unknown_project")
	}
	return buildsvc.LookupPackage(tx, project, pkg)
}

// mayChangeMessages: the maintainers of the project (for a package also the package's) and Admin.
func mayChangeMessages(tx kv.Tx, who buildstore.Person, p buildstore.Project, k buildstore.Package) bool {
	return buildsvc.Maintains(tx, who, p.Persons, p.Groups) || k.Name != "" && buildsvc.Maintains(tx, who, k.Persons, k.Groups)
}

// messageByID reads the message of an id as the URL has it, for who: one that is not a number,
// or is on a project hidden from who, is as unknown as a missing one.
func messageByID(tx kv.Tx, who buildstore.Person, id string) (buildstore.Message, error) {
	notFound := fault.NotFound("not_found", "Couldn't find Message with 'id'=%s", id)
	n, err := strconv.ParseUint(id, 10, 64)
	if err != nil {
		return buildstore.Message{}, notFound
	}
	m, err := buildstore.GetMessage(tx, n)
	if err != nil {
		return m, err
	}
	if buildsvc.ProjectHiddenFrom(tx, who, m.Project) {
		return buildstore.Message{}, notFound
	}
	return m, nil
}

// messageXML is a PUT body; Children catches elements inside, which the schema refuses.
type messageXML struct {
	XMLName  xml.Name
	Private  *string `xml:"private,attr"`
	SendMail *string `xml:"send_mail,attr"`
	Severity *string `xml:"severity,attr"`
	Text     string  `xml:",chardata"`
	Children []struct {
		XMLName xml.Name
	} `xml:",any"`
}

// parseMessage checks a PUT body against the service's message schema and reads it.
func parseMessage(body []byte) (buildstore.Message, error) {
	var m buildstore.Message
	var d messageXML
	if err := metadoc.Unmarshal(body, &d); err != nil {
		var tooMany *metadoc.TooManyError
		if errors.As(err, &tooMany) {
			return m, buildsvc.Invalid("message", "%v", err)
		}
		return m, buildsvc.Invalid("message", "the body is not XML: %v", err)
	}
	if d.XMLName.Local != "message" {
		return m, buildsvc.Invalid("message", "Element '%s': No matching global declaration available for the validation root.", d.XMLName.Local)
	}
	if len(d.Children) > 0 {
		return m, buildsvc.Invalid("message", "Element '%s': This element is not expected.", d.Children[0].XMLName.Local)
	}
	attrs := []struct {
		name, typ string
		v         *string
	}{{"private", "xs:boolean", d.Private}, {"send_mail", "xs:boolean", d.SendMail}, {"severity", "xs:nonNegativeInteger", d.Severity}}
	for _, a := range attrs {
		if a.v == nil {
			return m, buildsvc.Invalid("message", "Element 'message': The attribute '%s' is required but missing.", a.name)
		}
		v := strings.TrimSpace(*a.v)
		var ok bool
		switch a.name {
		case "severity":
			n, err := strconv.Atoi(strings.TrimPrefix(v, "+"))
			ok = err == nil && n >= 0 && !strings.HasPrefix(v, "-")
			m.Severity = n
		case "private":
			m.Private, ok = xsBoolean(v)
		case "send_mail":
			m.SendMail, ok = xsBoolean(v)
		}
		if !ok {
			return m, buildsvc.Invalid("message", "Element 'message', attribute '%s': '%s' is not a valid value of the atomic type '%s'.", a.name, *a.v, a.typ)
		}
	}
	if len(d.Text) > MaxMessageText {
		return m, buildsvc.Invalid("message", "Element 'message': the text is longer than %d bytes.", MaxMessageText)
	}
	m.Text = d.Text
	return m, nil
}

// xsBoolean reads an xs:boolean: true, false, 1 or 0.
func xsBoolean(v string) (value, ok bool) {
	switch v {
	case "true", "1":
		return true, true
	case "false", "0":
		return false, true
	}
	return false, false
}
