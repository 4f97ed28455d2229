//go:build linux

package stream

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
)

// rawClient is a minimal WebSocket client for benchmarks: a real client's
// own costs (coder/websocket masks into a 4 KiB buffer, one write syscall
// per 4 KiB) would otherwise dominate what is meant to measure the agent.
// It sends each message as one frame with the all-zero mask key (valid per
// RFC 6455 §5.3, and masking with it is the identity, so the payload goes
// out uncopied with writev) and reads frames into one reused buffer.
type rawClient struct {
	conn net.Conn
	br   *bufio.Reader
	hdr  [14]byte
	buf  []byte
}

func dialRaw(wsURL, token string) (*rawClient, error) {
	u, err := url.Parse(wsURL)
	if err != nil {
		return nil, err
	}
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		return nil, err
	}
	req := "GET " + u.RequestURI() + " HTTP/1.1\r\nHost: " + u.Host +
		"\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13" +
		"\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nAuthorization: Bearer " + token + "\r\n\r\n"
	if _, err := io.WriteString(conn, req); err != nil {
		conn.Close()
		return nil, err
	}
	br := bufio.NewReaderSize(conn, 64<<10)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != http.StatusSwitchingProtocols {
		conn.Close()
		return nil, fmt.Errorf("upgrade: %v %v", resp, err)
	}
	return &rawClient{conn: conn, br: br}, nil
}

func (c *rawClient) write(p []byte) error {
	h := c.hdr[:0]
	h = append(h, 0x81) // FIN, text
	switch n := len(p); {
	case n < 126:
		h = append(h, 0x80|byte(n))
	case n <= 0xffff:
		h = append(h, 0x80|126)
		h = binary.BigEndian.AppendUint16(h, uint16(n))
	default:
		h = append(h, 0x80|127)
		h = binary.BigEndian.AppendUint64(h, uint64(n))
	}
	h = append(h, 0, 0, 0, 0) // mask key
	bufs := net.Buffers{h, p}
	_, err := bufs.WriteTo(c.conn)
	return err
}

// read returns the next data message, reassembled from its frames (the
// agent fragments large ones); the slice is reused by the next call.
func (c *rawClient) read() ([]byte, error) {
	c.buf = c.buf[:0]
	for first := true; ; first = false {
		var h [2]byte
		if _, err := io.ReadFull(c.br, h[:]); err != nil {
			return nil, err
		}
		op, fin := h[0]&0x0f, h[0]&0x80 != 0
		if (first && op != 1) || (!first && op != 0) {
			return nil, fmt.Errorf("rawClient: unexpected opcode %d", op)
		}
		n := uint64(h[1] & 0x7f)
		switch n {
		case 126:
			var e [2]byte
			if _, err := io.ReadFull(c.br, e[:]); err != nil {
				return nil, err
			}
			n = uint64(binary.BigEndian.Uint16(e[:]))
		case 127:
			var e [8]byte
			if _, err := io.ReadFull(c.br, e[:]); err != nil {
				return nil, err
			}
			n = binary.BigEndian.Uint64(e[:])
		}
		start := len(c.buf)
		c.buf = slices.Grow(c.buf, int(n))[:start+int(n)]
		if _, err := io.ReadFull(c.br, c.buf[start:]); err != nil {
			return nil, err
		}
		if fin {
			return c.buf, nil
		}
	}
}

func (c *rawClient) close() { c.conn.Close() }
