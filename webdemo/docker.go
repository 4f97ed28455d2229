package webdemo

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// DockerTask is the task container of the demo's Local Docker session,
// created the way docs/docker.md tells: the task image (docker/build-image),
// whose main process is the agent, the token in its environment, the
// agent's port published on loopback and the demo's workspace mounted at
// /workspace. It is created stopped: the relay resumes it on the first
// stream, as it resumes any stopped task.
type DockerTask struct {
	// Name is the container's name.
	Name string
	// URL is the agent's base URL on loopback.
	URL *url.URL
	// Token is the agent's bearer token.
	Token string

	remove    sync.Once
	removeErr error
}

// CreateDockerTask creates the container from image over the host
// directory workspace. It fails with the engine's own words when no engine
// answers or the image is missing.
func CreateDockerTask(ctx context.Context, image, workspace, token string) (*DockerTask, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if _, err := docker(ctx, nil, "image", "inspect", "--format", "{{.Id}}", image); err != nil {
		return nil, err
	}
	// A free loopback port now; the container keeps it across restarts
	// (a port left to the engine would change on every start).
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	ln.Close()
	t := &DockerTask{
		Name:  "kandev-demo-" + strings.ToLower(rand.Text()[:10]),
		URL:   &url.URL{Scheme: "http", Host: "127.0.0.1:" + port},
		Token: token,
	}
	// The token reaches the container through the CLI's environment, not
	// its command line (which the process list shows).
	env := append(os.Environ(), "KANDEV_AGENT_TOKEN="+token)
	if _, err := docker(ctx, env, "create", "--name", t.Name, "--label", "kandev-demo=1",
		"-e", "KANDEV_AGENT_TOKEN", "-p", "127.0.0.1:"+port+":7070", "-v", workspace+":/workspace", image); err != nil {
		return nil, err
	}
	return t, nil
}

// Remove stops the container — SIGTERM is its agent's task stop, so open
// streams close with 1001 — and deletes it. Later calls do nothing.
func (t *DockerTask) Remove() error {
	t.remove.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_, err := docker(ctx, nil, "stop", "--time", "10", "--", t.Name)
		// rm -f even after a failed stop: nothing may outlive the demo.
		if _, rmErr := docker(ctx, nil, "rm", "-f", "--", t.Name); rmErr != nil {
			err = rmErr
		}
		t.removeErr = err
	})
	return t.removeErr
}

// docker runs the docker CLI and returns its trimmed stdout; an error
// carries its stderr.
func docker(ctx context.Context, env []string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "docker", args...)
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("docker %s: %w: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(stdout.String()), nil
}
