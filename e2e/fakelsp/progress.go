package main

import (
	"encoding/json"
	"time"

	"github.com/kandev/lsp/e2e/fakelsp/script"
)

// defaultToken is used by a step without a token when the client sent no
// workDoneToken in initialize.
var defaultToken = json.RawMessage(`"fakelsp-progress"`)

// fire runs, on its own goroutine, the progress steps for trigger in
// order, each after its delay.
func (sv *server) fire(trigger string) {
	var steps []script.ProgressStep
	for _, st := range sv.s.Progress {
		if st.On == trigger {
			steps = append(steps, st)
		}
	}
	if len(steps) == 0 {
		return
	}
	go func() {
		for _, st := range steps {
			if st.DelayMs > 0 {
				time.Sleep(time.Duration(st.DelayMs) * time.Millisecond) // scripted pacing
			}
			sv.progress(st)
		}
	}()
}

func (sv *server) progress(st script.ProgressStep) {
	token := st.Token
	if len(token) == 0 {
		sv.mu.Lock()
		token = sv.workToken
		sv.mu.Unlock()
	}
	if len(token) == 0 {
		token = defaultToken
	}
	if st.Create {
		<-sv.call("window/workDoneProgress/create", map[string]any{"token": token})
	}
	value := map[string]any{"kind": st.Kind}
	if st.Title != "" {
		value["title"] = st.Title
	}
	if st.Message != "" {
		value["message"] = st.Message
	}
	if st.Percentage != nil && st.Kind != "end" {
		value["percentage"] = *st.Percentage
	}
	sv.send(message{Method: "$/progress", Params: mustJSON(map[string]any{"token": token, "value": value})})
}
