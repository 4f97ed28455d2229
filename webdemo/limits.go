package webdemo

import (
	"fmt"
	"strconv"
	"strings"
)

// EnvMaxConnections caps the relay's active language-server streams, as it
// does for kandev-relay.
const EnvMaxConnections = "KANDEV_LSP_MAX_CONNECTIONS"

// MaxConnectionsFromEnv parses the value of EnvMaxConnections: empty is
// zero (the relay's default); anything else must be a positive integer, so
// a typo never silently means "no cap" or "no streams".
func MaxConnectionsFromEnv(v string) (int, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%s=%q: want a positive integer", EnvMaxConnections, v)
	}
	return n, nil
}
