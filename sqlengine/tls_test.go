package sqlengine

import (
	"crypto/x509"
	"encoding/pem"
	"testing"
	"time"
)

func TestServerCert(t *testing.T) {
	now := time.Now()
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(testCA.cert)
	for _, tc := range []struct {
		name      string
		cert, key []byte
		hosts     []string
		verify    string // a name the certificate must verify for
		bad       bool
	}{
		{"ip and name", testCA.cert, testCA.key, []string{"127.0.0.1", "db.example.test"}, "db.example.test", false},
		{"ipv6", testCA.cert, testCA.key, []string{"::1"}, "::1", false},
		{"no host", testCA.cert, testCA.key, nil, "", true},
		{"cert not PEM", []byte("junk"), testCA.key, []string{"x"}, "", true},
		{"key not PEM", testCA.cert, []byte("junk"), []string{"x"}, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ServerCert(tc.cert, tc.key, tc.hosts, now)
			if (err != nil) != tc.bad {
				t.Fatalf("err %v", err)
			}
			if tc.bad {
				return
			}
			leaf, err := x509.ParseCertificate(c.Certificate[0])
			if err != nil {
				t.Fatal(err)
			}
			if _, err := leaf.Verify(x509.VerifyOptions{Roots: pool, DNSName: tc.verify, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}); err != nil {
				t.Fatalf("verify for %s: %v", tc.verify, err)
			}
		})
	}
}

// TestNewCA: the CA is a CA, and its key is kept (PKCS#8), unlike cloudstore's.
func TestNewCA(t *testing.T) {
	cb, _ := pem.Decode(testCA.cert)
	ca, err := x509.ParseCertificate(cb.Bytes)
	if err != nil || !ca.IsCA || ca.Subject.CommonName != "test Managed Database CA" {
		t.Fatalf("CA %v %+v", err, ca)
	}
	kb, _ := pem.Decode(testCA.key)
	if kb == nil || kb.Type != "PRIVATE KEY" {
		t.Fatal("key is not a PKCS#8 PEM block")
	}
	if _, err := x509.ParsePKCS8PrivateKey(kb.Bytes); err != nil {
		t.Fatal(err)
	}
}
