package sqlengine

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"time"
)

// ServerCert issues an instance's server certificate, signed by its CA, for hosts (DNS names or
// IP addresses; the first is the subject's common name). It is valid from an hour before now for
// one year, so a clock moved back a little by a demo does not make it "not yet valid"; the caller
// issues a new one at each Start, so it never needs renewing while the appliance runs.
func ServerCert(caCertPEM, caKeyPEM []byte, hosts []string, now time.Time) (tls.Certificate, error) {
	ca, caKey, err := parseCA(caCertPEM, caKeyPEM)
	if err != nil {
		return tls.Certificate{}, err
	}
	if len(hosts) == 0 {
		return tls.Certificate{}, errors.New("sqlengine: server certificate needs at least one host")
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{Organization: []string{"pocketforge"}, CommonName: hosts[0]},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.AddDate(1, 0, 0),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.Certificate{Certificate: [][]byte{der, ca.Raw}, PrivateKey: key}, nil
}

// parseCA decodes a CA certificate and its key (PKCS#8, EC or PKCS#1 PEM).
func parseCA(certPEM, keyPEM []byte) (*x509.Certificate, any, error) {
	cb, _ := pem.Decode(certPEM)
	if cb == nil {
		return nil, nil, errors.New("sqlengine: CA certificate is not PEM")
	}
	ca, err := x509.ParseCertificate(cb.Bytes)
	if err != nil {
		return nil, nil, fmt.Errorf("sqlengine: CA certificate: %w", err)
	}
	kb, _ := pem.Decode(keyPEM)
	if kb == nil {
		return nil, nil, errors.New("sqlengine: CA key is not PEM")
	}
	key, err := x509.ParsePKCS8PrivateKey(kb.Bytes)
	if err != nil {
		if k, err2 := x509.ParseECPrivateKey(kb.Bytes); err2 == nil {
			key = k
		} else if k, err3 := x509.ParsePKCS1PrivateKey(kb.Bytes); err3 == nil {
			key = k
		} else {
			return nil, nil, fmt.Errorf("sqlengine: CA key: %w", err)
		}
	}
	return ca, key, nil
}

// serial is a random 127-bit certificate serial number.
func serial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		panic(err) // crypto/rand does not fail on Linux
	}
	return n
}
