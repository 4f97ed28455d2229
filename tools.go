//go:build tools

// Package tools pins modules the project uses before code imports them.
package tools

import (
	_ "github.com/coder/websocket"
	_ "github.com/creack/pty"
	_ "github.com/hack-pad/safejs"
	_ "github.com/stretchr/testify/require"
	_ "golang.org/x/sync/errgroup"
)
