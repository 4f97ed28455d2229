package wire

// CloseCode is a WebSocket close status. The 4001–4008 codes are categorical:
// the browser maps each to a localized message and never shows the close
// reason, so the task host and relay close with an empty reason.
type CloseCode int

// Close codes, as the spec's API table defines them.
const (
	// CloseGoingAway is the normal teardown (task stop, idle close, shutdown).
	CloseGoingAway CloseCode = 1001
	// CloseServiceRestart: the relay is shutting down for a restart or a
	// deploy (RFC 6455's 1012). Nothing failed: the browser may connect
	// again at once, through a balancer to another replica.
	CloseServiceRestart CloseCode = 1012
	// CloseBinaryMissing: an auto-installable server is missing and
	// auto-install was not requested.
	CloseBinaryMissing CloseCode = 4001
	// CloseUnavailable: session, execution or task-host stream unavailable.
	CloseUnavailable CloseCode = 4002
	// CloseInstallFailed: auto-install failed (an install_failed status frame
	// with the detail may precede it).
	CloseInstallFailed CloseCode = 4003
	// CloseExecutorUnsupported: the session's executor is not supported in V1.
	CloseExecutorUnsupported CloseCode = 4004
	// CloseCapacity: the active LSP connection cap is reached.
	CloseCapacity CloseCode = 4005
	// CloseServerExited: the language server exited, or the proxy stream
	// failed unexpectedly.
	CloseServerExited CloseCode = 4006
	// CloseNoInstaller: the binary is missing and this task host has no
	// supported installer for it.
	CloseNoInstaller CloseCode = 4007
	// CloseStartFailed: the language-server process failed to start.
	CloseStartFailed CloseCode = 4008
)

// IsCategorical reports whether c is one of the application codes 4001–4008.
func (c CloseCode) IsCategorical() bool { return c >= 4001 && c <= 4008 }
