// Package config owns pocketforge's one Config struct and how it is resolved at start-up.
//
// Every setting is a command-line flag with a POCKETFORGE_* environment twin and a key of the
// same name in an optional YAML file (--config). Precedence is flag > environment > file >
// default. All three sources feed the same parse function per option (see options.go), so a
// rule such as "the port must be 0..65535" lives in exactly one place, and a bad value stops the
// start with a one-line message naming the flag and where the value came from.
//
// The package never reads os.Args or os.Environ itself: callers pass them in, which keeps tests
// hermetic and lets cobra subcommands hand over their already-parsed flag sets.
package config

import (
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// Config is the effective configuration of one pocketforge process. Its zero value is not
// meaningful; obtain one from Load or FromFlags, which apply the defaults.
type Config struct {
	Addr string // --addr: listen address, host:port (port 0 = ephemeral)
	Data string // --data: the bbolt data file (with --store: the node's replica of the database)
	// Store is --store: "" for the bbolt file, or the PostgreSQL URL many nodes share.
	Store       string
	ConfigFile  string // --config: YAML file with more settings, "" for none
	ExternalURL string // --external-url: base of every absolute URL emitted, "" = derive from the listener
	// DownloadURL is --download-url: the URL of the public download tree the .repo files
	// name, "" = <external URL>/download (the tree is served at /download either way).
	DownloadURL     string
	NoFixtures      bool          // --no-fixtures: start with an empty world instead of the demo data
	Ephemeral       bool          // --ephemeral: temp data file, no fsync, removed on exit
	BootstrapToken  string        // --bootstrap-token: admin API token, "" = keep the stored one or generate
	AdminPassword   string        // --admin-password: console password, "" = keep the stored one or generate
	DevClock        bool          // --dev-clock: allow moving the clock through /_appliance/clock
	LogLevel        slog.Level    // --log-level
	LogFormat       string        // --log-format: "text" or "json"
	BodyLimit       int64         // --body-limit: largest accepted request body, in bytes
	SourceFileLimit int64         // --source-file-limit: largest source file of a build-service package, in bytes
	BuildWorkers    int           // --build-workers: simulated build jobs that run at once
	BuildTime       time.Duration // --build-time: how long a simulated build runs by the appliance clock
	ShutdownTimeout time.Duration // --shutdown-timeout: grace period for in-flight requests
	HeadTimeout     time.Duration // --head-timeout: time a client has to send a request's head
	MinUploadRate   int64         // --min-upload-rate: slowest accepted body upload, bytes per second
	MaxConns        int           // --max-conns: connections served at once (0: auto, resolved at start); more are refused with 503
	MaxConnsPerIP   int           // --max-conns-per-ip: connections from one client IP at once, 0 = no cap
	JournalSize     int           // --journal-size: request-journal capacity, 0 disables it
	BatchDelay      time.Duration // --batch-delay: bbolt group-commit delay when writes overlap
	CloudRateScale  float64       // --cloud-rate-scale: factor on the cloud API's rate limits, 0 = off
	TransferDelay   time.Duration // --transfer-delay: how long an accepted service transfer takes to complete
	DBProvisionTime time.Duration // --db-provision-time: how long a new managed database takes to provision
	// SQLDBListen is --sqldb-listen: the IP address connectable sqldb (mysql) instances bind,
	// "off" to keep every instance a simulated record.
	SQLDBListen       string
	SQLDBMaxInstances int            // --sqldb-max-instances: how many sqldb instances listen at once
	SQLDBPorts        [2]int         // --sqldb-ports: the lowest and highest port sqldb instances take; zero: any free port
	SQLDBMaxMemory    int64          // --sqldb-max-memory: the data all listening sqldb instances may hold together, in bytes
	ExplorerRate      Rate           // --explorer-rate: requests per window and client IP on the explorer's /api and proxy
	TrustedProxies    []netip.Prefix // --trusted-proxies: whose X-Forwarded-For is believed
	ExplorerFollow    []string       // --explorer-follow: project names or globs whose build results the explorer caches, none = all
	// ExplorerProxyPrefix is --explorer-proxy-prefix: where the read-only build proxy answers.
	ExplorerProxyPrefix string
	// ExplorerBackendUser and ExplorerBackendPassword (--explorer-backend-user, --explorer-backend-password)
	// are the build service credentials the proxy forwards with.
	ExplorerBackendUser     string
	ExplorerBackendPassword string
	// ExplorerBackend is --explorer-backend: the base URL of a remote build service the explorer
	// reads over HTTP instead of this appliance's own ("" = in process); ExplorerPoll
	// (--explorer-poll) is how often that remote is looked at for changes.
	ExplorerBackend string
	ExplorerPoll    time.Duration
	ExplorerGitOrg  string        // --explorer-git-org: the organization fork-builds reads by default
	SPDXDir         string        // --spdx-dir: product SBOMs to import and follow, "" = none
	SPDXInterval    time.Duration // --spdx-interval: how often --spdx-dir is looked at
	PublicMetrics   bool          // --public-metrics: serve /metrics without the bootstrap token
	Warnings        []string      // non-fatal remarks for the caller to log once logging is set up
}

// Load parses args (flags only) against a fresh flag set holding every flag, then resolves the
// Config like FromFlags. It exists for callers without cobra, chiefly tests and the plain serve
// path. pflag's own errors (unknown flag, missing argument, pflag.ErrHelp) are returned as-is.
func Load(args []string, env []string) (*Config, error) {
	fs := pflag.NewFlagSet("pocketforge", pflag.ContinueOnError)
	fs.SetOutput(io.Discard) // the caller prints the returned error; pflag must not print usage too
	RegisterCommon(fs)
	RegisterServe(fs)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q: pocketforge takes only flags", fs.Arg(0))
	}
	return FromFlags(fs, env)
}

// FromFlags resolves the Config from an already-parsed flag set, env (in os.Environ form) and
// the YAML file named by --config or POCKETFORGE_CONFIG. The flag set may hold only some of the
// flags (a cobra subcommand such as export registers just --data and --config); the missing
// ones fall through to env, file and default. Every supplied value is validated, even one that
// a higher-precedence source overrides, so a broken file or variable never lies in wait.
func FromFlags(fs *pflag.FlagSet, env []string) (*Config, error) {
	c := defaults()
	envSet := fromEnv(env)
	flagSet := fromFlagSet(fs)
	var fileSet []setting
	if path := configPath(flagSet, envSet); path != "" {
		var err error
		if fileSet, err = readFile(path); err != nil {
			return nil, err
		}
	}
	for _, layer := range [][]setting{fileSet, envSet, flagSet} {
		for _, s := range layer {
			if err := s.apply(c); err != nil {
				return nil, err
			}
		}
	}
	c.Warnings = warnings(c)
	return c, nil
}

// Redacted returns the effective config as ordered key/value pairs, keyed by flag name, for
// the start-up log. Secrets are masked ("***" when set, "" when not) so that the log can be
// shared without leaking credentials, while still showing whether one was supplied.
func (c *Config) Redacted() [][2]string {
	out := make([][2]string, 0, len(options))
	for i := range options {
		o := &options[i]
		v := o.get(c)
		if o.secret && v != "" {
			v = "***"
		}
		if o.mask != nil {
			v = o.mask(v)
		}
		out = append(out, [2]string{o.name, v})
	}
	return out
}

// EnvName returns the environment twin of a flag name ("external-url" ->
// "POCKETFORGE_EXTERNAL_URL"), so messages and docs can name both spellings of an option.
func EnvName(flag string) string {
	return "POCKETFORGE_" + strings.ToUpper(strings.ReplaceAll(flag, "-", "_"))
}

// defaults returns a Config holding every option's default, parsed by the option's own parse
// function so that the default text shown in --help is exactly what takes effect.
func defaults() *Config {
	c := &Config{}
	for i := range options {
		o := &options[i]
		if err := o.set(c, o.def); err != nil {
			panic(fmt.Sprintf("config: default %q for --%s: %v", o.def, o.name, err))
		}
	}
	return c
}

// configPath picks the YAML file to read: --config wins over POCKETFORGE_CONFIG. The file
// itself cannot name a config file (readFile refuses the key).
func configPath(flagSet, envSet []setting) string {
	for _, layer := range [][]setting{flagSet, envSet} {
		for _, s := range layer {
			if s.opt.name == "config" {
				return s.value
			}
		}
	}
	return ""
}

// warnings lists the non-fatal remarks on c. Listening on every interface without an external
// URL means clients on other hosts would be handed links naming 127.0.0.1.
func warnings(c *Config) []string {
	var out []string
	if c.ExternalURL == "" {
		host, _, err := net.SplitHostPort(c.Addr)
		if err == nil && (host == "" || host == "0.0.0.0" || host == "::") {
			out = append(out, fmt.Sprintf("--addr %s listens on all interfaces but --external-url is not set: "+
				"absolute URLs (OAuth redirects, badge links, Location) will name 127.0.0.1; "+
				"set --external-url to the address clients use", c.Addr))
		}
	}
	return out
}

// ExternalURLFor returns the base of every absolute URL the appliance emits: --external-url when
// set, otherwise http:// and the address the listener actually got (so port 0 resolves to the
// real port), with a wildcard host replaced by 127.0.0.1.
func (c *Config) ExternalURLFor(listen net.Addr) string {
	if c.ExternalURL != "" {
		return c.ExternalURL
	}
	host, port, err := net.SplitHostPort(listen.String())
	if err != nil {
		return "http://" + listen.String()
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port)
}
