//go:build linux

package soak

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"

	"github.com/coder/websocket"

	"github.com/kandev/lsp/internal/promtext"
	"github.com/kandev/lsp/internal/wire"
)

// httpClient keeps no idle connections: a soak counts descriptors, and
// the client's own pooled sockets would show up as the relays'.
var httpClient = &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}

// Open connects a browser stream to session on the relay at base and
// reads until the agent's ready frame. It returns the open stream, or the
// close code the stream ended with before it was ready (err nil), or an
// error for anything else (no upgrade, a broken connection).
func Open(ctx context.Context, base, session string, lang wire.Language) (*websocket.Conn, wire.CloseCode, error) {
	u := "ws" + strings.TrimPrefix(base, "http") + wire.RelayStreamPrefix + session + "?" + wire.ParamLanguage + "=" + string(lang)
	c, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPClient: httpClient})
	if err != nil {
		return nil, 0, err
	}
	c.SetReadLimit(wire.MaxMessageSize)
	for {
		_, msg, err := c.Read(ctx)
		if err != nil {
			_ = c.CloseNow()
			if code := websocket.CloseStatus(err); code != -1 {
				return nil, wire.CloseCode(code), nil
			}
			return nil, 0, err
		}
		var st wire.Status
		if json.Unmarshal(msg, &st) == nil && st.Status == wire.StatusReady {
			return c, 0, nil
		}
	}
}

// CloseCode reads c until it closes and returns the code, or 0 when the
// connection broke without a close frame.
func CloseCode(ctx context.Context, c *websocket.Conn) wire.CloseCode {
	for {
		if _, _, err := c.Read(ctx); err != nil {
			if code := websocket.CloseStatus(err); code != -1 {
				return wire.CloseCode(code)
			}
			return 0
		}
	}
}

// Metrics scrapes base's /metrics (with token as a bearer, when set).
func Metrics(ctx context.Context, base, path, token string) (map[string]float64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+path, nil)
	if err != nil {
		return nil, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s%s: %s", base, path, resp.Status)
	}
	return promtext.Parse(resp.Body)
}

// Cmdline returns pid's command line, arguments joined by spaces.
func Cmdline(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(strings.ReplaceAll(string(b), "\x00", " "))
}

// errClosed is how a stream the soak closed itself ends.
var errClosed = errors.New("soak: closed by the client")
