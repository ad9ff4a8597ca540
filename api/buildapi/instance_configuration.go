package buildapi

import (
	"encoding/xml"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// bindInstance registers the instance-wide documents Admin maintains: the configuration,
// the hosted distributions and the issue trackers.
func (a *api) bindInstance(r fiber.Router) {
	a.get(r, "/configuration", answer(a.Svc.Configuration, configurationDoc))
	r.Put("/configuration", a.authenticated, a.putConfiguration)
	a.get(r, "/distributions", answer(a.Svc.Distributions, distributionsDoc))
	// include_remotes is registered before :id so it is not read as a distribution id. It is
	// the same list: an appliance has no remote instances.
	a.get(r, "/distributions/include_remotes", answer(a.Svc.Distributions, distributionsDoc))
	a.get(r, "/distributions/:id", answerNamed("id", a.Svc.Distribution, distributionDoc))
	r.Put("/distributions", a.authenticated, a.putDistributions)
	r.Post("/distributions/:id", a.authenticated, a.postDistribution)
	a.get(r, "/issue_trackers", answer(a.Svc.Trackers, trackersDoc))
	a.get(r, "/issue_trackers/show_url_for", a.showURLFor)
	a.get(r, "/issue_trackers/:name", answerNamed("name", a.Svc.Tracker, trackerDoc))
	r.Put("/issue_tracker/:name", a.authenticated, a.putTracker)
	r.Post("/issue_tracker/:name", a.authenticated, a.putTracker)
	r.Delete("/issue_tracker/:name", a.authenticated, a.deleteTracker)
}

// configurationXML is the configuration document. Schedulers is a pointer so a PUT that
// leaves <schedulers> out keeps the stored architectures.
type configurationXML struct {
	XMLName     xml.Name `xml:"configuration"`
	Title       string   `xml:"title"`
	Description string   `xml:"description"`
	Name        string   `xml:"name"`
	// Registration is one of buildstore.RegistrationModes; a PUT without it keeps the stored one.
	Registration string         `xml:"registration,omitempty"`
	Schedulers   *schedulersXML `xml:"schedulers"`
}

type schedulersXML struct {
	Archs []string `xml:"arch"`
}

func configurationDoc(conf buildstore.Configuration) configurationXML {
	return configurationXML{Title: conf.Title, Description: conf.Description, Name: conf.Name,
		Registration: conf.RegistrationMode(), Schedulers: &schedulersXML{Archs: conf.Schedulers}}
}

// putConfiguration updates title, description, registration and schedulers (Admin; see
// buildsvc.ConfigurationChange).
func (a *api) putConfiguration(c *fiber.Ctx) error {
	var d configurationXML
	err := parseMeta(c.Body(), &d, "configuration")
	ch := buildsvc.ConfigurationChange{Title: d.Title, Description: d.Description, Registration: d.Registration,
		SetSchedulers: d.Schedulers != nil}
	if d.Schedulers != nil {
		ch.Schedulers = d.Schedulers.Archs
	}
	return replyOK(c, a.Svc.ChangeConfiguration(personOf(c), ch, err))
}
