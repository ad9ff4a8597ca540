// Package jsoniter serves the part of github.com/json-iterator/go that pocketforge's
// dependencies call — ConfigCompatibleWithStandardLibrary's Marshal and Unmarshal, which
// bleve's geo shapes (github.com/blevesearch/geo/geojson) use — with encoding/json, in place of
// json-iterator, whose module path it takes (pocketforge's go.mod replaces that module with
// this directory).
//
// Why (issue 31): json-iterator builds on github.com/modern-go/reflect2, which calls
// reflect.Type.MethodByName with a name it is handed at run time. Once any such call is
// reachable, the Go linker must keep every exported method of every type that can be reached
// through reflection, used or not: some megabytes of pocketforge's binary. encoding/json makes
// no such call, and ConfigCompatibleWithStandardLibrary promises encoding/json's behaviour
// anyway (HTML-safe strings, map keys sorted, json.Marshaler and json.Unmarshaler honoured).
//
// Only what the build compiles against is here; a dependency that needs more of json-iterator's
// API fails to compile, and the missing name should then be added on top of encoding/json.
package jsoniter

import "encoding/json"

// API is the part of json-iterator's configured API that is served: encoding and decoding
// whole values.
type API interface {
	Marshal(v any) ([]byte, error)
	Unmarshal(data []byte, v any) error
}

// ConfigCompatibleWithStandardLibrary behaves as encoding/json does, which it is.
var ConfigCompatibleWithStandardLibrary API = std{}

// std is API on encoding/json.
type std struct{}

func (std) Marshal(v any) ([]byte, error) { return json.Marshal(v) }

func (std) Unmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }
