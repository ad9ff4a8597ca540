package cloudsvc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/pocketforge/pocketforge/store"
)

// A sql database's engine_config (issue 33): the engine settings a client may choose, checked
// against the engine's schema (databases_engine_config_fields.go) on create and update, kept on
// the database as the settings chosen, and shown merged over the defaults.

// Setting kinds, as GET /databases/<engine>/config names them.
const (
	kindInt    = "integer"
	kindNumber = "number"
	kindString = "string"
	kindBool   = "boolean"
)

// configField is one setting.
type configField struct {
	Group, Name    string // Group: the nested object it lives in ("" at the top)
	Kind           string
	Min, Max       float64 // integer and number settings
	MinLen, MaxLen int     // strings (MaxLen 0: no bound)
	Pattern        string
	Enum           []string
	Nullable       bool // null is a value (it clears the setting)
	Restart        bool // changing it restarts the engine
	Default        any  // shown while unset; nil: not shown until set
	Example        any
	Text           string
}

// key is the setting's key in a database's EngineConfig: group and name joined by "/" (names
// hold dots: pg_partman_bgw.interval).
func (f configField) key() string {
	if f.Group == "" {
		return f.Name
	}
	return f.Group + "/" + f.Name
}

// configSchema is an engine's settings.
type configSchema []configField

// engineConfigSchema is the schema of an engine (nil: it takes none).
func engineConfigSchema(engine string) configSchema {
	switch engine {
	case "mysql":
		return mysqlConfig
	case "postgresql":
		return postgresqlConfig
	}
	return nil
}

// groups are the schema's nested objects, in order.
func (s configSchema) groups() []string {
	var out []string
	for _, f := range s {
		if f.Group != "" && !slices.Contains(out, f.Group) {
			out = append(out, f.Group)
		}
	}
	return out
}

var patterns sync.Map // pattern → *regexp.Regexp

func compiled(p string) *regexp.Regexp {
	if re, ok := patterns.Load(p); ok {
		return re.(*regexp.Regexp)
	}
	re := regexp.MustCompile(p)
	patterns.Store(p, re)
	return re
}

// ApplyEngineConfig checks raw, an engine_config object as sent, against engine's schema and
// returns set with raw's settings applied (a copy; null clears a setting back to its default).
// Every wrong setting is noted in p on its path (engine_config.mysql.connect_timeout); nothing is
// applied then. raw nil (not sent, or null) leaves set as it is.
func ApplyEngineConfig(p *store.Problems, engine string, set map[string]any, raw json.RawMessage) map[string]any {
	if raw == nil || string(bytes.TrimSpace(raw)) == "null" {
		return set
	}
	schema := engineConfigSchema(engine)
	if schema == nil {
		p.Add("engine_config", fmt.Sprintf("%s databases take no engine_config", engine))
		return set
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(raw, &top) != nil || top == nil {
		p.Add("engine_config", "Must be an object")
		return set
	}
	out := make(map[string]any, len(set)+len(top))
	for k, v := range set {
		out[k] = v
	}
	before := len(*p)
	for _, name := range sortedKeys(top) {
		if slices.Contains(schema.groups(), name) {
			var inner map[string]json.RawMessage
			if json.Unmarshal(top[name], &inner) != nil || inner == nil {
				p.Add("engine_config."+name, "Must be an object")
				continue
			}
			for _, sub := range sortedKeys(inner) {
				applySetting(p, schema, out, name, sub, inner[sub])
			}
			continue
		}
		applySetting(p, schema, out, "", name, top[name])
	}
	if len(*p) > before {
		return set
	}
	return out
}

// applySetting checks one setting and applies it to out.
func applySetting(p *store.Problems, schema configSchema, out map[string]any, group, name string, raw json.RawMessage) {
	path := "engine_config." + name
	if group != "" {
		path = "engine_config." + group + "." + name
	}
	i := slices.IndexFunc(schema, func(f configField) bool { return f.Group == group && f.Name == name })
	if i < 0 {
		p.Add(path, "Unknown setting (see GET /databases/<engine>/config)")
		return
	}
	f := schema[i]
	if string(bytes.TrimSpace(raw)) == "null" {
		delete(out, f.key())
		return
	}
	v, problem := f.check(raw)
	if problem != "" {
		p.Add(path, problem)
		return
	}
	out[f.key()] = v
}

// check decodes and checks one value of f.
func (f configField) check(raw json.RawMessage) (any, string) {
	switch f.Kind {
	case kindBool:
		var b bool
		if json.Unmarshal(raw, &b) != nil {
			return nil, "Must be a boolean"
		}
		return b, ""
	case kindString:
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil, "Must be a string"
		}
		n := utf8.RuneCountInString(s)
		switch {
		case len(f.Enum) > 0 && !slices.Contains(f.Enum, s):
			return nil, "Must be one of " + strings.Join(f.Enum, ", ")
		case n < f.MinLen || f.MaxLen > 0 && n > f.MaxLen:
			return nil, fmt.Sprintf("Length must be %d-%d characters", f.MinLen, f.MaxLen)
		case f.Pattern != "" && !compiled(f.Pattern).MatchString(s):
			return nil, "Must match " + f.Pattern
		}
		return s, ""
	}
	var x float64
	if json.Unmarshal(raw, &x) != nil {
		return nil, "Must be a number"
	}
	if f.Kind == kindInt && x != math.Trunc(x) {
		return nil, "Must be an integer"
	}
	if x < f.Min || x > f.Max {
		return nil, fmt.Sprintf("Must be between %s and %s", number(f.Min), number(f.Max))
	}
	return x, ""
}

// number writes a bound as JSON would.
func number(x float64) string {
	b, _ := json.Marshal(x)
	return string(b)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// EngineConfigView is a database's engine_config as the API shows it: every group of the
// engine's schema (empty or not), each setting chosen, and the default of each setting not
// chosen that has one. nil for an engine without settings.
func EngineConfigView(engine string, set map[string]any) map[string]any {
	schema := engineConfigSchema(engine)
	if schema == nil {
		return nil
	}
	out := map[string]any{}
	for _, g := range schema.groups() {
		out[g] = map[string]any{}
	}
	for _, f := range schema {
		v, ok := set[f.key()]
		if !ok {
			if v, ok = f.Default, f.Default != nil; !ok {
				continue
			}
		}
		if f.Group == "" {
			out[f.Name] = v
		} else {
			out[f.Group].(map[string]any)[f.Name] = v
		}
	}
	return out
}

// EngineConfigSchema is what GET /databases/<engine>/config lists: per setting (nested in its
// group) its description, example, bounds or choices, whether a change restarts the engine, and
// its type (a nullable string's is ["string","null"]). nil for an engine without settings.
func EngineConfigSchema(engine string) map[string]any {
	schema := engineConfigSchema(engine)
	if schema == nil {
		return nil
	}
	out := map[string]any{}
	for _, f := range schema {
		info := map[string]any{"description": f.Text, "example": f.Example, "requires_restart": f.Restart, "type": f.Kind}
		switch f.Kind {
		case kindInt, kindNumber:
			info["minimum"], info["maximum"] = f.Min, f.Max
		case kindString:
			if len(f.Enum) > 0 {
				info["enum"] = f.Enum
			}
			if f.MinLen > 0 {
				info["minLength"] = f.MinLen
			}
			if f.MaxLen > 0 {
				info["maxLength"] = f.MaxLen
			}
			if f.Pattern != "" {
				info["pattern"] = f.Pattern
			}
		}
		if f.Nullable {
			info["type"] = []string{f.Kind, "null"}
		}
		if f.Group == "" {
			out[f.Name] = info
			continue
		}
		g, _ := out[f.Group].(map[string]any)
		if g == nil {
			g = map[string]any{}
			out[f.Group] = g
		}
		g[f.Name] = info
	}
	return out
}
