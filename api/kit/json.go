package kit

import (
	"bytes"
	"encoding/json"
)

// MarshalJSON is the JSON encoder of every API (fiber.Config.JSONEncoder). It does not escape
// <, > and & as \u003c…: the real services send "<REDACTED>" literally, and clients compare
// strings, not JSON.
func MarshalJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
