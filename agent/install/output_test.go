package install

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestOutputKeepsLastBytes(t *testing.T) {
	t.Parallel()
	var all bytes.Buffer
	o := NewOutput(10)
	for _, w := range []string{"abc", "defgh", "ij", "k", "lmnopqrstu", "v", "0123456789ABC", "xyz"} {
		all.WriteString(w)
		n, err := o.Write([]byte(w))
		require.NoError(t, err)
		require.Equal(t, len(w), n)
		want := all.Bytes()
		if len(want) > 10 {
			want = want[len(want)-10:]
		}
		require.Equal(t, string(want), string(o.Bytes()), "after %q", w)
		require.LessOrEqual(t, cap(o.buf), 10, "never grows past the limit")
	}
}

func TestOutputMaxIsOneMiB(t *testing.T) {
	t.Parallel()
	o := NewOutput(MaxOutput)
	chunk := bytes.Repeat([]byte("x"), 64<<10)
	for range 40 { // 2.5 MiB
		_, _ = o.Write(chunk)
	}
	_, _ = o.Write([]byte("THE END"))
	require.Len(t, o.Bytes(), MaxOutput)
	require.True(t, strings.HasSuffix(o.Tail(TailSize), "THE END"))
	require.Len(t, o.Tail(TailSize), TailSize)
}

func TestTailCleansTerminalOutput(t *testing.T) {
	t.Parallel()
	o := NewOutput(1024)
	_, _ = o.Write([]byte("\x1b[1mnpm\x1b[22m \x1b[31mERR!\x1b[39m code E404\r\n\\ spin\r| spin\rdone\r\n"))
	require.Equal(t, "npm ERR! code E404\ndone\n", o.Tail(1024))
}
