package main

import (
	"encoding/json"
	"time"

	"github.com/kandev/lsp/e2e/fakelsp/script"
)

// defaultToken is used by a step without a token when the client sent no
// workDoneToken in initialize.
var defaultToken = json.RawMessage(`"fakelsp-progress"`)

// fire runs the scripted steps for trigger: progress, registrations and
// messages, each list on its own goroutine in order, each step after its
// delay.
func (sv *server) fire(trigger string) {
	var steps []func()
	delay := func(ms int) {
		if ms > 0 {
			time.Sleep(time.Duration(ms) * time.Millisecond) // scripted pacing
		}
	}
	for _, st := range sv.s.Progress {
		if st.On == trigger {
			steps = append(steps, func() { delay(st.DelayMs); sv.progress(st) })
		}
	}
	runInOrder(steps)
	steps = nil
	for _, st := range sv.s.Registrations {
		if st.On == trigger {
			steps = append(steps, func() { delay(st.DelayMs); sv.register(st) })
		}
	}
	runInOrder(steps)
	steps = nil
	for _, st := range sv.s.Messages {
		if st.On == trigger {
			steps = append(steps, func() { delay(st.DelayMs); sv.message(st) })
		}
	}
	runInOrder(steps)
	steps = nil
	for _, st := range sv.s.Requests {
		if st.On == trigger {
			steps = append(steps, func() {
				delay(st.DelayMs)
				var params any
				if len(st.Params) > 0 {
					params = st.Params
				}
				<-sv.call(st.Method, params)
			})
		}
	}
	runInOrder(steps)
}

// firstRequest fires method as a trigger the first time a client request
// of that method has been answered: a step on it runs once, however often
// the client asks again (a refresh that makes the client ask again would
// otherwise loop).
func (sv *server) firstRequest(method string) {
	sv.mu.Lock()
	if sv.asked == nil {
		sv.asked = make(map[string]bool)
	}
	first := !sv.asked[method]
	sv.asked[method] = true
	sv.mu.Unlock()
	if first {
		sv.fire(method)
	}
}

// runInOrder runs steps in order on a goroutine of their own.
func runInOrder(steps []func()) {
	if len(steps) == 0 {
		return
	}
	go func() {
		for _, f := range steps {
			f()
		}
	}()
}

// register sends one registration step and waits for the client's answer.
func (sv *server) register(st script.RegistrationStep) {
	if st.Unregister {
		<-sv.call("client/unregisterCapability", map[string]any{
			"unregisterations": []map[string]string{{"id": st.ID, "method": st.Method}},
		})
		return
	}
	reg := map[string]any{"id": st.ID, "method": st.Method}
	if len(st.RegisterOptions) > 0 {
		reg["registerOptions"] = st.RegisterOptions
	}
	<-sv.call("client/registerCapability", map[string]any{"registrations": []any{reg}})
}

// message sends one message step; a request does not wait for its answer
// (a person may take long), which is recorded when it comes.
func (sv *server) message(st script.MessageStep) {
	params := map[string]any{"type": st.Type, "message": st.Message}
	if len(st.Actions) == 0 && !st.Request {
		sv.send(message{Method: "window/showMessage", Params: mustJSON(params)})
		return
	}
	actions := make([]map[string]string, len(st.Actions))
	for i, a := range st.Actions {
		actions[i] = map[string]string{"title": a}
	}
	params["actions"] = actions
	sv.call("window/showMessageRequest", params)
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
		answered := sv.call("window/workDoneProgress/create", map[string]any{"token": token})
		if !st.NoWait {
			<-answered
		}
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
