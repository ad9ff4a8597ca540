package cloud

// bindBilling registers the account record, cancel, payment methods, payments, the deprecated
// credit-card and wallet endpoints, promo codes and invoices.
func (a *api) bindBilling(r *routes) {
}
