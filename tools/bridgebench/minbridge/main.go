// Command minbridge is the baseline of the bridge budget table: the
// smallest honest WebSocket-to-stdio bridge for one language server, written
// the obvious way on coder/websocket — no pooling, no tuned buffers, no
// process ownership beyond the child itself.
//
//	minbridge -addr 127.0.0.1:0 SERVER [ARGS...]
//
// prints "listening on http://HOST:PORT" and serves any path: each WebSocket
// starts SERVER, sends a ready frame, then carries one text frame to one
// Content-Length framed stdin message and back. It exists only to be
// measured against (tools/bridgebench); nothing ships it.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os/exec"
	"strconv"
	"strings"

	"github.com/coder/websocket"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	flag.Parse()
	if flag.NArg() == 0 {
		log.Fatal("minbridge: no server command")
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("listening on http://%s\n", ln.Addr())
	log.Fatal(http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		serve(w, r, flag.Args())
	})))
}

// serve bridges one WebSocket to one server process until either ends.
func serve(w http.ResponseWriter, r *http.Request, argv []string) {
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{CompressionMode: websocket.CompressionDisabled})
	if err != nil {
		return
	}
	defer c.CloseNow()
	c.SetReadLimit(16 << 20)

	cmd := exec.Command(argv[0], argv[1:]...)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		c.Close(4008, "")
		return
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"status":"ready"}`)); err != nil {
		return
	}
	go func() { // stdout → socket
		defer cancel()
		br := bufio.NewReader(stdout)
		for {
			body, err := readMessage(br)
			if err != nil {
				c.Close(4006, "")
				return
			}
			if err := c.Write(ctx, websocket.MessageText, body); err != nil {
				return
			}
		}
	}()
	// Each message goes to stdin in one write, header and body together:
	// two writes per message (header, then body) would cost the baseline a
	// pipe write and a server wake-up more than the obvious bridge pays, and
	// the table would flatter the agent. The buffer is reused across
	// messages.
	var msg []byte
	for { // socket → stdin
		_, body, err := c.Read(ctx)
		if err != nil {
			return
		}
		msg = strconv.AppendInt(append(msg[:0], "Content-Length: "...), int64(len(body)), 10)
		msg = append(append(msg, "\r\n\r\n"...), body...)
		if _, err := stdin.Write(msg); err != nil {
			return
		}
	}
}

// readMessage reads one Content-Length framed message.
func readMessage(br *bufio.Reader) ([]byte, error) {
	n := -1
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		if k, v, ok := strings.Cut(line, ":"); ok && strings.EqualFold(k, "Content-Length") {
			if n, err = strconv.Atoi(strings.TrimSpace(v)); err != nil {
				return nil, err
			}
		}
	}
	if n < 0 {
		return nil, fmt.Errorf("no Content-Length")
	}
	body := make([]byte, n)
	_, err := io.ReadFull(br, body)
	return body, err
}
