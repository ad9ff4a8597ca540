package explorerapi

import (
	"bytes"
	"encoding/json"

	"github.com/gofiber/fiber/v2"
)

// backendConfig answers GET /api/backend-config: the build backend's configuration document
// turned into JSON the way an XML-to-JSON conversion does it (explorer-notes §4.7): each
// element a key with its text, in the document's order, and <schedulers><arch>… as
// {"schedulers": {"arch": [...]}} — an array even for one arch or none, so a client never has
// to tell a string from a list.
func (a *api) backendConfig(c *fiber.Ctx) error {
	conf, err := a.Explorer.BackendConfiguration(c.Context())
	if err != nil {
		return err
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for _, s := range conf.Settings {
		key, _ := json.Marshal(s.Name)
		val, _ := json.Marshal(s.Value)
		b.Write(key)
		b.WriteByte(':')
		b.Write(val)
		b.WriteByte(',')
	}
	archs := conf.Schedulers
	if archs == nil {
		archs = []string{}
	}
	list, _ := json.Marshal(archs)
	b.WriteString(`"schedulers":{"arch":`)
	b.Write(list)
	b.WriteString("}}")
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	return c.Send(b.Bytes())
}
