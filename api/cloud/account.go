package cloud

// bindAccount registers the account's own endpoints: settings, managed-enable, network
// transfer, logins, maintenance and notifications.
func (a *api) bindAccount(r *routes) {
}
