// Command kandev-lspconform checks a recorded trace of LSP connections
// against the protocol's 3.18 meta model (tools/lspconform): the
// Playwright fixture records every frame of the page's language-server
// sockets and runs it after each test, so a message that does not conform
// fails the test that produced it.
//
//	kandev-lspconform TRACE.json
//
// TRACE.json is an array of {"socket": N, "from": "client"|"server",
// "frame": "…"} in the order the frames passed. It prints each finding and
// exits 1 when there is one; without a meta model (see lspconform.Find) it
// says so and exits 0.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/kandev/lsp/tools/lspconform"
)

type entry struct {
	Socket int    `json:"socket"`
	From   string `json:"from"`
	Frame  string `json:"frame"`
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: kandev-lspconform TRACE.json")
		os.Exit(2)
	}
	path, ok := lspconform.Find()
	if !ok {
		fmt.Println("kandev-lspconform: no LSP meta model; nothing checked")
		return
	}
	m, err := lspconform.Load(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	b, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var trace []entry
	if err := json.Unmarshal(b, &trace); err != nil {
		fmt.Fprintln(os.Stderr, "kandev-lspconform:", err)
		os.Exit(2)
	}
	conns := map[int]*lspconform.Conn{}
	found := 0
	for _, e := range trace {
		c := conns[e.Socket]
		if c == nil {
			// A resumed connection continues on a new socket, and replays
			// what the other side missed: an answer may meet its request
			// on another socket, or twice.
			c = m.NewConn()
			c.Replays = true
			conns[e.Socket] = c
		}
		from := lspconform.Server
		if e.From == "client" {
			from = lspconform.Client
		}
		if err := c.Check(from, []byte(e.Frame)); err != nil {
			found++
			frame := e.Frame
			if len(frame) > 400 {
				frame = frame[:400] + "…"
			}
			fmt.Printf("socket %d: %v\n  %s\n", e.Socket, err, frame)
		}
	}
	if found > 0 {
		os.Exit(1)
	}
}
