package buildapi

import (
	"encoding/xml"
	"slices"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"go.etcd.io/bbolt"
)

// bindInstance registers the instance-wide documents Admin maintains: the configuration,
// the hosted distributions and the issue trackers.
func (a *api) bindInstance(r fiber.Router) {
	a.get(r, "/configuration", a.getConfiguration)
	r.Put("/configuration", a.authenticated, a.putConfiguration)
	a.get(r, "/distributions", a.listDistributions)
	// include_remotes is registered before :id so it is not read as a distribution id.
	a.get(r, "/distributions/include_remotes", a.listDistributions)
	a.get(r, "/distributions/:id", a.getDistribution)
	r.Put("/distributions", a.authenticated, a.putDistributions)
	r.Post("/distributions/:id", a.authenticated, a.postDistribution)
	a.get(r, "/issue_trackers", a.listTrackers)
	a.get(r, "/issue_trackers/show_url_for", a.showURLFor)
	a.get(r, "/issue_trackers/:name", a.getTracker)
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

func (a *api) getConfiguration(c *fiber.Ctx) error {
	var conf buildstore.Configuration
	if err := a.Store.View(func(tx *bbolt.Tx) (err error) { conf, err = buildstore.GetConfiguration(tx); return }); err != nil {
		return err
	}
	return sendXML(c, configurationXML{Title: conf.Title, Description: conf.Description, Name: conf.Name,
		Registration: conf.RegistrationMode(), Schedulers: &schedulersXML{Archs: conf.Schedulers}})
}

// putConfiguration updates title, description, registration and schedulers (Admin). The name is the
// instance's identity and stays; schedulers must be architectures the service knows, each once.
func (a *api) putConfiguration(c *fiber.Ctx) error {
	if err := adminOnly(personOf(c), "change the configuration"); err != nil {
		return err
	}
	var d configurationXML
	if err := parseMeta(c.Body(), &d, "configuration"); err != nil {
		return err
	}
	if d.Registration != "" && !slices.Contains(buildstore.RegistrationModes, d.Registration) {
		return buildsvc.Invalid("configuration", "registration must be allow, confirmation or deny, not '%s'", d.Registration)
	}
	if d.Schedulers != nil {
		for i, arch := range d.Schedulers.Archs {
			if !slices.Contains(buildsvc.Architectures, arch) || slices.Contains(d.Schedulers.Archs[:i], arch) {
				return buildsvc.Invalid("configuration", "unknown or repeated scheduler architecture '%s'", arch)
			}
		}
	}
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		conf, err := buildstore.GetConfiguration(tx)
		if err != nil {
			return err
		}
		conf.Title, conf.Description = d.Title, d.Description
		if d.Registration != "" {
			conf.Registration = d.Registration
		}
		if d.Schedulers != nil {
			conf.Schedulers = append([]string{}, d.Schedulers.Archs...)
		}
		return buildstore.PutConfiguration(tx, conf)
	})
	if err != nil {
		return err
	}
	return sendOK(c)
}
