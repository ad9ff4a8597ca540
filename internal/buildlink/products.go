package buildlink

import (
	"context"
	"io/fs"

	"github.com/pocketforge/pocketforge/explorersvc"
)

// Products are the product media published in project, for Who. None until the build
// service lists them (buildsvc.Service.PublishedProducts).
func (b *Backend) Products(context.Context, string) ([]explorersvc.ProductMedium, error) {
	return nil, nil // wired in the lead's farm commit
}

// ProductFiles are a published medium's files (buildsvc.Service.ProductFiles). None until the
// build service serves them.
func (b *Backend) ProductFiles(context.Context, explorersvc.ProductMedium) (fs.FS, error) {
	return nil, nil // wired in the lead's farm commit
}
