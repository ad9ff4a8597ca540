package search

import (
	"encoding/xml"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// /search/person: every person (OBS has no /id form here), in login order, whatever their
// state, as OBS's users table holds them; the answer shows each as GET /person/<login> does.
//
// OBS's keys for persons are @login, @email, @realname and @state: columns of its users table,
// where the person document has child elements. The predicate is therefore evaluated on a
// search document (personMatchDoc) that carries the four as attributes of <person> besides
// the elements GET /person shows, so `@login='alice'` and `contains(@realname,'x')` mean what
// they mean in OBS.

// personMatchDoc is the document a person search evaluates (see above).
type personMatchDoc struct {
	XMLName     xml.Name `xml:"person"`
	LoginAttr   string   `xml:"login,attr"`
	EmailAttr   string   `xml:"email,attr"`
	NameAttr    string   `xml:"realname,attr"`
	StateAttr   string   `xml:"state,attr"`
	Login       string   `xml:"login"`
	Email       string   `xml:"email"`
	Realname    string   `xml:"realname"`
	State       string   `xml:"state"`
	GlobalRoles []string `xml:"globalrole"`
}

func personMatch(p buildstore.Person) personMatchDoc {
	return personMatchDoc{LoginAttr: p.Login, EmailAttr: p.Email, NameAttr: p.Realname, StateAttr: p.State,
		Login: p.Login, Email: p.Email, Realname: p.Realname, State: p.State, GlobalRoles: p.GlobalRoles}
}

// SearchPersons answers /search/person: the persons that match, by login, paged. A blank match
// is 400 empty_match (the route has no /id form).
func (s *Service) SearchPersons(who buildstore.Person, match string, page Page) (Found[buildstore.Person], error) {
	p := pager[buildstore.Person]{page: page}
	q, err := compileSearch("person", match, false)
	if err != nil {
		return p.found, err
	}
	names, byLogin := plannedValues(q.Plan(), "@login")
	err = s.db.View(func(tx kv.Tx) error {
		var persons []buildstore.Person
		var err error
		if byLogin {
			for _, login := range names {
				if person, err := buildstore.GetPerson(tx, login); err == nil {
					persons = append(persons, person)
				}
			}
		} else if persons, err = buildstore.Persons(tx); err != nil {
			return err
		}
		for _, person := range persons {
			ok, err := matches(q, personMatch(person))
			if err != nil {
				return err
			}
			if ok {
				p.add(person)
			}
		}
		return nil
	})
	return p.found, err
}
