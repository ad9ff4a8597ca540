package buildapi

import (
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc/maintenance"
)

// The channel commands: importchannel and enablechannel on a package, addchannels and
// modifychannels on a project (buildsvc maintenance_channels.go).

// importChannel runs cmd=importchannel: the body is the channel; target_project and
// target_repository add a target.
func (a *api) importChannel(c *fiber.Ctx) error {
	err := a.Build.Maintenance.ImportChannel(personOf(c), maintenance.ImportChannelRequest{Project: pathParam(c, "project"), Package: pathParam(c, "package"),
		Body: append([]byte(nil), c.Body()...), TargetProject: strings.Clone(c.Query("target_project")),
		TargetRepository: strings.Clone(c.Query("target_repository")), Comment: strings.Clone(c.Query("comment"))})
	if err != nil {
		return err
	}
	return sendOK(c)
}

// enableChannel runs cmd=enablechannel.
func (a *api) enableChannel(c *fiber.Ctx) error {
	if err := a.Build.Maintenance.EnableChannel(personOf(c), pathParam(c, "project"), pathParam(c, "package")); err != nil {
		return err
	}
	return sendOK(c)
}

// channelsCmd runs cmd=addchannels or cmd=modifychannels (mode).
func (a *api) channelsCmd(c *fiber.Ctx, cmd string) error {
	run := a.Build.Maintenance.AddChannels
	if cmd == "modifychannels" {
		run = a.Build.Maintenance.ModifyChannels
	}
	if err := run(personOf(c), pathParam(c, "project"), strings.Clone(c.Query("mode"))); err != nil {
		return err
	}
	return sendOK(c)
}
