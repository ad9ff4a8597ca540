package cloudapi

import (
	"github.com/gofiber/fiber/v2"
)

// credentials shows an active database's root username and password.
func (d *dbAPI) credentials(fam string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		id, err := pathID(c, "instanceId")
		if err != nil {
			return err
		}
		user, password, err := d.Cloud.DatabaseCredentials(callerOf(c).User, fam, id)
		if err != nil {
			return err
		}
		return c.JSON(fiber.Map{"username": user, "password": password})
	}
}

// resetCredentials gives the database a new random root password, readable through the
// credentials view at once, and answers {}.
func (d *dbAPI) resetCredentials(fam string) fiber.Handler {
	return d.action(fam, d.Cloud.ResetDatabaseCredentials)
}

// sslView is a DatabaseSSL: the CA certificate (PEM), base64-encoded by encoding/json.
type sslView struct {
	CACertificate []byte `json:"ca_certificate"`
}

// ssl shows an active database's CA certificate.
func (d *dbAPI) ssl(fam string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		id, err := pathID(c, "instanceId")
		if err != nil {
			return err
		}
		pem, err := d.Cloud.DatabaseCA(callerOf(c).User, fam, id)
		if err != nil {
			return err
		}
		return c.JSON(sslView{CACertificate: pem})
	}
}
