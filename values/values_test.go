package values

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// update rewrites the goldens of testdata/ from the current output (UPDATE_GOLDEN=1).
var update = os.Getenv("UPDATE_GOLDEN") == "1"

// chartFiles are the real chart's default values with the spec's key names (see testdata/README.md).
var chartFiles = []string{
	"testdata/metallb-values.renamed.yaml",
	"testdata/metallb-values-v0.15.2.renamed.yaml",
}

func TestSchemaIsDraft07AndCompiles(t *testing.T) {
	var doc map[string]any
	if err := json.Unmarshal(Schema(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc["$schema"] != "https://json-schema.org/draft-07/schema#" {
		t.Fatalf("$schema = %v", doc["$schema"])
	}
	if _, err := compiled(); err != nil {
		t.Fatal(err)
	}
	// The copy is the caller's: changing it changes nothing here.
	s := Schema()
	s[0] = 'x'
	if Schema()[0] != '{' {
		t.Fatal("Schema returned the embedded bytes themselves")
	}
}

func TestEmbeddedDefaultsAreValid(t *testing.T) {
	for _, opts := range []Options{{}, {NoDefaults: true}} {
		vs, err := Validate(DefaultsYAML(), opts)
		if err != nil || len(vs) != 0 {
			t.Fatalf("%+v: defaults: %v %v", opts, err, vs)
		}
	}
	// An empty document is the defaults alone.
	if vs, err := Validate(nil, Options{}); err != nil || len(vs) != 0 {
		t.Fatalf("empty document over the defaults: %v %v", err, vs)
	}
}

// TestChartDefaultsAreValid: the chart's own values.yaml (today's and the v0.15.2 the spec
// describes), keys renamed to the spec's, validate alone and merged over the embedded defaults.
func TestChartDefaultsAreValid(t *testing.T) {
	for _, name := range chartFiles {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, opts := range []Options{{}, {NoDefaults: true}} {
			vs, err := Validate(data, opts)
			if err != nil || len(vs) != 0 {
				t.Errorf("%s %+v: %v %v", name, opts, err, vs)
			}
		}
	}
}

// TestChartCopiesMatchReference: the committed copies are the reference files with exactly the
// spec's renames (prometheus→metrics, rbacPrometheus→rbacMetrics, prometheusRule→metricsRule,
// frr→routing, frrMetrics→routingMetrics). Skipped where the reference is not checked out.
func TestChartCopiesMatchReference(t *testing.T) {
	ref := filepath.Join("..", "..", "shared", "reference", "metallb")
	sources := map[string]string{
		"testdata/metallb-values.renamed.yaml":         "values.yaml",
		"testdata/metallb-values-v0.15.2.renamed.yaml": "values.v0.15.2.yaml",
	}
	for copyName, refName := range sources {
		orig, err := os.ReadFile(filepath.Join(ref, refName))
		if err != nil {
			t.Skipf("reference not available: %v", err)
		}
		want := orig
		for _, r := range [][2]string{
			{`(?m)^prometheus:`, "metrics:"},
			{`(?m)^  rbacPrometheus:`, "  rbacMetrics:"},
			{`(?m)^  prometheusRule:`, "  metricsRule:"},
			{`(?m)^  frr:`, "  routing:"},
			{`(?m)^  frrMetrics:`, "  routingMetrics:"},
		} {
			want = regexp.MustCompile(r[0]).ReplaceAll(want, []byte(r[1]))
		}
		got, err := os.ReadFile(copyName)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not %s with the spec's renames", copyName, refName)
		}
	}
}

// invalidCase is one document that breaks one rule of the spec, merged over the defaults unless
// noDefaults, and the one violation it must give.
type invalidCase struct {
	name, doc  string
	noDefaults bool
	path, rule string
	msg        string // a substring of the message, when the wording matters
}

// invalidCases: one per rule of the spec's values table.
var invalidCases = []invalidCase{
	// top level
	{name: "controller required", doc: "controller: null", path: "/controller", rule: "required", msg: `missing required key "controller"`},
	{name: "speaker required", doc: "speaker: ~", path: "/speaker", rule: "required"},
	{name: "imagePullSecrets is an array", doc: "imagePullSecrets: {name: regcred}", path: "/imagePullSecrets", rule: "type", msg: "got object, want array"},
	{name: "imagePullSecrets item is an object", doc: "imagePullSecrets: [regcred]", path: "/imagePullSecrets/0", rule: "type"},
	{name: "imagePullSecrets item name required", doc: "imagePullSecrets: [{}]", path: "/imagePullSecrets/0/name", rule: "required"},
	{name: "imagePullSecrets item name is a string", doc: "imagePullSecrets: [{name: 42}]", path: "/imagePullSecrets/0/name", rule: "type", msg: "got number 42, want string"},
	{name: "imagePullSecrets item closed", doc: "imagePullSecrets: [{name: a}, {name: b, namespace: c}]", path: "/imagePullSecrets/1/namespace", rule: "additionalProperties", msg: `key "namespace" is not allowed`},
	{name: "nameOverride string", doc: "nameOverride: 5", path: "/nameOverride", rule: "type"},
	{name: "fullNameOverride string", doc: "fullNameOverride: true", path: "/fullNameOverride", rule: "type", msg: "got boolean true, want string"},
	{name: "configInLine object", doc: "configInLine: [pool]", path: "/configInLine", rule: "type", msg: "got array, want object"},
	{name: "loadBalancerClass string", doc: "loadBalancerClass: {}", path: "/loadBalancerClass", rule: "type"},
	{name: "rbac object", doc: "rbac: true", path: "/rbac", rule: "type"},
	{name: "rbac.create boolean", doc: "rbac: {create: \"yes\"}", path: "/rbac/create", rule: "type", msg: `got string "yes", want boolean`},
	{name: "crds.enabled boolean", doc: "crds: {enabled: 1}", path: "/crds/enabled", rule: "type"},
	{name: "crds.validationFailurePolicy enum", doc: "crds: {validationFailurePolicy: Warn}", path: "/crds/validationFailurePolicy", rule: "enum", msg: `got "Warn", want one of "Ignore", "Fail"`},

	// metrics
	{name: "metrics object", doc: "metrics: on", path: "/metrics", rule: "type"},
	{name: "metrics.podMonitor required", doc: "metrics: {podMonitor: null}", path: "/metrics/podMonitor", rule: "required"},
	{name: "metrics.metricsRule required", doc: "metrics: {metricsRule: null}", path: "/metrics/metricsRule", rule: "required"},
	{name: "metrics required alone", doc: "metrics: {podMonitor: {}}\ncontroller: {image: {}, serviceAccount: {}}\nspeaker: {image: {}, serviceAccount: {}, tolerateMaster: true}", noDefaults: true, path: "/metrics/metricsRule", rule: "required"},
	{name: "metrics.scrapeAnnotations boolean", doc: "metrics: {scrapeAnnotations: \"true\"}", path: "/metrics/scrapeAnnotations", rule: "type"},
	{name: "metrics.metricsPort integer", doc: "metrics: {metricsPort: 7472.5}", path: "/metrics/metricsPort", rule: "type", msg: "got number 7472.5, want integer"},
	{name: "metrics.secureMetricsPort integer", doc: "metrics: {secureMetricsPort: \"9120\"}", path: "/metrics/secureMetricsPort", rule: "type"},
	{name: "metrics.rbacMetrics boolean", doc: "metrics: {rbacMetrics: 1}", path: "/metrics/rbacMetrics", rule: "type"},
	{name: "metrics.serviceAccount string", doc: "metrics: {serviceAccount: [a]}", path: "/metrics/serviceAccount", rule: "type"},
	{name: "metrics.namespace string", doc: "metrics: {namespace: 7}", path: "/metrics/namespace", rule: "type"},
	{name: "metrics.rbacProxy.repository string", doc: "metrics: {rbacProxy: {repository: 1}}", path: "/metrics/rbacProxy/repository", rule: "type"},
	{name: "metrics.rbacProxy.tag string, not null", doc: "metrics: {rbacProxy: {tag: 0.12}}", path: "/metrics/rbacProxy/tag", rule: "type", msg: "want string"},
	{name: "podMonitor.enabled boolean", doc: "metrics: {podMonitor: {enabled: \"no\"}}", path: "/metrics/podMonitor/enabled", rule: "type"},
	{name: "podMonitor.additionalMonitors object", doc: "metrics: {podMonitor: {additionalMonitors: []}}", path: "/metrics/podMonitor/additionalMonitors", rule: "type"},
	{name: "podMonitor.jobLabel string", doc: "metrics: {podMonitor: {jobLabel: 3}}", path: "/metrics/podMonitor/jobLabel", rule: "type"},
	{name: "podMonitor.interval integer or null", doc: "metrics: {podMonitor: {interval: 30s}}", path: "/metrics/podMonitor/interval", rule: "type", msg: `got string "30s", want integer or null`},
	{name: "podMonitor.metricRelabelings items objects", doc: "metrics: {podMonitor: {metricRelabelings: [keep]}}", path: "/metrics/podMonitor/metricRelabelings/0", rule: "type"},
	{name: "podMonitor.relabelings array", doc: "metrics: {podMonitor: {relabelings: {}}}", path: "/metrics/podMonitor/relabelings", rule: "type"},
	{name: "serviceMonitor.enabled boolean", doc: "metrics: {serviceMonitor: {enabled: 0}}", path: "/metrics/serviceMonitor/enabled", rule: "type"},
	{name: "serviceMonitor.jobLabel string", doc: "metrics: {serviceMonitor: {jobLabel: {}}}", path: "/metrics/serviceMonitor/jobLabel", rule: "type"},
	{name: "serviceMonitor.interval integer or null", doc: "metrics: {serviceMonitor: {interval: 1.5}}", path: "/metrics/serviceMonitor/interval", rule: "type", msg: "want integer or null"},
	{name: "serviceMonitor.metricRelabelings array", doc: "metrics: {serviceMonitor: {metricRelabelings: x}}", path: "/metrics/serviceMonitor/metricRelabelings", rule: "type"},
	{name: "serviceMonitor.relabelings items objects", doc: "metrics: {serviceMonitor: {relabelings: [[]]}}", path: "/metrics/serviceMonitor/relabelings/0", rule: "type"},

	// metricsRule and alerts
	{name: "metricsRule.enabled required", doc: "metrics: {metricsRule: {enabled: null}}", path: "/metrics/metricsRule/enabled", rule: "required"},
	{name: "metricsRule.enabled boolean", doc: "metrics: {metricsRule: {enabled: enabled}}", path: "/metrics/metricsRule/enabled", rule: "type"},
	{name: "metricsRule.additionalMonitors object", doc: "metrics: {metricsRule: {additionalMonitors: x}}", path: "/metrics/metricsRule/additionalMonitors", rule: "type"},
	{name: "metricsRule.staleConfig required", doc: "metrics: {metricsRule: {staleConfig: null}}", path: "/metrics/metricsRule/staleConfig", rule: "required"},
	{name: "metricsRule.configNotLoaded required", doc: "metrics: {metricsRule: {configNotLoaded: null}}", path: "/metrics/metricsRule/configNotLoaded", rule: "required"},
	{name: "metricsRule.addressPoolExhausted required", doc: "metrics: {metricsRule: {addressPoolExhausted: null}}", path: "/metrics/metricsRule/addressPoolExhausted", rule: "required"},
	{name: "metricsRule.addressPoolUsage required", doc: "metrics: {metricsRule: {addressPoolUsage: null}}", path: "/metrics/metricsRule/addressPoolUsage", rule: "required"},
	{name: "metricsRule.bgpSessionDown required", doc: "metrics: {metricsRule: {bgpSessionDown: null}}", path: "/metrics/metricsRule/bgpSessionDown", rule: "required"},
	{name: "metricsRule.extraAlerts items objects", doc: "metrics: {metricsRule: {extraAlerts: [1]}}", path: "/metrics/metricsRule/extraAlerts/0", rule: "type"},
	{name: "alert object", doc: "metrics: {metricsRule: {staleConfig: true}}", path: "/metrics/metricsRule/staleConfig", rule: "type"},
	{name: "alert enabled required", doc: "metrics: {metricsRule: {configNotLoaded: {enabled: null}}}", path: "/metrics/metricsRule/configNotLoaded/enabled", rule: "required"},
	{name: "alert enabled boolean", doc: "metrics: {metricsRule: {bgpSessionDown: {enabled: \"true\"}}}", path: "/metrics/metricsRule/bgpSessionDown/enabled", rule: "type"},
	{name: "alert labels map to strings", doc: "metrics: {metricsRule: {addressPoolExhausted: {labels: {severity: 1}}}}", path: "/metrics/metricsRule/addressPoolExhausted/labels/severity", rule: "type"},
	{name: "addressPoolUsage.enabled required", doc: "metrics: {metricsRule: {addressPoolUsage: {enabled: null}}}", path: "/metrics/metricsRule/addressPoolUsage/enabled", rule: "required"},
	{name: "addressPoolUsage.thresholds array", doc: "metrics: {metricsRule: {addressPoolUsage: {thresholds: 75}}}", path: "/metrics/metricsRule/addressPoolUsage/thresholds", rule: "type"},
	{name: "threshold percent required", doc: "metrics: {metricsRule: {addressPoolUsage: {thresholds: [{labels: {severity: warning}}]}}}", path: "/metrics/metricsRule/addressPoolUsage/thresholds/0/percent", rule: "required"},
	{name: "threshold percent at most 100", doc: "metrics: {metricsRule: {addressPoolUsage: {thresholds: [{percent: 75}, {percent: 101}]}}}", path: "/metrics/metricsRule/addressPoolUsage/thresholds/1/percent", rule: "maximum", msg: "got 101, want at most 100"},
	{name: "threshold percent at least 0", doc: "metrics: {metricsRule: {addressPoolUsage: {thresholds: [{percent: -1}]}}}", path: "/metrics/metricsRule/addressPoolUsage/thresholds/0/percent", rule: "minimum", msg: "got -1, want at least 0"},
	{name: "threshold percent integer", doc: "metrics: {metricsRule: {addressPoolUsage: {thresholds: [{percent: 80.5}]}}}", path: "/metrics/metricsRule/addressPoolUsage/thresholds/0/percent", rule: "type"},
	{name: "threshold labels map to strings", doc: "metrics: {metricsRule: {addressPoolUsage: {thresholds: [{percent: 90, labels: {page: true}}]}}}", path: "/metrics/metricsRule/addressPoolUsage/thresholds/0/labels/page", rule: "type"},

	// component (controller and speaker)
	{name: "controller object", doc: "controller: enabled", path: "/controller", rule: "type", msg: `got string "enabled", want object`},
	{name: "component image required", doc: "controller: {image: null}", path: "/controller/image", rule: "required"},
	{name: "component serviceAccount required", doc: "speaker: {serviceAccount: null}", path: "/speaker/serviceAccount", rule: "required"},
	{name: "component enabled boolean", doc: "controller: {enabled: \"false\"}", path: "/controller/enabled", rule: "type"},
	{name: "component logLevel enum", doc: "controller: {logLevel: verbose}", path: "/controller/logLevel", rule: "enum", msg: `got "verbose", want one of "all", "debug", "info", "warn", "error", "none"`},
	{name: "component logLevel case-sensitive", doc: "speaker: {logLevel: INFO}", path: "/speaker/logLevel", rule: "enum"},
	{name: "component logLevel string", doc: "speaker: {logLevel: 3}", path: "/speaker/logLevel", rule: "type"},
	{name: "image object", doc: "controller: {image: quay.io/x}", path: "/controller/image", rule: "type"},
	{name: "image repository string", doc: "speaker: {image: {repository: [a]}}", path: "/speaker/image/repository", rule: "type"},
	{name: "image tag string or null", doc: "controller: {image: {tag: 0.15}}", path: "/controller/image/tag", rule: "type", msg: "got number 0.15, want string or null"},
	{name: "image pullPolicy enum", doc: "speaker: {image: {pullPolicy: Sometimes}}", path: "/speaker/image/pullPolicy", rule: "enum", msg: `got "Sometimes", want one of "Always", "IfNotPresent", "Never"`},
	{name: "image pullPolicy null or string", doc: "controller: {image: {pullPolicy: 1}}", path: "/controller/image/pullPolicy", rule: "type", msg: "want null or string"},
	{name: "serviceAccount object", doc: "controller: {serviceAccount: default}", path: "/controller/serviceAccount", rule: "type"},
	{name: "serviceAccount.create boolean", doc: "controller: {serviceAccount: {create: 1}}", path: "/controller/serviceAccount/create", rule: "type"},
	{name: "serviceAccount.name string", doc: "speaker: {serviceAccount: {name: 1}}", path: "/speaker/serviceAccount/name", rule: "type"},
	{name: "serviceAccount.annotations object", doc: "speaker: {serviceAccount: {annotations: a=b}}", path: "/speaker/serviceAccount/annotations", rule: "type"},
	{name: "resources object", doc: "controller: {resources: 100m}", path: "/controller/resources", rule: "type"},
	{name: "nodeSelector object", doc: "speaker: {nodeSelector: [linux]}", path: "/speaker/nodeSelector", rule: "type"},
	{name: "affinity object", doc: "controller: {affinity: true}", path: "/controller/affinity", rule: "type"},
	{name: "podAnnotations object", doc: "speaker: {podAnnotations: x}", path: "/speaker/podAnnotations", rule: "type"},
	{name: "tolerations array", doc: "controller: {tolerations: {}}", path: "/controller/tolerations", rule: "type"},
	{name: "tolerations items objects", doc: "speaker: {tolerations: [{key: a}, NoSchedule]}", path: "/speaker/tolerations/1", rule: "type"},
	{name: "priorityClassName string", doc: "controller: {priorityClassName: 1000}", path: "/controller/priorityClassName", rule: "type"},
	{name: "runtimeClassName string", doc: "controller: {runtimeClassName: false}", path: "/controller/runtimeClassName", rule: "type"},

	// probes
	{name: "probe object", doc: "controller: {livenessProbe: 10}", path: "/controller/livenessProbe", rule: "type"},
	{name: "probe enabled boolean", doc: "speaker: {readinessProbe: {enabled: \"on\"}}", path: "/speaker/readinessProbe/enabled", rule: "type"},
	{name: "probe failureThreshold required", doc: "controller: {livenessProbe: {failureThreshold: null}}", path: "/controller/livenessProbe/failureThreshold", rule: "required"},
	{name: "probe initialDelaySeconds required", doc: "controller: {readinessProbe: {initialDelaySeconds: null}}", path: "/controller/readinessProbe/initialDelaySeconds", rule: "required"},
	{name: "probe periodSeconds required", doc: "speaker: {livenessProbe: {periodSeconds: null}}", path: "/speaker/livenessProbe/periodSeconds", rule: "required"},
	{name: "probe successThreshold required", doc: "speaker: {readinessProbe: {successThreshold: null}}", path: "/speaker/readinessProbe/successThreshold", rule: "required"},
	{name: "probe timeoutSeconds required", doc: "controller: {livenessProbe: {timeoutSeconds: null}}", path: "/controller/livenessProbe/timeoutSeconds", rule: "required"},
	{name: "probe failureThreshold integer", doc: "controller: {livenessProbe: {failureThreshold: \"3\"}}", path: "/controller/livenessProbe/failureThreshold", rule: "type"},
	{name: "probe timeoutSeconds integer", doc: "speaker: {readinessProbe: {timeoutSeconds: 0.5}}", path: "/speaker/readinessProbe/timeoutSeconds", rule: "type", msg: "got number 0.5, want integer"},

	// controller extras
	{name: "controller.strategy object", doc: "controller: {strategy: Recreate}", path: "/controller/strategy", rule: "type"},
	{name: "controller.strategy.type required", doc: "controller: {strategy: {type: null}}", path: "/controller/strategy/type", rule: "required"},
	{name: "controller.strategy.type string", doc: "controller: {strategy: {type: 1}}", path: "/controller/strategy/type", rule: "type"},
	{name: "controller.command string", doc: "controller: {command: [/controller]}", path: "/controller/command", rule: "type"},
	{name: "controller.webhookMode string", doc: "controller: {webhookMode: true}", path: "/controller/webhookMode", rule: "type"},
	{name: "controller.extraContainers array", doc: "controller: {extraContainers: {}}", path: "/controller/extraContainers", rule: "type"},

	// speaker extras
	{name: "speaker object", doc: "speaker: [a]", path: "/speaker", rule: "type"},
	{name: "speaker.tolerateMaster required", doc: "speaker: {tolerateMaster: null}", path: "/speaker/tolerateMaster", rule: "required", msg: `missing required key "tolerateMaster"`},
	{name: "speaker.tolerateMaster boolean", doc: "speaker: {tolerateMaster: \"yes\"}", path: "/speaker/tolerateMaster", rule: "type"},
	{name: "speaker.memberlist object", doc: "speaker: {memberlist: true}", path: "/speaker/memberlist", rule: "type"},
	{name: "memberlist.enabled boolean", doc: "speaker: {memberlist: {enabled: 1}}", path: "/speaker/memberlist/enabled", rule: "type"},
	{name: "memberlist.mlBindPort integer", doc: "speaker: {memberlist: {mlBindPort: \"7946\"}}", path: "/speaker/memberlist/mlBindPort", rule: "type", msg: `got string "7946", want integer`},
	{name: "memberlist.mlBindAddrOverride string", doc: "speaker: {memberlist: {mlBindAddrOverride: 10}}", path: "/speaker/memberlist/mlBindAddrOverride", rule: "type"},
	{name: "memberlist.mlSecretKeyPath string", doc: "speaker: {memberlist: {mlSecretKeyPath: {}}}", path: "/speaker/memberlist/mlSecretKeyPath", rule: "type"},
	{name: "speaker.excludeInterfaces.enabled boolean", doc: "speaker: {excludeInterfaces: {enabled: \"\"}}", path: "/speaker/excludeInterfaces/enabled", rule: "type"},
	{name: "speaker.ignoreExcludeLB boolean", doc: "speaker: {ignoreExcludeLB: \"false\"}", path: "/speaker/ignoreExcludeLB", rule: "type"},
	{name: "speaker.updateStrategy.type required", doc: "speaker: {updateStrategy: {type: null}}", path: "/speaker/updateStrategy/type", rule: "required"},
	{name: "speaker.updateStrategy object", doc: "speaker: {updateStrategy: OnDelete}", path: "/speaker/updateStrategy", rule: "type"},
	{name: "speaker.runtimeClassName string", doc: "speaker: {runtimeClassName: 1}", path: "/speaker/runtimeClassName", rule: "type"},
	{name: "speaker.securityContext object", doc: "speaker: {securityContext: privileged}", path: "/speaker/securityContext", rule: "type"},
	{name: "speaker.secretName string", doc: "speaker: {secretName: 1}", path: "/speaker/secretName", rule: "type"},
	{name: "speaker.routing object", doc: "speaker: {routing: true}", path: "/speaker/routing", rule: "type"},
	{name: "speaker.routing.enabled required", doc: "speaker: {routing: {enabled: null}}", path: "/speaker/routing/enabled", rule: "required"},
	{name: "speaker.routing.enabled boolean", doc: "speaker: {routing: {enabled: 1}}", path: "/speaker/routing/enabled", rule: "type"},
	{name: "speaker.routing.image like a component image", doc: "speaker: {routing: {image: {pullPolicy: always}}}", path: "/speaker/routing/image/pullPolicy", rule: "enum"},
	{name: "speaker.routing.image.tag string or null", doc: "speaker: {routing: {image: {tag: 9.1}}}", path: "/speaker/routing/image/tag", rule: "type"},
	{name: "speaker.routing.metricsPort integer", doc: "speaker: {routing: {metricsPort: \"7473\"}}", path: "/speaker/routing/metricsPort", rule: "type"},
	{name: "speaker.routing.secureMetricsPort integer", doc: "speaker: {routing: {secureMetricsPort: 9121.5}}", path: "/speaker/routing/secureMetricsPort", rule: "type"},
	{name: "speaker.routing literal resources: key", doc: "speaker: {routing: {\"resources:\": []}}", path: "/speaker/routing/resources:", rule: "type"},
	{name: "speaker.command string", doc: "speaker: {command: 1}", path: "/speaker/command", rule: "type"},
	{name: "speaker.reloader.resources object", doc: "speaker: {reloader: {resources: 1}}", path: "/speaker/reloader/resources", rule: "type"},
	{name: "speaker.routingMetrics.resources object", doc: "speaker: {routingMetrics: {resources: []}}", path: "/speaker/routingMetrics/resources", rule: "type"},
	{name: "speaker.extraContainers items objects", doc: "speaker: {extraContainers: [sidecar]}", path: "/speaker/extraContainers/0", rule: "type"},
}

// TestInvalidDocuments: each document breaks one rule and gets exactly that one violation.
func TestInvalidDocuments(t *testing.T) {
	for _, c := range invalidCases {
		t.Run(c.name, func(t *testing.T) {
			vs, err := Validate([]byte(c.doc), Options{NoDefaults: c.noDefaults})
			if err != nil {
				t.Fatalf("not parsed: %v", err)
			}
			if len(vs) != 1 || vs[0].Path != c.path || vs[0].Rule != c.rule || !strings.Contains(vs[0].Message, c.msg) {
				t.Fatalf("got %v\nwant one %s at %s (message with %q)", vs, c.rule, c.path, c.msg)
			}
		})
	}
	if len(invalidCases) < 30 {
		t.Fatalf("only %d cases", len(invalidCases))
	}
}

// TestValidDocuments: what the spec leaves open stays open.
func TestValidDocuments(t *testing.T) {
	cases := []struct{ name, doc string }{
		{"unknown top-level keys", "frrk8s: {enabled: true}\nnetworkpolicies: {enabled: false}"},
		{"unknown keys in every open object", "metrics: {podMonitor: {tlsConfig: {insecureSkipVerify: true}}}\nspeaker: {bgpDebounceTimeout: null, initContainers: {cpMetrics: {resources: {}}}}\ncontroller: {labels: {a: b}}"},
		{"the chart's fullnameOverride spelling", "fullnameOverride: lb"},
		{"routing.resources is unconstrained (the schema's key is resources:)", "speaker: {routing: {resources: 5}}"},
		{"routing resources: key as an object", "speaker: {routing: {\"resources:\": {limits: {cpu: 1}}}}"},
		{"tag and pullPolicy null", "controller: {image: {tag: null, pullPolicy: null}}"},
		{"tag and pullPolicy set", "controller: {image: {tag: v0.15.2, pullPolicy: IfNotPresent}}\nspeaker: {image: {pullPolicy: Always}}"},
		{"interval integer", "metrics: {podMonitor: {interval: 30}, serviceMonitor: {interval: 60}}"},
		{"thresholds at the bounds", "metrics: {metricsRule: {addressPoolUsage: {thresholds: [{percent: 0}, {percent: 100}]}}}"},
		{"integer-valued float", "speaker: {memberlist: {mlBindPort: 7946.0}}"},
		{"YAML 1.1 booleans, as helm reads them", "rbac: {create: yes}\ncrds: {enabled: on}\nspeaker: {tolerateMaster: n, ignoreExcludeLB: OFF}"},
		{"every log level", "controller: {logLevel: all}\nspeaker: {logLevel: none}"},
		{"Ignore policy", "crds: {validationFailurePolicy: Ignore}"},
		{"probe without enabled", "controller: {livenessProbe: {enabled: null}}"},
		{"imagePullSecrets with names", "imagePullSecrets: [{name: a}, {name: b}]"},
		{"JSON", `{"speaker": {"tolerateMaster": false, "memberlist": {"mlBindPort": 7947}}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			vs, err := Validate([]byte(c.doc), Options{})
			if err != nil || len(vs) != 0 {
				t.Fatalf("%v %v", err, vs)
			}
		})
	}
}

// TestViolationsSortedAndDeduplicated: many violations in one document come back once each, in
// path order with array indexes compared as numbers.
func TestViolationsSortedAndDeduplicated(t *testing.T) {
	var b strings.Builder
	b.WriteString("metrics: {metricsRule: {addressPoolUsage: {thresholds: [")
	for i := 0; i < 12; i++ {
		b.WriteString("{percent: 200},")
	}
	b.WriteString("]}}}\ncontroller: 5\nspeaker: {tolerateMaster: x}\n")
	vs, err := Validate([]byte(b.String()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, v := range vs {
		paths = append(paths, v.Path)
	}
	want := []string{"/controller"}
	for i := 0; i < 12; i++ {
		want = append(want, "/metrics/metricsRule/addressPoolUsage/thresholds/"+strconv.Itoa(i)+"/percent")
	}
	want = append(want, "/speaker/tolerateMaster")
	if strings.Join(paths, "\n") != strings.Join(want, "\n") {
		t.Fatalf("paths:\n%s\nwant:\n%s", strings.Join(paths, "\n"), strings.Join(want, "\n"))
	}
}

// TestWordingGolden: every violation of testdata/invalid.yaml, worded as the CLI prints it, against
// testdata/invalid.golden (UPDATE_GOLDEN=1 rewrites it).
func TestWordingGolden(t *testing.T) {
	data, err := os.ReadFile("testdata/invalid.yaml")
	if err != nil {
		t.Fatal(err)
	}
	vs, err := Validate(data, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, v := range vs {
		b.WriteString(v.String() + "\n")
	}
	golden := "testdata/invalid.golden"
	if update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Fatalf("violations differ from %s (UPDATE_GOLDEN=1 to accept):\n%s", golden, b.String())
	}
}

func TestCheckRefusesNothingItCannotReport(t *testing.T) {
	// Values built in Go (not parsed) with a type the validator does not know are reported, not
	// a panic.
	vs, err := Check(map[string]any{"controller": map[string]any{"image": map[string]any{}, "serviceAccount": map[string]any{}}, "speaker": 3})
	if err != nil || len(vs) != 1 || vs[0].Path != "/speaker" {
		t.Fatalf("%v %v", vs, err)
	}
	_, err = Validate(bytes.Repeat([]byte("a"), MaxSize+1), Options{})
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("over MaxSize: %v", err)
	}
}

// TestConcurrentValidate: one compiled schema and one parsed copy of the defaults serve every
// request at once (run with -race).
func TestConcurrentValidate(t *testing.T) {
	docs := []struct {
		doc   string
		valid bool
	}{{"", true}, {"speaker: {tolerateMaster: 1}", false}, {"controller: {image: null}", false}, {"crds: {enabled: false}", true}}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				d := docs[(g+i)%len(docs)]
				vs, err := Validate([]byte(d.doc), Options{})
				if err != nil || d.valid != (len(vs) == 0) {
					t.Errorf("%q: %v %v", d.doc, vs, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if vs, err := Validate(DefaultsYAML(), Options{NoDefaults: true}); err != nil || len(vs) != 0 {
		t.Fatalf("the shared defaults changed: %v %v", vs, err)
	}
}
