package buildlink

import (
	"context"
	"errors"
	"io/fs"

	"github.com/pocketforge/pocketforge/buildsvc/farm"
	"github.com/pocketforge/pocketforge/explorersvc"
	"github.com/pocketforge/pocketforge/store"
)

// Products are the product media the farm published in project, as Who may see them
// (buildsvc.Service.PublishedProducts); a project unknown or hidden from Who answers
// ErrNoProject, as Results does.
func (b *Backend) Products(_ context.Context, project string) ([]explorersvc.ProductMedium, error) {
	list, err := b.Farm.PublishedProducts(b.Who, project)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errors.Join(explorersvc.ErrNoProject, err)
	}
	if err != nil {
		return nil, err
	}
	out := make([]explorersvc.ProductMedium, len(list))
	for i, m := range list {
		out[i] = explorersvc.ProductMedium(m)
	}
	return out, nil
}

// ProductFiles are a published medium's files, rooted at the medium
// (buildsvc.Service.ProductFiles), as Who may read them.
func (b *Backend) ProductFiles(_ context.Context, m explorersvc.ProductMedium) (fs.FS, error) {
	return b.Farm.ProductFiles(b.Who, farm.ProductMedium(m))
}
