package relay

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/relay/access"
	"github.com/kandev/lsp/relay/executor"
	"github.com/kandev/lsp/relay/settings"
)

// installersURL is the relay's installers route for session id.
func installersURL(srv, id string) string {
	return srv + "/api/v1/sessions/" + id + "/lsp/installers"
}

func getInstallers(t *testing.T, srv, id string, header http.Header) (int, http.Header, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(testCtx(t), http.MethodGet, installersURL(srv, id), nil)
	require.NoError(t, err)
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, resp.Header, body
}

// The installers route makes the stream's session and executor checks and
// refuses with the stream's close codes, before any agent is started or
// asked; an admitted session gets its agent's answer unchanged.
func TestInstallersRoute(t *testing.T) {
	t.Parallel()
	const answer = "{\"goos\":\"linux\",\"goarch\":\"amd64\",\"languages\":[{\"language\":\"kotlin\",\"command\":\"kotlin-lsp\"," +
		"\"found\":false,\"installable\":false,\"reason\":\"manual_only\",\"guidance\":\"Install \\u003ckotlin-lsp\\u003e\"}]}\n"
	failing := func(context.Context, executor.Task) (executor.Execution, error) {
		return executor.Execution{}, errors.New("boom")
	}
	cases := []struct {
		name       string
		session    string
		startFails bool
		status     int
		code       wire.CloseCode // 0: the agent's answer passes
		wantStarts int32
		wantAsked  int32
	}{
		{name: "unknown session", session: "nope", status: 404, code: wire.CloseUnavailable},
		{name: "ssh", session: "ssh", status: 409, code: wire.CloseExecutorUnsupported},
		{name: "sprites", session: "sprites", status: 409, code: wire.CloseExecutorUnsupported},
		{name: "remote_docker", session: "remote_docker", status: 409, code: wire.CloseExecutorUnsupported},
		{name: "no executor", session: "no-executor", status: 409, code: wire.CloseExecutorUnsupported},
		{name: "restore fails", session: "restore", startFails: true, status: 502, code: wire.CloseUnavailable, wantStarts: 1},
		{name: "wrong agent token", session: "bad-token", status: 502, code: wire.CloseUnavailable},
		{name: "agent with a running URL", session: "pc", status: 200, wantAsked: 1},
		{name: "restored agent", session: "restore", status: 200, wantStarts: 1, wantAsked: 1},
		{name: "resumed container", session: "docker", status: 200, wantStarts: 1, wantAsked: 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := newFakeAgent(t)
			a.installers = []byte(answer)
			st := &countingStarter{start: startsFake(a)}
			if tc.startFails {
				st.start = failing
			}
			srv, _ := newRelay(t, Config{
				Sessions: testSessions(a,
					Session{ID: "bad-token", Executor: ExecutorLocalPC, Agent: AgentRef{URL: a.url(), Token: "wrong"}}),
				Starter: st,
			})
			status, header, body := getInstallers(t, srv.URL, tc.session, nil)
			assert.Equal(t, tc.status, status)
			assert.Equal(t, "application/json", header.Get("Content-Type"))
			if tc.code == 0 {
				assert.Equal(t, answer, string(body), "the agent's answer, byte for byte")
			} else {
				var e struct {
					Error string `json:"error"`
					Code  int    `json:"code"`
				}
				require.NoError(t, json.Unmarshal(body, &e), string(body))
				assert.Equal(t, int(tc.code), e.Code)
				assert.NotEmpty(t, e.Error)
			}
			assert.Equal(t, tc.wantStarts, st.n.Load(), "starts and resumes")
			assert.Equal(t, tc.wantAsked, a.installerCalls.Load(), "authorised agent requests")
			assert.Zero(t, a.requests.Load(), "no stream opened")
		})
	}
}

// An agent answer that is not a JSON document, or an error status, is the
// task host being unavailable, never something passed to the page.
func TestInstallersRouteRefusesBadAgentAnswers(t *testing.T) {
	t.Parallel()
	for name, body := range map[string]string{"not json": "<html>", "empty": ""} {
		a := newFakeAgent(t)
		a.installers = []byte(body)
		srv, _ := newRelay(t, Config{Sessions: testSessions(a)})
		status, _, got := getInstallers(t, srv.URL, "pc", nil)
		assert.Equal(t, http.StatusBadGateway, status, name)
		assert.Contains(t, string(got), `"code":4002`, name)
	}
}

// The browser token guards this route like every other relay route.
func TestInstallersRouteNeedsTheBrowserToken(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	a.installers = []byte(`{}`)
	tok := access.NewToken("browser-secret", settings.LocalUser, "")
	srv, _ := newRelay(t, Config{Sessions: testSessions(a), Authenticate: tok.Authenticate})
	status, _, _ := getInstallers(t, srv.URL, "pc", nil)
	assert.Equal(t, http.StatusUnauthorized, status)
	assert.Zero(t, a.installerCalls.Load())
	status, _, body := getInstallers(t, srv.URL, "pc", http.Header{"Authorization": {"Bearer browser-secret"}})
	assert.Equal(t, http.StatusOK, status)
	assert.Equal(t, `{}`, string(body))
}

// The installers route starts or resumes the session's agent, so another
// page's <img> must not reach it with the user's cookie: a page on another
// localhost port is same-site, and a SameSite=Strict cookie goes with its
// requests. The browser marks them (Sec-Fetch-Site); the relay refuses
// them before anything starts. The page's own fetch goes through.
func TestInstallersRouteRefusesAnotherPagesImage(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	a.installers = []byte(`{"goos":"linux","goarch":"amd64","languages":[]}`)
	st := &countingStarter{start: startsFake(a)}
	srv, _ := newRelay(t, Config{Sessions: testSessions(a), Starter: st})
	for _, site := range []string{"same-site", "cross-site"} {
		for _, mode := range []string{"no-cors", "navigate"} {
			status, _, _ := getInstallers(t, srv.URL, "restore", http.Header{
				"Sec-Fetch-Site": {site}, "Sec-Fetch-Mode": {mode}, "Sec-Fetch-Dest": {"image"}})
			assert.Equal(t, http.StatusForbidden, status, "%s %s", site, mode)
		}
	}
	assert.Zero(t, st.n.Load(), "nothing started for another page")
	assert.Zero(t, a.installerCalls.Load())

	status, _, _ := getInstallers(t, srv.URL, "restore", http.Header{"Sec-Fetch-Site": {"same-origin"}, "Sec-Fetch-Mode": {"cors"}})
	assert.Equal(t, http.StatusOK, status, "the relay's own page")
	assert.EqualValues(t, 1, st.n.Load())
}
