package pgtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"testing"
)

// shared is the one server of a test process, started by the first test
// that asks for a database and stopped by Main.
var shared struct {
	once sync.Once
	srv  *Server
	err  error
}

// Database returns the DSN of a new, empty database on the test process's
// server, starting it on first use. Without PostgreSQL installed the test
// is skipped — or fails, when $KANDEV_REQUIRE_POSTGRES is 1. The package's
// TestMain must run its tests through Main, which stops the server.
func Database(t testing.TB) string {
	t.Helper()
	shared.once.Do(func() { shared.srv, shared.err = Start(context.Background()) })
	switch {
	case errors.Is(shared.err, ErrNotInstalled) && os.Getenv(EnvRequire) != "1":
		t.Skipf("%v (set %s=1 to make this a failure)", shared.err, EnvRequire)
	case shared.err != nil:
		t.Fatal(shared.err)
	}
	dsn, err := shared.srv.CreateDatabase(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return dsn
}

// Main runs the package's tests, then stops the server if one was started,
// and returns the exit code for os.Exit.
func Main(m *testing.M) int {
	code := m.Run()
	if shared.srv != nil {
		if err := shared.srv.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			if code == 0 {
				code = 1
			}
		}
	}
	return code
}
