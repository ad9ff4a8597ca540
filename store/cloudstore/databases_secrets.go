package cloudstore

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// DatabaseSecrets are what a database's credentials and ssl views show. The root password is
// kept in plaintext, unlike the appliance's own secrets: the credentials view shows it again on
// every call (it opens a database of the user's, not the appliance). The CA certificate is made
// per database and its key kept beside it (CAKey), because a connectable instance's server
// certificate must be signed by the very CA the ssl view returns, so `mysql --ssl-ca` verifies
// it. Data files written before instances were connectable have no key: cloudsvc gives such an
// instance a new CA and key at its first connectable start (its ssl view then shows the new CA).
type DatabaseSecrets struct {
	Password string `json:"password"`
	CACert   []byte `json:"ca_cert"`          // PEM
	CAKey    []byte `json:"ca_key,omitempty"` // PEM (PKCS#8); never served
}

// passwordAlphabet has 64 symbols, so a random byte masked to 6 bits picks one without bias.
const passwordAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

// NewDatabasePassword returns a 20-character root password from crypto/rand (120 bits).
func NewDatabasePassword() string {
	b := make([]byte, 20)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on Linux
	}
	for i := range b {
		b[i] = passwordAlphabet[b[i]&63]
	}
	return string(b)
}

// NewDatabaseSecrets makes a new database's root password and self-signed CA certificate
// (ECDSA P-256, valid ten years from now) with its key. Handlers call it before their write transaction,
// which must not do slow or random work that a retried batch would redo differently.
func NewDatabaseSecrets(label string, now time.Time) (DatabaseSecrets, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return DatabaseSecrets{}, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return DatabaseSecrets{}, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{Organization: []string{"pocketforge"}, CommonName: label + " Managed Database CA"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.AddDate(10, 0, 0),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign | x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return DatabaseSecrets{}, err
	}
	kder, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return DatabaseSecrets{}, err
	}
	return DatabaseSecrets{Password: NewDatabasePassword(), CACert: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		CAKey: pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kder})}, nil
}

// RootUsername is the database's root user, as the real service names it.
func (d Database) RootUsername() string {
	if d.Engine == "postgresql" {
		return "linpostgres"
	}
	return "linroot"
}

// DatabaseSecretsOf reads a database's secrets.
func DatabaseSecretsOf(tx kv.Tx, id uint64) (DatabaseSecrets, error) {
	s, err := store.Get[DatabaseSecrets](tx, store.CloudDatabaseSecrets, store.Itob(id))
	if err != nil {
		return s, fmt.Errorf("database %d secrets: %w", id, err)
	}
	return s, nil
}

// PutDatabaseSecrets replaces a database's secrets.
func PutDatabaseSecrets(tx kv.Tx, id uint64, s DatabaseSecrets) error {
	return store.Put(tx, store.CloudDatabaseSecrets, store.Itob(id), s)
}
