package store

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"unsafe"
)

// HashSecret is how every random secret (tokens, client secrets, codes, setup links) is stored:
// its SHA-256. A secret with 128+ random bits needs no slow hash, and a cheap one lets every
// request be authenticated without a write or a bcrypt round.
func HashSecret(secret string) []byte {
	h := SecretSum(secret)
	return h[:]
}

// SecretSum is HashSecret as an array, hashed in place: a comparable key for the memories of
// authenticated callers that costs no allocation per request.
func SecretSum(secret string) [sha256.Size]byte {
	return sha256.Sum256(unsafe.Slice(unsafe.StringData(secret), len(secret))) // read only
}

// RandomHex returns n bytes from crypto/rand as hex (64 characters for 32 bytes, the shape of the
// real services' tokens).
func RandomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on Linux
	}
	return hex.EncodeToString(b)
}
