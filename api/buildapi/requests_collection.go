package buildapi

import (
	"encoding/xml"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc/requests"
)

// The request listing, GET /request: with view=collection the requests the filters select
// (buildsvc.RequestCollection holds the rules), else the directory of every request number, as
// OBS 2.7 answers it.

// bindRequestCollection registers GET /request.
func (a *api) bindRequestCollection(r fiber.Router) { a.get(r, "/request", a.listRequests) }

// requestDirectory is OBS's plain listing: <directory><entry name="<number>"/>…</directory>,
// without the count other directories carry.
type requestDirectory struct {
	XMLName xml.Name `xml:"directory"`
	Entries []entry  `xml:"entry"`
}

// listRequests is GET /request[?view=collection&user=&group=&project=&package=&states=&types=
// &roles=&reviewstates=&ids=&withhistory=1|withfullhistory=1]; the lists are comma-separated.
func (a *api) listRequests(c *fiber.Ctx) error {
	if c.Query("view") != "collection" {
		ids, err := a.Requests.RequestNumbers(personOf(c))
		if err != nil {
			return err
		}
		d := requestDirectory{Entries: make([]entry, len(ids))}
		for i, id := range ids {
			d.Entries[i] = entry{Name: strconv.FormatUint(id, 10)}
		}
		return sendXML(c, d)
	}
	f := requests.RequestFilter{User: c.Query("user"), Group: c.Query("group"), Project: c.Query("project"),
		Package: c.Query("package"), States: commaList(c.Query("states")), Types: commaList(c.Query("types")),
		Roles: commaList(c.Query("roles")), ReviewStates: commaList(c.Query("reviewstates"))}
	for _, s := range commaList(c.Query("ids")) {
		id, _ := strconv.ParseUint(s, 10, 64) // as OBS's to_i: not a number is 0, which no request has
		f.IDs = append(f.IDs, id)
	}
	list, err := a.Requests.RequestCollection(personOf(c), f)
	if err != nil {
		return err
	}
	return sendRequests(c, len(list), list, historyMode(c))
}

// commaList splits a comma-separated parameter, leaving out empty items.
func commaList(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
