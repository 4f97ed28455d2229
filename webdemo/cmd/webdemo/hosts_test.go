package main

import (
	"bufio"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kandev/lsp/internal/wire"
)

// buildBin runs `go build` for pkg into dir and returns the binary.
func buildBin(t *testing.T, dir, name, pkg string) string {
	t.Helper()
	bin := filepath.Join(dir, name)
	if out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, out)
	}
	return bin
}

// -hosts adds names to the Host allowlist of the page and of the relay
// mounted under it: a signed-in request for a listed name is served, the
// same request for an unlisted name is refused with 403, and the address
// the demo listens on keeps working.
func TestHostsFlag(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds and runs the demo and its agents")
	}
	dir := t.TempDir()
	demo := buildBin(t, dir, "webdemo", "github.com/kandev/lsp/webdemo/cmd/webdemo")
	agent := buildBin(t, dir, "kandev-agent", "github.com/kandev/lsp/agent/cmd/kandev-agent")
	sample, err := filepath.Abs("../../sample")
	if err != nil {
		t.Fatal(err)
	}

	cmd := exec.Command(demo, "-addr", "127.0.0.1:0", "-agent", agent, "-sample", sample,
		"-db", filepath.Join(dir, "settings.db"), "-assets", dir, "-esm", filepath.Join(dir, "none"),
		"-package", filepath.Join(dir, "none"), "-monaco", dir,
		"-hosts", "demo.example.com, box.lan")
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case err := <-exited:
			if err != nil {
				t.Errorf("webdemo after SIGTERM: %v", err)
			}
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			t.Error("webdemo did not exit on SIGTERM")
		}
	})

	// The listening line comes first, the sign-in URL last.
	var listen, token string
	lines := bufio.NewScanner(stdout)
	for token == "" && lines.Scan() {
		l := lines.Text()
		if a, ok := strings.CutPrefix(l, "listening on http://"); ok {
			listen = a
		}
		if raw, ok := strings.CutPrefix(l, "open "); ok {
			u, err := url.Parse(strings.TrimSuffix(raw, " in a browser"))
			if err != nil {
				t.Fatal(err)
			}
			token = u.Query().Get("token")
		}
	}
	if listen == "" || token == "" {
		t.Fatalf("no listening line or sign-in URL (listen=%q)", listen)
	}
	go func() { // drain, so the demo never blocks on stdout
		for lines.Scan() {
		}
	}()
	_, port, _ := net.SplitHostPort(listen)

	client := &http.Client{
		Transport:     &http.Transport{DisableKeepAlives: true},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	get := func(path, host string) int {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, "http://"+listen+path, nil)
		req.Host = host
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	for _, path := range []string{"/", wire.RelaySettingsPath} {
		for host, want := range map[string]int{
			"demo.example.com":                http.StatusOK,
			"box.lan:" + port:                 http.StatusOK,
			listen:                            http.StatusOK,
			"other.example.com":               http.StatusForbidden,
			"rebind.demo.example.com:" + port: http.StatusForbidden,
		} {
			if got := get(path, host); got != want {
				t.Errorf("GET %s with Host %s: %d, want %d", path, host, got, want)
			}
		}
	}
}
