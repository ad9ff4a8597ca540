package main

import (
	"encoding/json"
	"io"
	"net"
	"net/netip"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/config"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"gopkg.in/yaml.v3"
)

// The container image and the compose example name flags, POCKETFORGE_* variables and
// subcommands as plain text, where a rename would go unnoticed until someone's container failed
// to start. These tests run their command lines through the real command tree and config, so a
// renamed flag, variable or subcommand, or a value config refuses, fails here.

// dockerfile is the Dockerfile's instructions: ENV, the JSON-form commands, the RUN lines and
// VOLUME, continuation lines joined.
type dockerfile struct {
	env         []string // KEY=VALUE, as the image's environment
	entrypoint  []string
	cmd         []string
	healthcheck []string // the HEALTHCHECK's CMD
	runs        []string
	volumes     []string
}

func readDockerfile(t *testing.T) dockerfile {
	t.Helper()
	raw, err := os.ReadFile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	text := regexp.MustCompile(`\\\n\s*`).ReplaceAllString(string(raw), " ")
	var d dockerfile
	jsonArgs := func(s string) []string {
		var args []string
		if err := json.Unmarshal([]byte(strings.TrimSpace(s)), &args); err != nil {
			t.Fatalf("Dockerfile: %q is not the JSON form: %v", s, err)
		}
		return args
	}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		instr, rest, _ := strings.Cut(line, " ")
		switch strings.ToUpper(instr) {
		case "ENV":
			for _, kv := range strings.Fields(rest) {
				if !strings.Contains(kv, "=") {
					t.Fatalf("Dockerfile: ENV %q: use the KEY=VALUE form", kv)
				}
				d.env = append(d.env, kv)
			}
		case "ENTRYPOINT":
			d.entrypoint = jsonArgs(rest)
		case "CMD":
			d.cmd = jsonArgs(rest)
		case "HEALTHCHECK":
			_, c, ok := strings.Cut(rest, " CMD ")
			if !ok {
				t.Fatalf("Dockerfile: HEALTHCHECK without CMD: %s", line)
			}
			d.healthcheck = jsonArgs(c)
		case "RUN":
			d.runs = append(d.runs, rest)
		case "VOLUME":
			d.volumes = append(d.volumes, jsonArgs(rest)...)
		}
	}
	return d
}

// compose is the part of deploy/compose.yaml the tests read.
type compose struct {
	Services map[string]struct {
		Command     []string          `yaml:"command"`
		Environment map[string]string `yaml:"environment"`
		Volumes     []string          `yaml:"volumes"`
	} `yaml:"services"`
	Networks map[string]struct {
		IPAM struct {
			Config []struct {
				Subnet string `yaml:"subnet"`
			} `yaml:"config"`
		} `yaml:"ipam"`
	} `yaml:"networks"`
}

func readCompose(t *testing.T) compose {
	t.Helper()
	raw, err := os.ReadFile("deploy/compose.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var c compose
	if err := yaml.Unmarshal(raw, &c); err != nil {
		t.Fatalf("deploy/compose.yaml: %v", err)
	}
	return c
}

// resolve runs args (without the program name) through the command tree as the binary would,
// with env as its environment: the subcommand must exist, its flags must parse and config must
// accept every value. It returns the subcommand and the resolved config.
func resolve(t *testing.T, where string, args, env []string) (*cobra.Command, *config.Config) {
	t.Helper()
	checkEnvNames(t, where, env)
	root := newRoot(env, io.Discard, io.Discard)
	cmd, rest, err := root.Find(args)
	if err != nil {
		t.Fatalf("%s: %v: %v", where, args, err)
	}
	if err := cmd.ParseFlags(rest); err != nil {
		t.Fatalf("%s: %v: %v", where, args, err)
	}
	if n := cmd.Flags().NArg(); n > 0 {
		t.Fatalf("%s: %v: %s takes no arguments, got %v", where, args, cmd.Name(), cmd.Flags().Args())
	}
	cfg, err := config.FromFlags(cmd.Flags(), env)
	if err != nil {
		t.Fatalf("%s: %v: %v", where, args, err)
	}
	return cmd, cfg
}

// checkEnvNames fails on a POCKETFORGE_* variable that is no flag's twin: config ignores unknown
// variables, so a renamed flag would silently lose its setting.
func checkEnvNames(t *testing.T, where string, env []string) {
	t.Helper()
	known := map[string]bool{}
	fs := pflag.NewFlagSet("all", pflag.ContinueOnError)
	config.RegisterCommon(fs)
	config.RegisterServe(fs)
	fs.VisitAll(func(f *pflag.Flag) { known[config.EnvName(f.Name)] = true })
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "POCKETFORGE_") && !known[k] {
			t.Errorf("%s: %s is no flag's variable", where, k)
		}
	}
}

func TestDockerfileMatchesTheCLI(t *testing.T) {
	d := readDockerfile(t)
	if !slices.Equal(d.entrypoint, []string{"pocketforge"}) {
		t.Fatalf("ENTRYPOINT %v, want [pocketforge]", d.entrypoint)
	}
	cmd, cfg := resolve(t, "Dockerfile CMD", d.cmd, d.env)
	if cmd.Name() != "serve" {
		t.Errorf("CMD runs %q, want serve", cmd.Name())
	}
	if len(d.healthcheck) == 0 || d.healthcheck[0] != "pocketforge" {
		t.Fatalf("HEALTHCHECK CMD %v does not run pocketforge", d.healthcheck)
	}
	hc, hcfg := resolve(t, "Dockerfile HEALTHCHECK", d.healthcheck[1:], d.env)
	if hc.Name() != "healthcheck" || hcfg.Addr != cfg.Addr {
		t.Errorf("HEALTHCHECK runs %q on %s, the server listens on %s", hc.Name(), hcfg.Addr, cfg.Addr)
	}
	if host, _, _ := net.SplitHostPort(cfg.Addr); host != "0.0.0.0" {
		t.Errorf("the image listens on %s: only its own loopback would reach it", cfg.Addr)
	}
	if !slices.Contains(d.volumes, path.Dir(cfg.Data)) {
		t.Errorf("the data file %s is not on a VOLUME (%v)", cfg.Data, d.volumes)
	}
	if !slices.ContainsFunc(d.runs, func(r string) bool { return strings.Contains(r, "scripts/build-static.sh") }) {
		t.Error("the Dockerfile does not build with scripts/build-static.sh, as .ci/run does")
	}
	ci, err := os.ReadFile(".ci/run")
	if err != nil || !strings.Contains(string(ci), "scripts/build-static.sh") {
		t.Errorf(".ci/run does not build with scripts/build-static.sh (%v)", err)
	}
}

func TestComposeMatchesTheCLI(t *testing.T) {
	d := readDockerfile(t)
	c := readCompose(t)
	svc, ok := c.Services["pocketforge"]
	if !ok {
		t.Fatal("deploy/compose.yaml has no pocketforge service")
	}
	env := slices.Clone(d.env)
	for k, v := range svc.Environment {
		env = append(env, k+"="+v)
	}
	cmd, cfg := resolve(t, "compose pocketforge command", svc.Command, env)
	if cmd.Name() != "serve" || cfg.ExternalURL == "" || len(cfg.TrustedProxies) == 0 {
		t.Fatalf("compose runs %q with external URL %q and trusted proxies %v: the example is to show both",
			cmd.Name(), cfg.ExternalURL, cfg.TrustedProxies)
	}
	if !slices.ContainsFunc(svc.Volumes, func(v string) bool { return strings.HasSuffix(v, ":"+path.Dir(cfg.Data)) }) {
		t.Errorf("compose mounts no volume at the data file's directory %s: %v", path.Dir(cfg.Data), svc.Volumes)
	}
	for name, n := range c.Networks {
		for _, sub := range n.IPAM.Config {
			if !slices.ContainsFunc(cfg.TrustedProxies, func(p netip.Prefix) bool { return p.String() == sub.Subnet }) {
				t.Errorf("network %s's subnet %s, where the proxy runs, is not in --trusted-proxies %v", name, sub.Subnet, cfg.TrustedProxies)
			}
		}
	}
	caddy, err := os.ReadFile("deploy/Caddyfile")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(cfg.Addr)
	if want := "reverse_proxy pocketforge:" + port; !strings.Contains(string(caddy), want) {
		t.Errorf("deploy/Caddyfile does not say %q", want)
	}
}
