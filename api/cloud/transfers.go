package cloud

// bindTransfers registers service transfers and their deprecated twin, entity transfers.
func (a *api) bindTransfers(r *routes) {
}
