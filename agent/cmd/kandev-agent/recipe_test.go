//go:build linux

package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// recipeImage returns the task image to build the recipe FROM, skipping
// like the relay's engine tests without one (KANDEV_REQUIRE_DOCKER=1 turns
// a missing engine or image into a failure).
func recipeImage(t *testing.T) string {
	t.Helper()
	required := os.Getenv("KANDEV_REQUIRE_DOCKER") == "1"
	image := os.Getenv("KANDEV_DOCKER_IMAGE")
	switch {
	case image == "" && required:
		t.Fatal("KANDEV_REQUIRE_DOCKER=1 but KANDEV_DOCKER_IMAGE names no task image")
	case image == "":
		t.Skip("KANDEV_DOCKER_IMAGE is not set: build the task image with `task docker:image`")
	case testing.Short():
		t.Skip("-short: no containers")
	}
	if out, err := exec.Command("docker", "image", "inspect", image).CombinedOutput(); err != nil {
		if required {
			t.Fatalf("docker image inspect %s: %v\n%s", image, err, out)
		}
		t.Skipf("no Docker engine or image: %s", out)
	}
	return image
}

func docker(t *testing.T, ctx context.Context, args ...string) string {
	t.Helper()
	out, err := exec.CommandContext(ctx, "docker", args...).CombinedOutput()
	require.NoError(t, err, "docker %s:\n%s", strings.Join(args, " "), out)
	return strings.TrimSpace(string(out))
}

// The documented container recipe (docker/agent.Dockerfile) works as
// docs/integrating.md says: built FROM a task image with the static agent, run with
// the token from the environment, it serves /metrics to the token only
// and logs JSON.
func TestContainerRecipe(t *testing.T) {
	image := recipeImage(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	buildCtx := t.TempDir()
	build := exec.CommandContext(ctx, "go", "build", "-trimpath", "-o", filepath.Join(buildCtx, "kandev-agent"), ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)

	var b [6]byte
	_, _ = rand.Read(b[:])
	tag := "kandev-agent-recipe-test:" + hex.EncodeToString(b[:])
	docker(t, ctx, "build", "-q", "-f", "../../../docker/agent.Dockerfile", "--build-arg", "TASK_IMAGE="+image, "-t", tag, buildCtx)
	t.Cleanup(func() { _ = exec.Command("docker", "image", "rm", "-f", tag).Run() })

	const token = "recipe-token"
	run := exec.CommandContext(ctx, "docker", "run", "-d", "--rm", "-e", "KANDEV_AGENT_TOKEN", "-p", "127.0.0.1::7070",
		"-v", t.TempDir()+":/workspace", tag)
	run.Env = append(os.Environ(), "KANDEV_AGENT_TOKEN="+token)
	out, err = run.CombinedOutput()
	require.NoError(t, err, "%s", out)
	id := strings.TrimSpace(string(out))
	t.Cleanup(func() { _ = exec.Command("docker", "rm", "-f", id).Run() })
	addr := docker(t, ctx, "port", id, "7070/tcp")
	addr = strings.Split(addr, "\n")[0]

	metrics := func(tok string) int {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/metrics", nil)
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	require.Eventually(t, func() bool { return metrics(token) == http.StatusOK }, time.Minute, 100*time.Millisecond)
	require.Equal(t, http.StatusUnauthorized, metrics(""))
	logs := docker(t, ctx, "logs", id)
	require.Contains(t, logs, `"msg":"limits"`, "JSON logs, from the recipe's KANDEV_AGENT_LOG_FORMAT")
	require.NotContains(t, logs, token)
}
