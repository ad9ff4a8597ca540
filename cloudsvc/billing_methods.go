package cloudsvc

import (
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// MayWriteAccount says whether by may change account-wide billing records whose scope is only
// read_only (the guard checks the grant at the scope's level): restricted users need the
// read_write account grant.
func MayWriteAccount(by cloudstore.User) error {
	if by.Restricted && by.Grants.AccountAccess() != cloudstore.ReadWrite {
		return errUnauthorized
	}
	return nil
}

// PaymentMethods lists account's active payment methods.
func (s *Service) PaymentMethods(account uint64) ([]cloudstore.PaymentMethod, error) {
	var list []cloudstore.PaymentMethod
	err := s.db.View(func(tx kv.Tx) (err error) {
		list, err = cloudstore.ActivePaymentMethods(tx, account)
		return err
	})
	return list, err
}

// PaymentMethod returns account's payment method id.
func (s *Service) PaymentMethod(account, id uint64) (cloudstore.PaymentMethod, error) {
	var pm cloudstore.PaymentMethod
	err := s.db.View(func(tx kv.Tx) (err error) {
		pm, err = cloudstore.AccountPaymentMethod(tx, account, id)
		return err
	})
	return pm, err
}

// AddPaymentMethod adds the card in to by's account and records action (payment_method_add, or
// credit_card_updated for the deprecated credit-card endpoint). parsed are the problems the
// caller found reading the request (see CreateUser).
func (s *Service) AddPaymentMethod(by cloudstore.User, in cloudstore.NewPaymentMethod, action string, parsed store.Problems) error {
	now := s.clk.Now()
	return s.db.Write(func(tx kv.Tx) error {
		acct, err := cloudstore.GetAccount(tx, by.AccountID)
		if err != nil {
			return err
		}
		if _, err := AddPaymentMethod(tx, acct, in, now); withParsed(parsed, err) != nil {
			return withParsed(parsed, err)
		}
		return record(tx, by, action, nil, now)
	})
}

// DeletePaymentMethod deactivates payment method id of by's account; the default one cannot be
// deleted. by needs write access to the account (MayWriteAccount).
func (s *Service) DeletePaymentMethod(by cloudstore.User, id uint64) error {
	if err := MayWriteAccount(by); err != nil {
		return err
	}
	return s.changePaymentMethod(by.AccountID, id, deletePaymentMethod)
}

// MakeDefaultPaymentMethod makes payment method id of by's account its default.
func (s *Service) MakeDefaultPaymentMethod(by cloudstore.User, id uint64) error {
	return s.changePaymentMethod(by.AccountID, id, cloudstore.SetDefaultPaymentMethod)
}

// changePaymentMethod applies change to account's method id.
func (s *Service) changePaymentMethod(account, id uint64, change func(kv.Tx, cloudstore.PaymentMethod) error) error {
	return s.db.Write(func(tx kv.Tx) error {
		pm, err := cloudstore.AccountPaymentMethod(tx, account, id)
		if err != nil {
			return err
		}
		return change(tx, pm)
	})
}
