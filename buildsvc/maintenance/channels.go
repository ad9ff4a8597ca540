package maintenance

import (
	"encoding/xml"
	"slices"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Channels, as OBS keeps them: a channel is a package holding a _channel file (channel.rng)
// that lists binaries (by name, with the package, project and repository they come from) and
// the targets (update repositories) the channel releases into; a target may be <disabled/>, a
// channel with an enabled target is active. The commands:
//
//   - importchannel (POST /source/P/K?cmd=importchannel, the channel as body; target_project
//     and target_repository add a target): the body becomes K's _channel, each project named
//     in it replaced by the value of its OBS:UpdateProject attribute when it has one.
//   - addchannels (POST /source/P?cmd=addchannels, mode add_disabled (default), skip_disabled
//     or enable_all): for each package of P — and the package it links to — every channel
//     listing a binary of it is branched into P under the channel package's name (once), and,
//     unless the mode is add_disabled and the channel inactive (skip_disabled skips inactive
//     channels altogether), its targets' repositories are added (addChannelRepos).
//   - modifychannels (POST /source/P?cmd=modifychannels, mode add_disabled or enable_all):
//     addChannelRepos for each channel package of P.
//   - enablechannel (POST /source/P/K?cmd=enablechannel): addChannelRepos with enable_all for
//     the channel package K.
//
// addChannelRepos adds, for each target (a disabled one skipped with skip_disabled), a
// repository named after the target repository as OBS extends names (its project with ':' as
// '_', plus "_<repository>" when that project has several), building against the target
// repository on its architectures and releasing into it (trigger maintenance in an incident
// project, none elsewhere), and enables the channel package's build there — for disabled
// targets only with enable_all.
//
// Left out: the channel's binaries are not aggregated by the farm (a channel package is
// "excluded", like a patchinfo), products and id templates are kept in the file but not acted
// on, and /search/channel is not served (/search/channel/binary is: search_binaries_channels.go).

// ChannelFile is the file that makes a package a channel.
const ChannelFile = "_channel"

type channelProduct struct {
	Project string `xml:"project,attr"`
	Name    string `xml:"name,attr"`
}

type channelTarget struct {
	Project       string    `xml:"project,attr"`
	Repository    string    `xml:"repository,attr"`
	IDTemplate    string    `xml:"id_template,attr,omitempty"`
	RequiresIssue string    `xml:"requires_issue,attr,omitempty"`
	Disabled      *struct{} `xml:"disabled"`
}

type channelBinary struct {
	Name          string `xml:"name,attr"`
	BinaryArch    string `xml:"binaryarch,attr,omitempty"`
	Project       string `xml:"project,attr,omitempty"`
	Repository    string `xml:"repository,attr,omitempty"`
	Package       string `xml:"package,attr,omitempty"`
	Arch          string `xml:"arch,attr,omitempty"`
	SupportStatus string `xml:"supportstatus,attr,omitempty"`
}

type channelBinaries struct {
	Project    string          `xml:"project,attr,omitempty"`
	Repository string          `xml:"repository,attr,omitempty"`
	Arch       string          `xml:"arch,attr,omitempty"`
	Binaries   []channelBinary `xml:"binary"`
}

// Channel is the _channel document (channel.rng).
type Channel struct {
	XMLName  xml.Name          `xml:"channel"`
	Products []channelProduct  `xml:"product"`
	Targets  []channelTarget   `xml:"target"`
	Lists    []channelBinaries `xml:"binaries"`
}

// active reports whether the channel has a target that is not disabled.
func (c Channel) active() bool {
	for _, t := range c.Targets {
		if t.Disabled == nil {
			return true
		}
	}
	return false
}

// lists reports whether the channel lists a binary of project/pkg.
func (c Channel) lists(project, pkg string) bool {
	for _, l := range c.Lists {
		for _, b := range l.Binaries {
			p := b.Project
			if p == "" {
				p = l.Project
			}
			if b.Package == pkg && p == project {
				return true
			}
		}
	}
	return false
}

// parseChannel reads a _channel: the schema's shape (a <channel> with at least one <binaries>,
// each with at least one named <binary>).
func parseChannel(data []byte) (Channel, error) {
	var c Channel
	if err := xml.Unmarshal(data, &c); err != nil {
		return c, buildsvc.Invalid("channel", "%v", err)
	}
	if len(c.Lists) == 0 {
		return c, buildsvc.Invalid("channel", "a channel needs at least one <binaries> element")
	}
	for _, l := range c.Lists {
		if len(l.Binaries) == 0 {
			return c, buildsvc.Invalid("channel", "<binaries> needs at least one <binary> element")
		}
		for _, b := range l.Binaries {
			if b.Name == "" {
				return c, buildsvc.Invalid("channel", "<binary> needs a name attribute")
			}
		}
	}
	for _, t := range c.Targets {
		if t.Project == "" || t.Repository == "" {
			return c, buildsvc.Invalid("channel", "<target> needs project and repository attributes")
		}
	}
	return c, nil
}

// readChannel reads the _channel of project/pkg's newest (expanded) tree; ok false when none.
func readChannel(tx kv.Tx, project, pkg string) (Channel, bool) {
	v, err := buildsvc.ResolveView(tx, project, pkg, "", true, "")
	if err != nil {
		return Channel{}, false
	}
	f, ok := v.Tree.File(ChannelFile)
	if !ok {
		return Channel{}, false
	}
	data, err := v.Content(tx, f.MD5)
	if err != nil {
		return Channel{}, false
	}
	c, err := parseChannel(data)
	return c, err == nil
}

// ImportChannelRequest is a cmd=importchannel.
type ImportChannelRequest struct {
	Project, Package string
	// Body is the channel document.
	Body []byte
	// TargetProject and TargetRepository, when given, add a target.
	TargetProject, TargetRepository string
	Comment                         string
}

// ImportChannel runs cmd=importchannel for who.
func (s *Service) ImportChannel(who buildstore.Person, req ImportChannelRequest) error {
	c, err := parseChannel(req.Body)
	if err != nil {
		return err
	}
	now := s.Clock().Now()
	return s.Store().Write(func(tx kv.Tx) error {
		if err := buildsvc.Writable(tx, who, req.Project, req.Package, "cmd_execution_no_permission"); err != nil {
			return err
		}
		if req.TargetProject != "" {
			tp, err := buildstore.GetProject(tx, req.TargetProject)
			if err != nil || buildsvc.HiddenFrom(tx, who, tp) {
				return buildsvc.ProjectNotFound(req.TargetProject)
			}
			if _, ok := tp.Repository(req.TargetRepository); !ok {
				return fault.NotFound("unknown_repository", "Unknown repository '%s' in project '%s'", req.TargetRepository, req.TargetProject)
			}
			c.Targets = append(c.Targets, channelTarget{Project: req.TargetProject, Repository: req.TargetRepository})
		}
		update := func(project string) string {
			if project == "" {
				return ""
			}
			if a, err := buildstore.GetAttribute(tx, project, "", "", "OBS", "UpdateProject"); err == nil && len(a.Values) > 0 && a.Values[0] != "" {
				return a.Values[0]
			}
			return project
		}
		for i := range c.Lists {
			c.Lists[i].Project = update(c.Lists[i].Project)
			for j := range c.Lists[i].Binaries {
				c.Lists[i].Binaries[j].Project = update(c.Lists[i].Binaries[j].Project)
			}
		}
		data, err := xml.MarshalIndent(c, "", "  ")
		if err != nil {
			return err
		}
		sum, err := buildstore.PutBlob(tx, append(data, '\n'))
		if err != nil {
			return err
		}
		files := []buildstore.FileEntry{{Name: ChannelFile, MD5: sum}}
		if last, ok, err := buildstore.LatestRevision(tx, req.Project, req.Package); err != nil {
			return err
		} else if ok {
			for _, f := range last.Files {
				if f.Name != ChannelFile {
					files = append(files, f)
				}
			}
		}
		_, err = buildsvc.CommitTree(tx, req.Project, req.Package, files, who.Login, now, buildsvc.CommitOptions{Comment: req.Comment})
		return err
	})
}

// checkChannelMode checks the mode parameter of addchannels or modifychannels ("" is the
// command's default).
func checkChannelMode(cmd, mode string) error {
	allowed := []string{"", "add_disabled", "skip_disabled", "enable_all"}
	if cmd == "modifychannels" {
		allowed = []string{"", "add_disabled", "enable_all"}
	}
	for _, m := range allowed {
		if mode == m {
			return nil
		}
	}
	return buildsvc.BadRequest("invalid_parameter", "cmd=%s: mode must be one of %s, not '%s'", cmd, strings.Join(allowed[1:], ", "), mode)
}

// AddChannels runs cmd=addchannels on project for who.
func (s *Service) AddChannels(who buildstore.Person, project, mode string) error {
	if err := checkChannelMode("addchannels", mode); err != nil {
		return err
	}
	if mode == "" {
		mode = "add_disabled"
	}
	now := s.Clock().Now()
	return s.Store().Write(func(tx kv.Tx) error {
		p, err := buildsvc.MaintainedProject(tx, who, project, "addchannels", true)
		if err != nil {
			return err
		}
		channels, err := AllChannels(tx, who)
		if err != nil {
			return err
		}
		pkgs, err := buildstore.Packages(tx, project)
		if err != nil {
			return err
		}
		for _, k := range pkgs {
			origins := [][2]string{{project, k.Name}}
			if l, ok := linkOf(tx, project, k.Name); ok {
				origins = append(origins, [2]string{l.Project, l.Package})
			}
			for _, ch := range channels {
				if !ch.Channel.lists(origins[0][0], origins[0][1]) && (len(origins) == 1 || !ch.Channel.lists(origins[1][0], origins[1][1])) {
					continue
				}
				if mode == "skip_disabled" && !ch.Channel.active() {
					continue
				}
				if _, err := buildstore.GetPackage(tx, project, ch.Package); err == nil {
					continue // branched already
				}
				_, err := buildsvc.BranchPackage(tx, who, buildsvc.BranchRequest{Project: ch.Project, Package: ch.Package, TargetProject: project,
					Comment: "Listed in " + project + " " + k.Name}, now)
				if err != nil {
					return err
				}
				if mode == "add_disabled" && !ch.Channel.active() {
					continue
				}
				if p, err = addChannelRepos(tx, p, ch.Package, ch.Channel, mode, who.Login, now); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// ModifyChannels runs cmd=modifychannels on project for who.
func (s *Service) ModifyChannels(who buildstore.Person, project, mode string) error {
	if err := checkChannelMode("modifychannels", mode); err != nil {
		return err
	}
	now := s.Clock().Now()
	return s.Store().Write(func(tx kv.Tx) error {
		p, err := buildsvc.MaintainedProject(tx, who, project, "modifychannels", true)
		if err != nil {
			return err
		}
		pkgs, err := buildstore.Packages(tx, project)
		if err != nil {
			return err
		}
		for _, k := range pkgs {
			if c, ok := readChannel(tx, project, k.Name); ok {
				if p, err = addChannelRepos(tx, p, k.Name, c, mode, who.Login, now); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// EnableChannel runs cmd=enablechannel on project/pkg for who.
func (s *Service) EnableChannel(who buildstore.Person, project, pkg string) error {
	now := s.Clock().Now()
	return s.Store().Write(func(tx kv.Tx) error {
		if err := buildsvc.Writable(tx, who, project, pkg, "cmd_execution_no_permission"); err != nil {
			return err
		}
		c, ok := readChannel(tx, project, pkg)
		if !ok {
			return buildsvc.BadRequest("illegal_request", "package %s/%s is not a channel: it has no _channel", project, pkg)
		}
		p, _ := buildstore.GetProject(tx, project)
		_, err := addChannelRepos(tx, p, pkg, c, "enable_all", who.Login, now)
		return err
	})
}

// FoundChannel is a channel package somewhere.
type FoundChannel struct {
	Project, Package string
	Channel          Channel
}

// AllChannels lists the channel packages of the projects who may see.
func AllChannels(tx kv.Tx, who buildstore.Person) ([]FoundChannel, error) {
	projects, err := buildstore.Projects(tx)
	if err != nil {
		return nil, err
	}
	var out []FoundChannel
	for _, p := range projects {
		if buildsvc.HiddenFrom(tx, who, p) {
			continue
		}
		pkgs, err := buildstore.Packages(tx, p.Name)
		if err != nil {
			return nil, err
		}
		for _, k := range pkgs {
			last, ok, err := buildstore.LatestRevision(tx, p.Name, k.Name)
			if err != nil || !ok {
				continue
			}
			if _, has := last.File(ChannelFile); !has {
				continue // a branched channel (a link) is the original's copy, not one more
			}
			if c, ok := readChannel(tx, p.Name, k.Name); ok {
				out = append(out, FoundChannel{Project: p.Name, Package: k.Name, Channel: c})
			}
		}
	}
	return out, nil
}

// linkOf is the _link of project/pkg's newest revision.
func linkOf(tx kv.Tx, project, pkg string) (buildstore.SourceLink, bool) {
	last, ok, err := buildstore.LatestRevision(tx, project, pkg)
	if err != nil || !ok {
		return buildstore.SourceLink{}, false
	}
	f, ok := last.File(buildstore.LinkFile)
	if !ok {
		return buildstore.SourceLink{}, false
	}
	data, err := buildstore.GetBlob(tx, f.MD5)
	if err != nil {
		return buildstore.SourceLink{}, false
	}
	l, err := buildstore.ParseLink(data)
	if l.Project == "" {
		l.Project = project
	}
	return l, err == nil
}

// addChannelRepos adds channel c's target repositories to p and enables the channel package
// pkg there (see the file's comment); it stores p and pkg (a changed package meta goes into its
// meta history, by user) and returns p as stored.
func addChannelRepos(tx kv.Tx, p buildstore.Project, pkg string, c Channel, mode, user string, now time.Time) (buildstore.Project, error) {
	k, err := buildstore.GetPackage(tx, p.Name, pkg)
	if err != nil {
		return p, buildsvc.NotFoundAs(err, "unknown_package")
	}
	changed, flags := false, slices.Clone(k.Flags)
	for _, t := range c.Targets {
		if mode == "skip_disabled" && t.Disabled != nil {
			continue
		}
		tp, err := buildstore.GetProject(tx, t.Project)
		if err != nil {
			continue // a target that is gone adds nothing
		}
		tr, ok := tp.Repository(t.Repository)
		if !ok {
			continue
		}
		name := strings.ReplaceAll(tp.Name, ":", "_")
		if len(tp.Repositories) > 1 {
			name += "_" + tr.Name
		}
		if _, has := p.Repository(name); !has {
			r := buildstore.Repository{Name: name, Paths: []buildstore.Path{{Project: tp.Name, Repository: tr.Name}},
				Archs: append([]string(nil), tr.Archs...), ReleaseTarget: &buildstore.ReleaseTarget{Project: tp.Name, Repository: tr.Name}}
			if p.Kind == "maintenance_incident" {
				r.ReleaseTarget.Trigger = "maintenance"
			}
			p.Repositories = append(p.Repositories, r)
			changed = true
		}
		if mode != "enable_all" && t.Disabled != nil {
			continue
		}
		enable := buildstore.Flag{Name: "build", Status: "enable", Repository: name}
		k.Flags = buildstore.SetFlag(k.Flags, enable)
	}
	if changed {
		if err := buildstore.PutProject(tx, p); err != nil {
			return p, err
		}
	}
	if slices.Equal(flags, k.Flags) {
		return p, nil
	}
	if err := buildstore.PutPackage(tx, k); err != nil {
		return p, err
	}
	return p, buildsvc.RecordMeta(tx, k, user, "", now)
}
