package buildapi

import (
	"encoding/xml"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc/social"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// Status messages: GET and PUT /status_message/ (the seed's paths) and the 2.7-era service's
// own /status/messages (GET, PUT) and /status/messages/<id> (GET, DELETE). Messages: GET
// /message/ (?limit, ?project, ?project&package), GET and DELETE /message/<id>, PUT
// /message/?project=P[&package=K]. The rules are buildsvc's (status_messages.go, messages.go
// there).

func (a *api) bindMessages(r fiber.Router) {
	for _, path := range []string{"/status_message", "/status/messages"} { // also with a trailing /
		a.get(r, path, a.getStatusMessages)
		r.Put(path, a.authenticated, a.putStatusMessages)
	}
	a.get(r, "/status/messages/:id", a.getStatusMessage)
	r.Delete("/status/messages/:id", a.authenticated, a.deleteStatusMessage)
	a.get(r, "/message", a.getMessages)
	r.Put("/message", a.authenticated, a.putMessage)
	a.get(r, "/message/:id", a.getMessage)
	r.Delete("/message/:id", a.authenticated, a.deleteMessage)
}

// statusMessagesXML is the <status_messages> document.
type statusMessagesXML struct {
	XMLName  xml.Name           `xml:"status_messages"`
	Count    int                `xml:"count,attr"`
	Messages []statusMessageXML `xml:"message"`
}

// statusMessageXML is one status message, attributes in the service's order. Times are the
// service's database times, "2026-11-22 12:00:00 UTC"; deleted_at is there empty for a live
// message, as the service's view wrote it.
type statusMessageXML struct {
	ID       uint64 `xml:"msg_id,attr"`
	User     string `xml:"user,attr"`
	Severity int    `xml:"severity,attr"`
	Created  string `xml:"created_at,attr"`
	Deleted  string `xml:"deleted_at,attr"`
	Text     string `xml:",chardata"`
}

func statusMessageDoc(m buildstore.StatusMessage) statusMessageXML {
	d := statusMessageXML{ID: m.ID, User: m.User, Severity: m.Severity, Created: dbTime(m.Created), Text: m.Text}
	if m.Deleted != nil {
		d.Deleted = dbTime(*m.Deleted)
	}
	return d
}

func statusMessagesDoc(list []buildstore.StatusMessage) statusMessagesXML {
	return statusMessagesXML{Count: len(list), Messages: docsOf(list, statusMessageDoc)}
}

// messagesXML is the <messages> document: project and package name the object of its list.
type messagesXML struct {
	XMLName  xml.Name     `xml:"messages"`
	Count    int          `xml:"count,attr"`
	Project  string       `xml:"project,attr,omitempty"`
	Package  string       `xml:"package,attr,omitempty"`
	Messages []messageXML `xml:"message"`
}

// messageXML is one message, attributes in the service's order; created_at is xs:dateTime.
type messageXML struct {
	Severity int    `xml:"severity,attr"`
	User     string `xml:"user,attr,omitempty"`
	SendMail bool   `xml:"send_mail,attr"`
	Private  bool   `xml:"private,attr"`
	ID       uint64 `xml:"msg_id,attr"`
	Created  string `xml:"created_at,attr"`
	Text     string `xml:",chardata"`
}

func messagesDoc(l social.MessageList) messagesXML {
	return messagesXML{Count: len(l.Messages), Project: l.Project, Package: l.Package,
		Messages: docsOf(l.Messages, func(m buildstore.Message) messageXML {
			return messageXML{Severity: m.Severity, User: m.User, SendMail: m.SendMail, Private: m.Private, ID: m.ID,
				Created: m.Created.UTC().Format("2006-01-02T15:04:05Z07:00"), Text: m.Text}
		})}
}

// dbTime is a time as the service's database printed it.
func dbTime(t time.Time) string {
	return t.UTC().Format("2006-01-02 15:04:05") + " UTC"
}

func (a *api) getStatusMessages(c *fiber.Ctx) error {
	return replyXML(c, statusMessagesDoc)(a.Build.Social.StatusMessages(personOf(c), c.Query("limit")))
}

func (a *api) getStatusMessage(c *fiber.Ctx) error {
	one := func(m buildstore.StatusMessage) statusMessagesXML {
		return statusMessagesDoc([]buildstore.StatusMessage{m})
	}
	return replyXML(c, one)(a.Build.Social.StatusMessage(personOf(c), pathParam(c, "id")))
}

func (a *api) putStatusMessages(c *fiber.Ctx) error {
	return replyOK(c, a.Build.Social.SendStatusMessages(personOf(c), c.Body()))
}

func (a *api) deleteStatusMessage(c *fiber.Ctx) error {
	return replyOK(c, a.Build.Social.DeleteStatusMessage(personOf(c), pathParam(c, "id")))
}

func (a *api) getMessages(c *fiber.Ctx) error {
	q := social.MessageQuery{Project: c.Query("project"), Package: c.Query("package"), Limit: c.Query("limit")}
	return replyXML(c, messagesDoc)(a.Build.Social.Messages(personOf(c), q))
}

func (a *api) getMessage(c *fiber.Ctx) error {
	return replyXML(c, messagesDoc)(a.Build.Social.Message(personOf(c), pathParam(c, "id")))
}

func (a *api) putMessage(c *fiber.Ctx) error {
	return replyOK(c, a.Build.Social.AddMessage(personOf(c), c.Query("project"), c.Query("package"), c.Body()))
}

func (a *api) deleteMessage(c *fiber.Ctx) error {
	return replyOK(c, a.Build.Social.DeleteMessage(personOf(c), pathParam(c, "id")))
}
