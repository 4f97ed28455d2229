package status

import (
	"encoding/json"
	"testing"
)

func TestJSONMatchesEncodingJSON(t *testing.T) {
	act, pct, code := "retry", 40, 4001
	for _, v := range []View{
		{},
		{SessionID: "s", Language: "go", State: "ready", Summary: "Go: ready", Details: []string{"a", "b\n"}, Documents: 2},
		{Action: &act, ActionLabel: &act, Progress: &Progress{Title: "Indexing", Message: "x", Percentage: &pct, ElapsedMs: 1200, Others: 1},
			Initializing: &Initializing{ElapsedMs: 5, Long: true}, Finished: &Finished{Title: "t", Message: "m"}, Reconnect: &Reconnect{Attempt: 2, ElapsedMs: 1500},
			CloseCode: &code, Message: "install failed: \"exit 1\"", Experimental: true, InstallLabel: &act, Details: []string{}},
		{Progress: &Progress{Title: "no percentage"}, Tick: true},
	} {
		want, _ := json.Marshal(v)
		if got := v.JSON(); got != string(want) {
			t.Errorf("JSON() = %s\nencoding/json = %s", got, want)
		}
	}
}
