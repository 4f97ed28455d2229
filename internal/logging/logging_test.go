package logging

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestFormats(t *testing.T) {
	var b bytes.Buffer
	l, err := New(JSON, &b, slog.LevelInfo)
	require.NoError(t, err)
	l.With("session", "s", "language", "go", "conn", "c1").Info("lsp stream: open")
	l.Debug("dropped")
	var rec map[string]any
	require.NoError(t, json.Unmarshal(b.Bytes(), &rec))
	require.Equal(t, "lsp stream: open", rec["msg"])
	require.Equal(t, "c1", rec["conn"])
	require.Equal(t, 1, strings.Count(b.String(), "\n"))

	b.Reset()
	l, err = New(Text, &b, slog.LevelDebug)
	require.NoError(t, err)
	l.Debug("x", "k", "v")
	require.Contains(t, b.String(), "level=DEBUG msg=x k=v")

	_, err = New("xml", &b, slog.LevelInfo)
	require.ErrorContains(t, err, `-log-format "xml"`)
}
