package cloudsvc

import (
	"bytes"
	"encoding/json"
	"sync"
	"sync/atomic"

	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// accountCodec keeps accounts decoded by their exact stored bytes, and with each the encoding of
// the same account with other settings, so that a settings write — the account's hot write, 64
// at once under load — neither decodes nor encodes inside its transaction once the same change
// of the same account has been seen: it compares the stored bytes and stores bytes encoded before. In a
// group commit the writes' functions run one after another inside one transaction, so whatever
// one of them computes there delays every other. An entry keyed by the bytes it was decoded
// from is never stale, whatever commits or rolls back.
type accountCodec struct {
	mu sync.Mutex
	m  map[string]*codedAccount
	// last is, per account id, the account last decoded or encoded: a guess of its current state
	// for what may be prepared before a transaction (which checks the guess in it).
	last map[uint64]*codedAccount
	// work counts the accounts decoded and encoded (the misses), for tests.
	work atomic.Int64
}

// codedAccount is an account with its encoding. It is shared: never modify it.
type codedAccount struct {
	acct cloudstore.Account
	raw  []byte
	// variants are the account with other settings switched (guarded by accountCodec.mu).
	variants map[settingsSwitch]*codedAccount
}

// settingsSwitch are the settings UpdateSettings changes.
type settingsSwitch struct{ networkHelper, backups bool }

// maxCodedAccounts bounds the codec: it is emptied when full (accounts are few; an account
// whose other fields change leaves its old states behind).
const maxCodedAccounts = 256

func newAccountCodec() *accountCodec {
	return &accountCodec{m: map[string]*codedAccount{}, last: map[uint64]*codedAccount{}}
}

// lastSeen returns the account id last decoded or encoded, or nil.
func (c *accountCodec) lastSeen(id uint64) *codedAccount {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.last[id]
}

// decode returns the account stored as raw (which it does not keep: bbolt's bytes are valid only
// in their transaction).
func (c *accountCodec) decode(raw []byte) (*codedAccount, error) {
	c.mu.Lock()
	ca := c.m[string(raw)]
	c.mu.Unlock()
	if ca != nil {
		return ca, nil
	}
	c.work.Add(1)
	ca = &codedAccount{raw: bytes.Clone(raw)}
	if err := json.Unmarshal(raw, &ca.acct); err != nil {
		return nil, err
	}
	c.mu.Lock()
	ca = c.keep(ca)
	c.mu.Unlock()
	return ca, nil
}

// withSettings returns ca's account with the switches set to s, encoded as PutAccount encodes.
func (c *accountCodec) withSettings(ca *codedAccount, s settingsSwitch) (*codedAccount, error) {
	c.mu.Lock()
	v := ca.variants[s]
	c.mu.Unlock()
	if v != nil {
		return v, nil
	}
	c.work.Add(1)
	acct := ca.acct
	acct.Settings.NetworkHelper, acct.Settings.BackupsEnabled = s.networkHelper, s.backups
	raw, err := json.Marshal(acct)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	v = c.keep(&codedAccount{acct: acct, raw: raw})
	if ca.variants == nil {
		ca.variants = map[settingsSwitch]*codedAccount{}
	}
	ca.variants[s] = v
	return v, nil
}

// keep files ca unless an entry with the same bytes is there, and returns the entry kept (c.mu
// held).
func (c *accountCodec) keep(ca *codedAccount) *codedAccount {
	if old := c.m[string(ca.raw)]; old != nil {
		c.last[old.acct.ID] = old
		return old
	}
	if len(c.m) >= maxCodedAccounts {
		clear(c.m)
		clear(c.last)
	}
	c.m[string(ca.raw)] = ca
	c.last[ca.acct.ID] = ca
	return ca
}
