package install

import (
	"errors"
	"strings"

	"github.com/kandev/lsp/internal/wire"
)

// ErrUnsupported: this task host has no installer for the language. The
// stream closes with wire.CloseNoInstaller (4007); the installers route
// shows the reason.
var ErrUnsupported = errors.New("install: no installer on this task host")

// ErrClosed: the Manager is shutting down (task stop); no install starts.
var ErrClosed = errors.New("install: manager closed")

// UnsupportedError says why a server cannot be installed here.
type UnsupportedError struct {
	Language wire.Language
	// Server is the catalog entry's id.
	Server string
	// Code is wire.NotInstallableManual or wire.NotInstallableOS, so the
	// UI picks localized copy without parsing Reason.
	Code string
	// Reason is user-facing guidance for manual installation.
	Reason string
}

func (e *UnsupportedError) Error() string {
	return "install: " + e.Server + ": " + e.Reason
}

// Is makes errors.Is(err, ErrUnsupported) hold.
func (e *UnsupportedError) Is(target error) bool { return target == ErrUnsupported }

// Error is a failed install: what failed, and the end of the installer's
// output, which usually says why (a network error, a missing toolchain).
type Error struct {
	Language wire.Language
	// Server is the catalog entry's id.
	Server string
	Err    error
	// Output is the cleaned tail of the installer's output (at most
	// TailSize bytes), empty when nothing was printed.
	Output string
}

func (e *Error) Error() string { return "install " + e.Server + ": " + e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Detail is the text for an install_failed frame: the failure and the tail
// of the installer's own output, so npm's or go's diagnosis reaches the
// user. It is never a close reason: close codes carry no prose.
func Detail(err error) string {
	if err == nil {
		return ""
	}
	var ie *Error
	if !errors.As(err, &ie) {
		return err.Error()
	}
	out := strings.TrimSpace(ie.Output)
	if out == "" {
		return ie.Error()
	}
	return ie.Error() + "\n" + out
}

// first is the first of an entry's languages, for errors that name one.
func first(langs []wire.Language) wire.Language {
	if len(langs) == 0 {
		return ""
	}
	return langs[0]
}
