package values

// Merge returns values merged over defaults the way helm coalesces a chart's values.yaml with the
// user's values before it validates them (helm's CoalesceValues): mappings merge key by key, all
// the way down; anything else the user sets — a scalar, a list, a mapping over a non-mapping and
// the reverse — replaces the default whole; a key the user sets to null removes the default's key
// (helm's way of unsetting a default; a null for a key the defaults do not have stays null).
//
// Neither argument is modified; the result shares unchanged subtrees with them.
func Merge(defaults, values map[string]any) map[string]any {
	out := make(map[string]any, len(values)+len(defaults))
	for k, v := range values {
		out[k] = v
	}
	for k, dv := range defaults {
		uv, set := values[k]
		switch {
		case !set:
			out[k] = dv
		case uv == nil:
			delete(out, k)
		default:
			um, userMap := uv.(map[string]any)
			dm, defaultMap := dv.(map[string]any)
			if userMap && defaultMap {
				out[k] = Merge(dm, um)
			}
		}
	}
	return out
}
