package cloudapi

import (
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"go.etcd.io/bbolt"
)

// credentials shows an active database's root username and password.
func (d *dbAPI) credentials(fam string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		var user, password string
		err := d.read(c, fam, func(tx *bbolt.Tx, db cloudstore.Database, now time.Time) (err error) {
			user, password, err = cloudstore.DatabaseCredentials(tx, db, now)
			return err
		})
		if err != nil {
			return err
		}
		return c.JSON(fiber.Map{"username": user, "password": password})
	}
}

// resetCredentials gives the database a new random root password, read through the credentials
// view once the reset is over (a few seconds during which the database answers 400 "busy").
func (d *dbAPI) resetCredentials(fam string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		password, cl := cloudstore.NewDatabasePassword(), callerOf(c)
		return d.answerEmpty(c, d.write(c, fam, func(tx *bbolt.Tx, db cloudstore.Database, now time.Time) error {
			db, err := cloudstore.ResetDatabaseCredentials(tx, db, password, now)
			if err != nil {
				return err
			}
			return d.record(tx, cl, "database_credentials_reset", db.EventEntity(), now)
		}))
	}
}

// sslView is a DatabaseSSL: the CA certificate (PEM), base64-encoded by encoding/json.
type sslView struct {
	CACertificate []byte `json:"ca_certificate"`
}

// ssl shows an active database's CA certificate.
func (d *dbAPI) ssl(fam string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		var pem []byte
		err := d.read(c, fam, func(tx *bbolt.Tx, db cloudstore.Database, now time.Time) (err error) {
			pem, err = cloudstore.DatabaseCA(tx, db, now)
			return err
		})
		if err != nil {
			return err
		}
		return c.JSON(sslView{CACertificate: pem})
	}
}
