package relay_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/kandev/lsp/relay"
	"github.com/kandev/lsp/relay/settings"
)

// appSettings keeps each user's LSP settings in the host application's own
// storage: here a JSON column of its users table.
type appSettings struct {
	mu   sync.Mutex
	rows map[string][]byte // user id → lsp_settings column
}

func (s *appSettings) Load(_ context.Context, user string) (settings.Settings, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := settings.Default()
	if row, ok := s.rows[user]; ok {
		if err := json.Unmarshal(row, &st); err != nil {
			return st, err
		}
	}
	return st, nil
}

func (s *appSettings) Update(ctx context.Context, user string, p settings.Patch) (settings.Settings, error) {
	st, err := s.Load(ctx, user)
	if err != nil {
		return st, err
	}
	st = st.Apply(p) // p is validated by the relay (settings.DecodePatch)
	row, err := json.Marshal(st)
	if err != nil {
		return st, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rows[user] = row
	return st, nil
}

func (s *appSettings) Close() error { return nil }

// The relay as one route of an existing backend: mounted under /ide/ in the
// application's own ServeMux, behind the application's own sign-in (its
// session cookie), with its task sessions and its settings storage, and its
// metrics in the application's Prometheus registry. The page then uses
// relayURL 'wss://HOST/ide/lsp' and GET/PUT /ide/api/v1/user/settings.
func Example_embedding() {
	// The host application's own state.
	users := map[string]string{"cookie-of-alice": "alice", "cookie-of-bob": "bob"} // its login sessions
	tasks := map[string]relay.Session{                                             // its task registry
		// Owner: each task is its user's. Without it every signed-in user
		// could stream from, read and stop every task.
		"task-7":   {ID: "task-7", Owner: "alice", Executor: relay.ExecutorLocalPC, Workspace: "/srv/task-7", Agent: relay.AgentRef{URL: "http://127.0.0.1:7070", Token: "agent-token"}},
		"task-ssh": {ID: "task-ssh", Owner: "alice", Executor: relay.ExecutorSSH, Workspace: "/home/dev/task"},
	}
	store := &appSettings{rows: map[string][]byte{}}
	registry := prometheus.NewRegistry() // what the application's /metrics serves

	rl := relay.New(relay.Config{
		// Who is asking: the application's cookie, not a token of the relay.
		Authenticate: func(r *http.Request) (string, error) {
			if c, err := r.Cookie("app_session"); err == nil && users[c.Value] != "" {
				return users[c.Value], nil
			}
			return "", errors.New("not signed in")
		},
		Sessions: relay.SessionsFunc(func(id string) (relay.Session, bool) {
			s, ok := tasks[id]
			return s, ok
		}),
		Settings: store,
		Metrics:  registry,
		Hosts:    []string{"ide.example.com"}, // the names the application is reached by
	})
	defer rl.Close(context.Background()) // stops agents the relay started (none here)

	app := http.NewServeMux()
	app.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok") })
	app.Handle("/ide/", http.StripPrefix("/ide", rl))
	srv := httptest.NewServer(app)
	defer srv.Close()

	do := func(method, path, body, who string) (int, string) {
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		if who != "" {
			req.AddCookie(&http.Cookie{Name: "app_session", Value: "cookie-of-" + who})
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, err.Error()
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, strings.TrimSpace(string(b))
	}

	code, _ := do("GET", "/healthz", "", "")
	fmt.Println("the application's own route:", code)
	code, _ = do("GET", "/ide/api/v1/user/settings", "", "")
	fmt.Println("settings without the application's cookie:", code)
	code, _ = do("PUT", "/ide/api/v1/user/settings", `{"lsp_auto_start_languages":["go"]}`, "alice")
	fmt.Println("settings saved for alice:", code, string(store.rows["alice"]) != "")
	_, body := do("GET", "/ide/api/v1/user/settings", "", "alice")
	var st struct {
		AutoStart []string `json:"lsp_auto_start_languages"`
	}
	_ = json.Unmarshal([]byte(body), &st)
	fmt.Println("alice's auto-start languages:", st.AutoStart)

	// The stream route, from the application's task registry: an SSH task
	// is refused with its close code before anything is started.
	ctx := context.Background()
	hdr := http.Header{"Cookie": {"app_session=cookie-of-alice"}}
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/ide/lsp/task-ssh?language=go", &websocket.DialOptions{HTTPHeader: hdr})
	if err == nil {
		_, _, err = ws.Read(ctx)
		fmt.Println("stream of the ssh task closed with", int(websocket.CloseStatus(err)))
	}

	// Bob is signed in too, but task-7 is alice's: for him it does not
	// exist, and nothing is started, dialled or stopped.
	bob := http.Header{"Cookie": {"app_session=cookie-of-bob"}}
	ws, _, err = websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/ide/lsp/task-7?language=go", &websocket.DialOptions{HTTPHeader: bob})
	if err == nil {
		_, _, err = ws.Read(ctx)
		fmt.Println("bob's stream of alice's task closed with", int(websocket.CloseStatus(err)))
	}
	code, _ = do("GET", "/ide/api/v1/sessions/task-7/lsp/installers", "", "bob")
	fmt.Println("bob reads its installers:", code)
	code, _ = do("POST", "/ide/api/v1/sessions/task-7/stop", "", "bob")
	fmt.Println("bob stops it:", code)

	// Its metrics are in the application's registry.
	families, _ := registry.Gather()
	for _, f := range families {
		if f.GetName() == "kandev_relay_stream_refusals_total" {
			for _, m := range f.GetMetric() {
				fmt.Println(f.GetName(), m.GetLabel()[0].GetValue(), m.GetCounter().GetValue())
			}
		}
	}
	// Output:
	// the application's own route: 200
	// settings without the application's cookie: 401
	// settings saved for alice: 200 true
	// alice's auto-start languages: [go]
	// stream of the ssh task closed with 4004
	// bob's stream of alice's task closed with 4002
	// bob reads its installers: 404
	// bob stops it: 404
	// kandev_relay_stream_refusals_total 4002 1
	// kandev_relay_stream_refusals_total 4004 1
}

// The relay as a program's whole server: Serve serves until the context
// ends — in a program, signal.NotifyContext(ctx, os.Interrupt,
// syscall.SIGTERM) — then drains: the server stops accepting, every
// stream closes with 1012 (connect again, the agent holds the server for
// the resume), and the agents the relay started are stopped.
func ExampleRelay_Serve() {
	rl := relay.New(relay.Config{
		Sessions:      relay.StaticSessions(), // the program's task registry
		ShutdownGrace: 10 * time.Second,       // within the container's stop timeout
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx, stop := context.WithCancel(context.Background()) // the program's SIGTERM, here a call
	srv := &http.Server{Handler: rl, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- rl.Serve(ctx, srv, ln) }()

	resp, err := http.Get("http://" + ln.Addr().String() + "/api/v1/lsp/runtime")
	if err == nil {
		resp.Body.Close()
		fmt.Println("runtime route:", resp.StatusCode)
	}
	stop()
	fmt.Println("Serve returned:", <-served)
	_, err = http.Get("http://" + ln.Addr().String() + "/api/v1/lsp/runtime")
	fmt.Println("served after the drain:", err == nil)
	// Output:
	// runtime route: 200
	// Serve returned: <nil>
	// served after the drain: false
}
