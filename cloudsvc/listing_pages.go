package cloudsvc

import (
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Listings in index order, one page at a time. An account's invoices, payments and OAuth
// clients are listed in their index's key order (the order Invoices, Payments and AccountClients
// return), so a listing that neither filters nor orders needs only the page it shows: the index
// keys are counted, the page's records decoded (store.IndexedPage), instead of decoding every
// record — each invoice with all its items — to show a hundred. window picks the entries
// [from, to) for a total; it is listing.Window's rule, kept in the API that owns paging.

// Window picks the entries [from, to) one page shows out of total.
type Window func(total int) (from, to int)

// InvoicesPage is the page of account's invoices window picks, and how many there are.
func (s *Service) InvoicesPage(account uint64, window Window) ([]cloudstore.Invoice, int, error) {
	return indexedPage[cloudstore.Invoice](s, store.CloudAccountInvoices, account, store.CloudInvoices, window)
}

// PaymentsPage is the page of account's payments window picks, and how many there are.
func (s *Service) PaymentsPage(account uint64, window Window) ([]cloudstore.Payment, int, error) {
	return indexedPage[cloudstore.Payment](s, store.CloudAccountPayments, account, store.CloudPayments, window)
}

// AccountClientsPage is the page of account's OAuth clients window picks, and how many there are.
func (s *Service) AccountClientsPage(account uint64, window Window) ([]cloudstore.Client, int, error) {
	return indexedPage[cloudstore.Client](s, store.CloudAccountClients, account, store.CloudClients, window)
}

// indexedPage reads one page of the records an account's index entries name.
func indexedPage[T any](s *Service, index string, account uint64, records string, window Window) (page []T, total int, err error) {
	err = s.db.View(func(tx kv.Tx) error {
		page, total, err = store.IndexedPage[T](tx, index, store.Itob(account), records, window)
		return err
	})
	return page, total, err
}
