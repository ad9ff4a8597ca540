package buildsvc

import "strings"

// SplitAttribute splits "NAMESPACE:NAME".
func SplitAttribute(s string) (namespace, name string, err error) {
	parts := strings.Split(s, ":")
	if len(parts) != 2 || parts[0] == "" || parts[1] == "" {
		return "", "", BadRequest("invalid_attribute", "attribute '%s' must be in the $NAMESPACE:$NAME style", s)
	}
	return parts[0], parts[1], nil
}
