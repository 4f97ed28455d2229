package main

import (
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"

	"github.com/kandev/lsp/relay/access"
	"github.com/kandev/lsp/relay/settings"
)

// browserAuth is the relay's one credential: the browser token (given, or
// made here) checked on every request, and the sign-in route that turns it
// into a cookie — or nothing at all with -insecure-no-browser-auth, which
// the log then says. addr is where the relay listens. A token made here is
// printed once, in the sign-in URL on stdout, and nowhere else; a given
// one is never printed.
func browserAuth(o *options, addr net.Addr, stdout io.Writer, logger *slog.Logger) (authenticate func(*http.Request) (string, error), signIn http.Handler) {
	if o.noAuth {
		logger.Warn("browser authentication is OFF (-insecure-no-browser-auth): any program or page that reaches " +
			addr.String() + " can change settings, open streams and stop tasks")
		return nil, nil
	}
	token, generated := o.browserToken, o.browserToken == ""
	if generated {
		token = access.NewSecret()
	}
	tok := access.NewToken(token, settings.LocalUser, "")
	if generated {
		fmt.Fprintf(stdout, "sign in at %s\n", tok.SignInURL("http://"+browserAddr(addr)))
	} else {
		logger.Info("browser sign-in: open http://" + browserAddr(addr) + access.SignInPath + "?token=<the browser token>")
	}
	return tok.Authenticate, tok
}

// browserAddr is addr as a browser on this machine reaches it: an
// unspecified listen address (0.0.0.0, ::) becomes loopback.
func browserAddr(addr net.Addr) string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok || !tcp.IP.IsUnspecified() {
		return addr.String()
	}
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(tcp.Port))
}
