//go:build linux

package bridgebench

import (
	"bytes"
	"context"
	"net/http"
	"os/exec"

	"github.com/coder/websocket"

	"github.com/kandev/lsp/agent/framing"
	"github.com/kandev/lsp/internal/wire"
)

// conn is one open path to the echo server. send and recv may run on two
// goroutines at once, as a real client's writer and reader do.
type conn interface {
	send(msg []byte) error
	// recv reads the next message and returns its length.
	recv() (int, error)
	close()
}

// wsConn is a coder/websocket client, the same for every WebSocket path:
// the relay dials the agent with this library, so it is the client the
// agent meets in production.
type wsConn struct {
	c  *websocket.Conn
	in bytes.Buffer // one read buffer, reused
}

// dialWS opens url and reads the ready frame.
func dialWS(url, token string) (conn, error) {
	h := http.Header{}
	if token != "" {
		h.Set("Authorization", "Bearer "+token)
	}
	c, _, err := websocket.Dial(context.Background(), url, &websocket.DialOptions{
		HTTPHeader: h, CompressionMode: websocket.CompressionDisabled,
	})
	if err != nil {
		return nil, err
	}
	c.SetReadLimit(wire.MaxMessageSize + 1)
	w := &wsConn{c: c}
	if _, err := w.recv(); err != nil { // ready
		c.CloseNow()
		return nil, err
	}
	return w, nil
}

func (w *wsConn) send(msg []byte) error {
	return w.c.Write(context.Background(), websocket.MessageText, msg)
}

// recv reads the next message of the server's, passing over the task
// host's own frames that may come between (acks of what it received,
// heartbeats, files): they are part of the agent's path, timed with it,
// but no answer.
func (w *wsConn) recv() (int, error) {
	for {
		_, r, err := w.c.Reader(context.Background())
		if err != nil {
			return 0, err
		}
		w.in.Reset()
		n, err := w.in.ReadFrom(r)
		if err != nil {
			return int(n), err
		}
		if b := w.in.Bytes(); wire.IsAckFrame(b) || wire.IsHeartbeatFrame(b) || wire.IsFilesFrame(b) {
			continue
		}
		return int(n), nil
	}
}

func (w *wsConn) close() { _ = w.c.Close(websocket.StatusNormalClosure, "") }

// pipeConn is the floor: Content-Length frames over a bare stdio pipe to
// the echo server, no socket and no bridge.
type pipeConn struct {
	cmd *exec.Cmd
	w   *framing.Writer
	r   *framing.Reader
}

func startPipe(path string) (conn, error) {
	cmd := exec.Command(path)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &pipeConn{cmd: cmd, w: framing.NewWriter(in), r: framing.NewReader(out)}, nil
}

func (p *pipeConn) send(msg []byte) error { return p.w.Write(msg) }

func (p *pipeConn) recv() (int, error) {
	b, err := p.r.Read()
	return len(b), err
}

func (p *pipeConn) close() {
	_ = p.cmd.Process.Kill()
	_ = p.cmd.Wait()
}
