package cloud

// bindEvents registers the events endpoints.
func (a *api) bindEvents(r *routes) {
}
