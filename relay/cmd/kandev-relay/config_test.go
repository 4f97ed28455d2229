package main

import (
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/relay"
)

// -resume-grace, else KANDEV_RELAY_RESUME_GRACE, reaches
// relay.Config.ResumeGrace: the relay's default unless one is set, the
// flag winning over the variable. 0 holds nothing, as the agent's flag
// does; relay.Config says so with a negative grace, since its zero is the
// default. A grace that does not parse, or is negative, stops the relay
// at start.
func TestResumeGraceReachesTheConfig(t *testing.T) {
	t.Parallel()
	config := func(env string, args ...string) (relay.Config, error) {
		o, err := parseOptions(append([]string{"-sessions", "sessions.json"}, args...),
			lookupEnv([]string{envResumeGrace + "=" + env}), io.Discard)
		if err != nil {
			return relay.Config{}, err
		}
		return o.relayConfig(nil), nil
	}
	for name, c := range map[string]struct {
		env  string
		args []string
		want time.Duration
	}{
		"default":          {"", nil, relay.DefaultResumeGrace},
		"flag":             {"", []string{"-resume-grace", "2m"}, 2 * time.Minute},
		"variable":         {"30s", nil, 30 * time.Second},
		"flag wins":        {"30s", []string{"-resume-grace", "2m"}, 2 * time.Minute},
		"none by flag":     {"30s", []string{"-resume-grace", "0"}, -1},
		"none by variable": {"0", nil, -1},
	} {
		cfg, err := config(c.env, c.args...)
		require.NoError(t, err, name)
		if c.want < 0 {
			assert.Negative(t, cfg.ResumeGrace, name)
			continue
		}
		assert.Equal(t, c.want, cfg.ResumeGrace, name)
	}
	_, err := config("soon")
	assert.ErrorContains(t, err, envResumeGrace+`="soon"`)
	_, err = config("-5s")
	assert.ErrorContains(t, err, "must not be negative")
	_, err = config("", "-resume-grace", "-1s")
	assert.ErrorContains(t, err, "must not be negative")
}
