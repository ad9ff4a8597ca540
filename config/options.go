package config

import (
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// option describes one setting. The table below is the single place that knows an option's
// name, help text, default and rules: flag registration, the environment twin, the YAML key,
// validation and Redacted are all derived from it.
type option struct {
	name   string // flag name; also the YAML key and, via EnvName, the variable name
	usage  string // help text; a `quoted` word becomes the argument name in --help
	def    string // default, as text; parsed by set to build the defaults
	common bool   // registered by RegisterCommon (every subcommand that opens the data file)
	isBool bool   // a pflag bool on the command line (--flag, --flag=false)
	secret bool   // masked in Redacted and never echoed in error messages
	// mask, when set, is how Redacted and error messages show the value (a URL with its
	// password masked) — for a value that is not itself secret but may carry one.
	mask func(string) string
	set  func(c *Config, s string) error
	get  func(c *Config) string
}

// options lists every setting in the order Redacted reports them.
var options = []option{
	{name: "data", common: true, def: "pocketforge.db",
		usage: "bbolt data `file` holding all state",
		set:   func(c *Config, s string) (err error) { c.Data, err = parseNonEmpty(s); return },
		get:   func(c *Config) string { return c.Data }},
	{name: "store", common: true, def: "", mask: maskURL,
		usage: "where the data of record lives: empty for the bbolt file --data, or a PostgreSQL `URL` (postgres://user:password@host/db) that many nodes share, each keeping a replica of it at --data (docs/cluster.md)",
		set:   func(c *Config, s string) (err error) { c.Store, err = parseStore(s); return },
		get:   func(c *Config) string { return c.Store }},
	{name: "config", common: true, def: "",
		usage: "YAML `file` with settings keyed by flag name (flags and POCKETFORGE_* variables override it)",
		set:   func(c *Config, s string) error { c.ConfigFile = s; return nil },
		get:   func(c *Config) string { return c.ConfigFile }},
	{name: "addr", def: "127.0.0.1:8080",
		usage: "listen address `host:port` (port 0 picks a free port)",
		set:   func(c *Config, s string) (err error) { c.Addr, err = parseAddr(s); return },
		get:   func(c *Config) string { return c.Addr }},
	{name: "external-url", def: "",
		usage: "absolute http(s) `URL` clients reach this appliance at; used for every absolute URL it emits (default: derived from the listener)",
		set:   func(c *Config, s string) (err error) { c.ExternalURL, err = parseExternalURL(s); return },
		get:   func(c *Config) string { return c.ExternalURL }},
	{name: "download-url", def: "",
		usage: "absolute http(s) `URL` of the public download tree (served at /download/) that its .repo files name, when clients reach it elsewhere (default: the external URL + /download)",
		set:   func(c *Config, s string) (err error) { c.DownloadURL, err = parseExternalURL(s); return },
		get:   func(c *Config) string { return c.DownloadURL }},
	{name: "no-fixtures", isBool: true, def: "false",
		usage: "start with an empty world instead of loading the demo data",
		set:   func(c *Config, s string) (err error) { c.NoFixtures, err = parseBool(s); return },
		get:   func(c *Config) string { return strconv.FormatBool(c.NoFixtures) }},
	{name: "ephemeral", isBool: true, def: "false",
		usage: "use a temporary data file without fsync, removed on exit",
		set:   func(c *Config, s string) (err error) { c.Ephemeral, err = parseBool(s); return },
		get:   func(c *Config) string { return strconv.FormatBool(c.Ephemeral) }},
	{name: "bootstrap-token", secret: true, def: "",
		usage: "admin API `token` (8..128 printable ASCII, no spaces); empty keeps the stored one or generates one; prefer the POCKETFORGE_BOOTSTRAP_TOKEN variable",
		set:   func(c *Config, s string) (err error) { c.BootstrapToken, err = parseToken(s); return },
		get:   func(c *Config) string { return c.BootstrapToken }},
	{name: "admin-password", secret: true, def: "",
		usage: "console admin `password` (6..128 characters); empty keeps the stored one or generates one; prefer the POCKETFORGE_ADMIN_PASSWORD variable",
		set:   func(c *Config, s string) (err error) { c.AdminPassword, err = parsePassword(s); return },
		get:   func(c *Config) string { return c.AdminPassword }},
	{name: "dev-clock", isBool: true, def: "false",
		usage: "allow moving the clock through /_appliance/clock (demos and tests)",
		set:   func(c *Config, s string) (err error) { c.DevClock, err = parseBool(s); return },
		get:   func(c *Config) string { return strconv.FormatBool(c.DevClock) }},
	{name: "log-level", def: "info",
		usage: "log `level`: debug, info, warn or error",
		set:   func(c *Config, s string) (err error) { c.LogLevel, err = parseLevel(s); return },
		get:   func(c *Config) string { return strings.ToLower(c.LogLevel.String()) }},
	{name: "log-format", def: "text",
		usage: "log `format`: text or json",
		set:   func(c *Config, s string) (err error) { c.LogFormat, err = parseLogFormat(s); return },
		get:   func(c *Config) string { return c.LogFormat }},
	{name: "body-limit", def: "256MiB",
		usage: "largest accepted request body, a `size` such as 262144, 256KiB, 64MiB or 10MB (1KiB..16GiB)",
		set:   func(c *Config, s string) (err error) { c.BodyLimit, err = parseBodyLimit(s); return },
		get:   func(c *Config) string { return formatSize(c.BodyLimit) }},
	{name: "source-file-limit", def: "100MiB",
		usage: "largest file the build service takes into a package's sources, a `size` (1KiB..16GiB; --body-limit caps it too)",
		set:   func(c *Config, s string) (err error) { c.SourceFileLimit, err = parseBodyLimit(s); return },
		get:   func(c *Config) string { return formatSize(c.SourceFileLimit) }},
	{name: "build-workers", def: "4",
		usage: "how many simulated build jobs run at once, a `count` (1..64)",
		set:   func(c *Config, s string) (err error) { c.BuildWorkers, err = parseIntRange(s, 1, 64); return },
		get:   func(c *Config) string { return strconv.Itoa(c.BuildWorkers) }},
	{name: "build-time", def: "8s",
		usage: "how long a simulated build runs by the appliance clock, a `duration` (1s..1h; --dev-clock can skip it)",
		set: func(c *Config, s string) (err error) {
			c.BuildTime, err = parseDurationRange(s, time.Second, time.Hour)
			return
		},
		get: func(c *Config) string { return c.BuildTime.String() }},
	{name: "explorer-rate", def: "100/1h",
		usage: "the explorer's rate limit per client IP on /api and the build proxy, `requests/window` such as 100/1h (0 turns it off)",
		set:   func(c *Config, s string) (err error) { c.ExplorerRate, err = parseRate(s); return },
		get:   func(c *Config) string { return c.ExplorerRate.String() }},
	{name: "trusted-proxies", def: "",
		usage: "comma-separated `IPs or CIDRs` of reverse proxies whose X-Forwarded-For names the client (the explorer's rate limit); empty: trust none",
		set:   func(c *Config, s string) (err error) { c.TrustedProxies, err = parsePrefixes(s); return },
		get:   func(c *Config) string { return formatPrefixes(c.TrustedProxies) }},
	{name: "explorer-follow", def: "",
		usage: "comma-separated project `names or globs` (Pocket:*, home:?ob) whose build results the explorer caches and serves; empty: every project it may read",
		set:   func(c *Config, s string) (err error) { c.ExplorerFollow, err = parseFollow(s); return },
		get:   func(c *Config) string { return strings.Join(c.ExplorerFollow, ",") }},
	{name: "explorer-proxy-prefix", def: "/obs",
		usage: "the `path` the explorer's read-only build proxy answers under (osc -A http://host/obs); one or more segments, none of them an appliance route such as /source or /api",
		set:   func(c *Config, s string) (err error) { c.ExplorerProxyPrefix, err = parseProxyPrefix(s); return },
		get:   func(c *Config) string { return c.ExplorerProxyPrefix }},
	{name: "explorer-backend-user", def: "explorer",
		usage: "the build service `login` the explorer's proxy signs in as (never the caller's): the demo world's read-only explorer person by default",
		set:   func(c *Config, s string) (err error) { c.ExplorerBackendUser, err = parseBackendUser(s); return },
		get:   func(c *Config) string { return c.ExplorerBackendUser }},
	{name: "explorer-backend-password", secret: true, def: "",
		usage: "the `password` of --explorer-backend-user (empty: explorer-password, the demo explorer person's published one); prefer the POCKETFORGE_EXPLORER_BACKEND_PASSWORD variable",
		set: func(c *Config, s string) (err error) {
			c.ExplorerBackendPassword, err = parseBackendPassword(s)
			return
		},
		get: func(c *Config) string { return c.ExplorerBackendPassword }},
	{name: "explorer-backend", def: "",
		usage: "the `URL` of a remote build service (http or https, an OBS API root such as https://api.example.org) the explorer reads over HTTP as --explorer-backend-user; empty: this appliance's own build service, in process",
		set:   func(c *Config, s string) (err error) { c.ExplorerBackend, err = parseBackendURL(s); return },
		get:   func(c *Config) string { return c.ExplorerBackend }},
	{name: "explorer-poll", def: "30s",
		usage: "how often the remote --explorer-backend is reread for changed build results, a `duration` (1s..24h)",
		set: func(c *Config, s string) (err error) {
			c.ExplorerPoll, err = parseDurationRange(s, time.Second, 24*time.Hour)
			return
		},
		get: func(c *Config) string { return c.ExplorerPoll.String() }},
	{name: "spdx-dir", def: "",
		usage: "a `directory` of product SBOMs (*.spdx.json, each with its repodata/ beside it) the explorer imports and keeps following",
		set:   func(c *Config, s string) error { c.SPDXDir = strings.TrimSpace(s); return nil },
		get:   func(c *Config) string { return c.SPDXDir }},
	{name: "spdx-interval", def: "30s",
		usage: "how often --spdx-dir is looked at for new, changed and removed products, a `duration` (0 < d <= 24h)",
		set: func(c *Config, s string) (err error) {
			c.SPDXInterval, err = parseDuration(s, 24*time.Hour)
			return
		},
		get: func(c *Config) string { return c.SPDXInterval.String() }},
	{name: "public-metrics", isBool: true, def: "true",
		usage: "serve the Prometheus metrics at /metrics without the bootstrap token (/_appliance/metrics always needs it); false: /metrics is not served",
		set:   func(c *Config, s string) (err error) { c.PublicMetrics, err = parseBool(s); return },
		get:   func(c *Config) string { return strconv.FormatBool(c.PublicMetrics) }},
	{name: "explorer-git-org", def: "pool",
		usage: "the git `organization` the explorer's fork-builds reads when a request names none (a git host owner name)",
		set:   func(c *Config, s string) (err error) { c.ExplorerGitOrg, err = parseGitOwner(s); return },
		get:   func(c *Config) string { return c.ExplorerGitOrg }},
	{name: "shutdown-timeout", def: "10s",
		usage: "how long in-flight requests may finish at shutdown, a `duration` (0 < d <= 10m)",
		set: func(c *Config, s string) (err error) {
			c.ShutdownTimeout, err = parseDuration(s, 10*time.Minute)
			return
		},
		get: func(c *Config) string { return c.ShutdownTimeout.String() }},
	{name: "head-timeout", def: "20s",
		usage: "how long a client may take to send a request's head (request line and headers), a `duration` (0 < d <= 10m); slower connections are cut off",
		set: func(c *Config, s string) (err error) {
			c.HeadTimeout, err = parseDuration(s, 10*time.Minute)
			return
		},
		get: func(c *Config) string { return c.HeadTimeout.String() }},
	{name: "min-upload-rate", def: "64KiB",
		usage: "slowest accepted upload, a `size` per second (1KiB..1GiB): a body of n bytes must arrive within --head-timeout + n / rate (a chunked body: --body-limit / rate)",
		set: func(c *Config, s string) (err error) {
			c.MinUploadRate, err = parseSizeRange(s, kib, gib)
			return
		},
		get: func(c *Config) string { return formatSize(c.MinUploadRate) }},
	{name: "max-conns", def: "auto",
		usage: "how many connections are served at once, a `count` (16..1000000) or auto (4096, less under a low open-file limit); more are answered 503 and closed",
		set: func(c *Config, s string) (err error) {
			if strings.TrimSpace(s) == "auto" {
				c.MaxConns = 0
				return nil
			}
			c.MaxConns, err = parseIntRange(s, 16, 1000000)
			return
		},
		get: func(c *Config) string {
			if c.MaxConns == 0 {
				return "auto"
			}
			return strconv.Itoa(c.MaxConns)
		}},
	{name: "max-conns-per-ip", def: "512",
		usage: "how many connections one client address may hold at once, a `count` (0..1000000, 0: no cap); more are answered 429 and closed",
		set:   func(c *Config, s string) (err error) { c.MaxConnsPerIP, err = parseIntRange(s, 0, 1000000); return },
		get:   func(c *Config) string { return strconv.Itoa(c.MaxConnsPerIP) }},
	{name: "journal-size", def: "1000",
		usage: "how many recent requests /_appliance/requests keeps, a `count` (0..100000, 0 disables)",
		set:   func(c *Config, s string) (err error) { c.JournalSize, err = parseIntRange(s, 0, 100000); return },
		get:   func(c *Config) string { return strconv.Itoa(c.JournalSize) }},
	{name: "batch-delay", def: "1ms",
		usage: "how long overlapping writes wait to share one bbolt commit, a `duration` (0 < d <= 100ms)",
		set: func(c *Config, s string) (err error) {
			c.BatchDelay, err = parseDuration(s, 100*time.Millisecond)
			return
		},
		get: func(c *Config) string { return c.BatchDelay.String() }},
	{name: "cloud-rate-scale", def: "1",
		usage: "multiply the cloud API's rate limits by this `factor` (0..1000; 0 turns them off, 0.01 makes 1,600 requests per 2 minutes 16)",
		set:   func(c *Config, s string) (err error) { c.CloudRateScale, err = parseFloatRange(s, 0, 1000); return },
		get:   func(c *Config) string { return strconv.FormatFloat(c.CloudRateScale, 'g', -1, 64) }},
	{name: "transfer-delay", def: "5s",
		usage: "how long an accepted service transfer takes to complete, a `duration` (0 < d <= 3h; the real service: up to three hours)",
		set: func(c *Config, s string) (err error) {
			c.TransferDelay, err = parseDuration(s, 3*time.Hour)
			return
		},
		get: func(c *Config) string { return c.TransferDelay.String() }},
	{name: "db-provision-time", def: "30s",
		usage: "how long a new managed database takes to provision, a `duration` (0 < d <= 1h; the real service: 15 to 30 minutes)",
		set: func(c *Config, s string) (err error) {
			c.DBProvisionTime, err = parseDuration(s, time.Hour)
			return
		},
		get: func(c *Config) string { return c.DBProvisionTime.String() }},
	{name: "sqldb-listen", def: "127.0.0.1",
		usage: "the IP `address` connectable sqldb (mysql) instances bind, each on a port of its own, or off to keep every instance a simulated record",
		set:   func(c *Config, s string) (err error) { c.SQLDBListen, err = parseListenIP(s); return },
		get:   func(c *Config) string { return c.SQLDBListen }},
	{name: "sqldb-ports", def: "13306-13405",
		usage: "the `range` of ports sqldb instances listen on, LOW-HIGH (a container publishes it), or any for a port the system picks",
		set:   func(c *Config, s string) (err error) { c.SQLDBPorts, err = parsePortRange(s); return },
		get: func(c *Config) string {
			if c.SQLDBPorts[0] == 0 {
				return "any"
			}
			return strconv.Itoa(c.SQLDBPorts[0]) + "-" + strconv.Itoa(c.SQLDBPorts[1])
		}},
	{name: "sqldb-max-instances", def: "8",
		usage: "how many sqldb instances listen at once, a `count` (1..1000); more are refused for lack of capacity",
		set:   func(c *Config, s string) (err error) { c.SQLDBMaxInstances, err = parseIntRange(s, 1, 1000); return },
		get:   func(c *Config) string { return strconv.Itoa(c.SQLDBMaxInstances) }},
	{name: "sqldb-max-memory", def: "256MiB",
		usage: "the data all listening sqldb instances may hold together, a `size` (1MiB..64GiB), shared equally by --sqldb-max-instances",
		set: func(c *Config, s string) (err error) {
			c.SQLDBMaxMemory, err = parseSizeRange(s, mib, 64*gib)
			return
		},
		get: func(c *Config) string { return formatSize(c.SQLDBMaxMemory) }},
}

// lookupOption returns the option with the given flag name, or nil.
func lookupOption(name string) *option {
	for i := range options {
		if options[i].name == name {
			return &options[i]
		}
	}
	return nil
}

// RegisterCommon adds the flags every subcommand that opens the data file takes, --data and
// --config; cobra registers them as persistent flags on the root command so that serve,
// export and import share one spelling.
func RegisterCommon(fs *pflag.FlagSet) {
	register(fs, true)
}

// RegisterServe adds every flag that RegisterCommon does not: the serve command's.
func RegisterServe(fs *pflag.FlagSet) {
	register(fs, false)
}

// register adds the options whose common field equals common. Values stay raw strings (or
// pflag bools) so that FromFlags can run them through the same parse function as env and
// file values and report errors in one format.
func register(fs *pflag.FlagSet, common bool) {
	for i := range options {
		o := &options[i]
		if o.common != common {
			continue
		}
		if o.isBool {
			fs.Bool(o.name, o.def == "true", o.usage)
		} else {
			fs.String(o.name, o.def, o.usage)
		}
	}
}
