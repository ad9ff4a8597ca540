package social

import (
	"encoding/xml"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"

	"github.com/pocketforge/pocketforge/buildsvc/metadoc"
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Status messages (GET and PUT /status_message/, and the 2.7-era service's own routes GET and
// PUT /status/messages, GET and DELETE /status/messages/<id>), as its StatusController and
// StatusMessage model keep them:
//   - everyone signed in reads them, newest first, deleted ones left out; ?limit=N keeps the N
//     newest (0 keeps none, as the service's SQL LIMIT did); GET /status/messages/<id> shows
//     one, deleted or not;
//   - sending and deleting need the status_message_create permission, which only the Admin
//     role holds (the service's static permission; there are no other global roles here);
//     anyone else hears 403 permission_denied before the body is read;
//   - a PUT body is one <message severity="N">text</message>, or any element holding several
//     <message> elements (<status_messages>…): each becomes a status message of the sender;
//   - severity is a whole number; the service's schema gives 0 informal, 1 status good (green),
//     2 mid critical (yellow), 3 critical (red). It is kept and shown as the number.
//   - a delete only stamps the message deleted (the service's deleted_at).
//
// Decided where the service was loose: a PUT of several messages stores all or none (the service
// saved them one by one, keeping those before a bad one); a severity that is not a whole number
// ≥ 0 is refused (the service's integer column read "abc" as 0); a text is at most
// MaxMessageText bytes (the service's text column); deleting a deleted message again is Ok and
// keeps the first time.

// MaxMessageText is the longest text of a message or status message, in bytes.
const MaxMessageText = 65535

// StatusMessages lists the live status messages, newest first; limit is the URL's ("" for all).
func (s *Service) StatusMessages(who buildstore.Person, limit string) ([]buildstore.StatusMessage, error) {
	n, err := messageLimit(limit)
	if err != nil {
		return nil, err
	}
	var out []buildstore.StatusMessage
	err = s.Store().View(func(tx kv.Tx) error {
		out, err = buildstore.LiveStatusMessages(tx, n)
		return err
	})
	return out, err
}

// StatusMessage reads one status message by the id of the URL, deleted or not.
func (s *Service) StatusMessage(who buildstore.Person, id string) (buildstore.StatusMessage, error) {
	var m buildstore.StatusMessage
	err := s.Store().View(func(tx kv.Tx) error {
		var err error
		m, err = statusMessageByID(tx, id)
		return err
	})
	return m, err
}

// SendStatusMessages stores the status messages of a PUT body, sent by who.
func (s *Service) SendStatusMessages(who buildstore.Person, body []byte) error {
	if !who.IsAdmin() {
		return buildsvc.Forbidden("permission_denied", "message(s) cannot be created, you have not sufficient permissions")
	}
	list, err := parseStatusMessages(body)
	if err != nil {
		return err
	}
	return s.Store().Write(func(tx kv.Tx) error { return SendStatusMessagesTx(tx, who, list, s.Clock().Now()) })
}

// SendStatusMessagesTx is SendStatusMessages of parsed messages (text and severity) at now
// inside the caller's transaction (the fixtures announce the demo in theirs).
func SendStatusMessagesTx(tx kv.Tx, who buildstore.Person, list []buildstore.StatusMessage, now time.Time) error {
	if !who.IsAdmin() {
		return buildsvc.Forbidden("permission_denied", "message(s) cannot be created, you have not sufficient permissions")
	}
	for _, m := range list {
		id, err := buildstore.NewStatusMessageID(tx)
		if err != nil {
			return err
		}
		m.ID, m.User, m.Created = id, who.Login, now.UTC()
		if err := buildstore.PutStatusMessage(tx, m); err != nil {
			return err
		}
	}
	return nil
}

// DeleteStatusMessage marks the status message of the URL's id deleted.
func (s *Service) DeleteStatusMessage(who buildstore.Person, id string) error {
	if !who.IsAdmin() {
		return buildsvc.Forbidden("permission_denied", "message cannot be deleted, you have not sufficient permissions")
	}
	return s.Store().Write(func(tx kv.Tx) error {
		m, err := statusMessageByID(tx, id)
		if err != nil || m.Deleted != nil {
			return err
		}
		now := s.Clock().Now().UTC()
		m.Deleted = &now
		return buildstore.PutStatusMessage(tx, m)
	})
}

// statusMessageByID reads the status message of an id as the URL has it: one that is not a
// number is as unknown as a missing one.
func statusMessageByID(tx kv.Tx, id string) (buildstore.StatusMessage, error) {
	n, err := strconv.ParseUint(id, 10, 64)
	if err != nil {
		return buildstore.StatusMessage{}, fault.NotFound("not_found", "Couldn't find StatusMessage with 'id'=%s", id)
	}
	return buildstore.GetStatusMessage(tx, n)
}

// messageLimit reads the limit of a message list: "" is no limit (-1); otherwise a whole number
// ≥ 0, else 400 invalid_parameter.
func messageLimit(s string) (int, error) {
	if s == "" {
		return -1, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 0 {
		return 0, buildsvc.BadRequest("invalid_parameter", "limit '%s' is not a number (a whole number, the most messages to list)", s)
	}
	return n, nil
}

// statusMessageXML is a PUT body: a <message>, or an element holding <message> elements.
type statusMessageXML struct {
	XMLName  xml.Name
	Severity *string             `xml:"severity,attr"`
	Text     string              `xml:",chardata"`
	Messages []statusMessageItem `xml:"message"`
}

type statusMessageItem struct {
	Severity *string `xml:"severity,attr"`
	Text     string  `xml:",chardata"`
}

// parseStatusMessages reads a PUT body: 400 invalid_xml when it is no XML, creating_messages
// when it holds no message, invalid_record for a message without a text or a severity.
func parseStatusMessages(body []byte) ([]buildstore.StatusMessage, error) {
	var d statusMessageXML
	if err := metadoc.Unmarshal(body, &d); err != nil {
		var tooMany *metadoc.TooManyError
		if errors.As(err, &tooMany) && tooMany.Text && tooMany.Element == "message" {
			return nil, buildsvc.BadRequest("invalid_record", "Message is too long (maximum is %d bytes)", MaxMessageText)
		}
		if errors.As(err, &tooMany) {
			return nil, buildsvc.BadRequest("invalid_xml", "%v", err)
		}
		return nil, buildsvc.BadRequest("invalid_xml", "the body is not a status message document: %v", err)
	}
	items := d.Messages
	if len(items) == 0 {
		if d.XMLName.Local != "message" {
			return nil, buildsvc.BadRequest("creating_messages", "no message <%s/>: send <message severity=\"0\">text</message>", d.XMLName.Local)
		}
		items = []statusMessageItem{{Severity: d.Severity, Text: d.Text}}
	}
	out := make([]buildstore.StatusMessage, 0, len(items))
	for _, it := range items {
		var problems []string
		severity := 0
		switch {
		case it.Severity == nil || strings.TrimSpace(*it.Severity) == "":
			problems = append(problems, "Severity can't be blank")
		default:
			n, err := strconv.Atoi(strings.TrimSpace(*it.Severity))
			if err != nil || n < 0 {
				problems = append(problems, fmt.Sprintf("Severity is not a whole number ≥ 0: %q", *it.Severity))
			}
			severity = n
		}
		if strings.TrimSpace(it.Text) == "" {
			problems = append(problems, "Message can't be blank")
		}
		if len(it.Text) > MaxMessageText {
			problems = append(problems, fmt.Sprintf("Message is too long (maximum is %d bytes)", MaxMessageText))
		}
		if len(problems) > 0 {
			return nil, buildsvc.BadRequest("invalid_record", "%s", strings.Join(problems, ", "))
		}
		out = append(out, buildstore.StatusMessage{Text: it.Text, Severity: severity})
	}
	return out, nil
}
