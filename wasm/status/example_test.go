package status_test

import (
	"fmt"
	"time"

	"github.com/kandev/lsp/wasm/client"
	"github.com/kandev/lsp/wasm/i18n"
	"github.com/kandev/lsp/wasm/progress"
	"github.com/kandev/lsp/wasm/status"
)

// The views kandevLSP.view() returns, in English: initialize pending,
// server work in progress, and after the server exited (4006).
func ExampleBuild() {
	now := time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC).UnixMilli()
	en := i18n.For("en")
	initializing := client.Status{SessionID: "demo", Language: "go", Gen: 1, State: client.StateStarting,
		Launched: true, InitSince: now - 12_000, Documents: 1}
	fmt.Println(status.Build(initializing, en, now).JSON())

	working := client.Status{SessionID: "demo", Language: "go", Gen: 1, State: client.StateReady, Documents: 1,
		Progress: progress.Snapshot{Primary: &progress.Item{Title: "Loading packages", Message: "42/100",
			Percentage: 42, Started: now - 3_500}, Others: 1}}
	fmt.Println(status.Build(working, en, now).JSON())

	exited := client.Status{SessionID: "demo", Language: "go", Gen: 1, State: client.StateError, CloseCode: 4006, Documents: 1}
	fmt.Println(status.Build(exited, en, now).JSON())
	// Output:
	// {"sessionId":"demo","language":"go","state":"starting","summary":"Initializing (12 s)","label":"Go · Initializing (12 s)","details":["The gopls process started. Waiting for its initialize response.","Waiting for 12 s, measured in this browser."],"action":"stop","actionLabel":"Stop","progress":null,"initializing":{"elapsedMs":12000,"long":false},"finished":null,"reconnect":null,"closeCode":null,"experimental":false,"installLabel":null,"documents":1,"server":"","slot":0}
	// {"sessionId":"demo","language":"go","state":"ready","summary":"Loading packages 42% · 1 more","label":"Go · Loading packages 42% · 1 more","details":["gopls is initialized.","Server-reported work: Loading packages","42/100","Progress: 42%","Running for 3 s","1 other work item is active.","Cross-file results may be incomplete while the server reports work."],"action":"stop","actionLabel":"Stop","progress":{"title":"Loading packages","message":"42/100","percentage":42,"elapsedMs":3500,"others":1},"initializing":null,"finished":null,"reconnect":null,"closeCode":null,"experimental":false,"installLabel":null,"documents":1,"server":"","slot":0}
	// {"sessionId":"demo","language":"go","state":"error","summary":"The language server exited.","label":"Go · The language server exited.","details":["gopls stopped unexpectedly. Retry to start it again."],"action":"retry","actionLabel":"Retry","progress":null,"initializing":null,"finished":null,"reconnect":null,"closeCode":4006,"experimental":false,"installLabel":null,"documents":1,"server":"","slot":0}
}
