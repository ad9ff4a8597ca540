package search

import (
	"encoding/xml"

	"github.com/pocketforge/pocketforge/buildsvc/maintenance"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// ChannelBinary is one binary a channel lists, as /search/channel/binary[/id] shows it (OBS's
// ChannelBinary).
type ChannelBinary struct {
	// Project and Package are the channel package's.
	Project, Package string
	// Name, BinaryArch, BinaryPackage and SupportStatus are the <binary>'s name, binaryarch,
	// package and supportstatus.
	Name, BinaryArch, BinaryPackage, SupportStatus string
	// Targets are the channel's targets (the full answer shows them).
	Targets []ChannelTarget
}

// ChannelTarget is a target repository of a channel.
type ChannelTarget struct {
	Project, Repository string
	Disabled            bool
}

// channelBinaryDoc is what a channel binary search evaluates: OBS's columns for it. @project
// is the channel package's project (the binary's own project is no key), @package the
// binary's package.
type channelBinaryDoc struct {
	XMLName       xml.Name           `xml:"channel_binary"`
	Name          string             `xml:"name,attr"`
	BinaryArch    string             `xml:"binaryarch,attr,omitempty"`
	Package       string             `xml:"package,attr,omitempty"`
	Project       string             `xml:"project,attr"`
	SupportStatus string             `xml:"supportstatus,attr,omitempty"`
	Targets       []channelTargetDoc `xml:"target"`
}

type channelTargetDoc struct {
	Disabled *struct{} `xml:"disabled"`
}

// SearchChannelBinaries answers /search/channel/binary[/id]: the binaries listed in the
// channels (packages with a _channel, see maintenance_channels.go) of the projects who may
// see, by channel project and package, then in the channel's order. A channel branched into
// another project (a link to the original) is the original's copy and is not listed again.
//
// Simplified: OBS's updatefor/@project and updatefor/@product come from the products whose
// update repositories are a channel's targets; the appliance keeps no products, so those keys
// match nothing.
func (s *Service) SearchChannelBinaries(who buildstore.Person, match string, idOnly bool, page Page) (Found[ChannelBinary], error) {
	p := pager[ChannelBinary]{page: page}
	q, err := compileSearch("channel_binary", match, idOnly)
	if err != nil {
		return p.found, err
	}
	err = s.db.View(func(tx kv.Tx) error {
		sc := newSearchScope(tx, who, q.Plan())
		channels, err := maintenance.AllChannels(tx, who)
		if err != nil {
			return err
		}
		for _, ch := range channels {
			if !sc.allowsProject(ch.Project) {
				continue
			}
			var targets []ChannelTarget
			var targetDocs []channelTargetDoc
			for _, t := range ch.Channel.Targets {
				targets = append(targets, ChannelTarget{Project: t.Project, Repository: t.Repository, Disabled: t.Disabled != nil})
				targetDocs = append(targetDocs, channelTargetDoc{Disabled: t.Disabled})
			}
			for _, l := range ch.Channel.Lists {
				for _, b := range l.Binaries {
					if !sc.allows(ch.Project, b.Name) {
						continue
					}
					ok, err := matches(q, channelBinaryDoc{Name: b.Name, BinaryArch: b.BinaryArch, Package: b.Package,
						Project: ch.Project, SupportStatus: b.SupportStatus, Targets: targetDocs})
					if err != nil {
						return err
					}
					if ok {
						p.add(ChannelBinary{Project: ch.Project, Package: ch.Package, Name: b.Name, BinaryArch: b.BinaryArch,
							BinaryPackage: b.Package, SupportStatus: b.SupportStatus, Targets: targets})
					}
				}
			}
		}
		return nil
	})
	return p.found, err
}
