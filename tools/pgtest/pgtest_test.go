//go:build unix

package pgtest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

// Each test gets its own empty database on one real server.
func TestDatabase(t *testing.T) {
	a, b := Database(t), Database(t)
	assert.NotEqual(t, a, b)
	ctx := t.Context()
	c, err := pgx.Connect(ctx, a)
	require.NoError(t, err)
	defer c.Close(ctx)
	_, err = c.Exec(ctx, `CREATE TABLE x(v int)`)
	require.NoError(t, err)
	var version string
	require.NoError(t, c.QueryRow(ctx, `SHOW server_version`).Scan(&version))
	t.Log("PostgreSQL", version)

	c2, err := pgx.Connect(ctx, b)
	require.NoError(t, err)
	defer c2.Close(ctx)
	var n int
	require.NoError(t, c2.QueryRow(ctx, `SELECT count(*) FROM pg_tables WHERE tablename = 'x'`).Scan(&n))
	assert.Zero(t, n, "databases are apart")
}

// Stop ends every process of the server and removes its directory.
func TestStopLeavesNothing(t *testing.T) {
	s, err := Start(t.Context())
	if errors.Is(err, ErrNotInstalled) && os.Getenv(EnvRequire) != "1" {
		t.Skip(err)
	}
	require.NoError(t, err)
	pid := s.cmd.Process.Pid
	require.NoError(t, s.Stop())
	require.NoError(t, s.Stop(), "twice is harmless")
	_, err = os.Stat(s.dir)
	assert.True(t, os.IsNotExist(err), "directory removed")
	out, _ := exec.Command("pgrep", "-g", strconv.Itoa(pid)).Output()
	assert.Empty(t, strings.TrimSpace(string(out)), "no process of the server's group is left")
}

// A test process that dies without Stop (a panic, SIGKILL) takes its
// server with it: the server's lifeline closes with the process.
func TestServerEndsWithItsProcess(t *testing.T) {
	if os.Getenv("PGTEST_HELPER") == "1" {
		s, err := Start(t.Context())
		if err != nil {
			os.Exit(3)
		}
		fmt.Println(s.dir)
		os.Exit(0) // no Stop
	}
	if _, err := BinDir(); err != nil && os.Getenv(EnvRequire) != "1" {
		t.Skip(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestServerEndsWithItsProcess$")
	cmd.Env = append(os.Environ(), "PGTEST_HELPER=1")
	out, err := cmd.Output()
	require.NoError(t, err)
	dir := strings.TrimSpace(string(out))
	require.NotEmpty(t, dir)
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	deadline := time.Now().Add(30 * time.Second)
	for {
		pids, _ := exec.Command("pgrep", "-f", "postgres -D "+dir).Output()
		_, err := os.Stat(dir)
		if strings.TrimSpace(string(pids)) == "" && os.IsNotExist(err) {
			return
		}
		require.True(t, time.Now().Before(deadline), "the server or its directory outlived its process: %s", pids)
		time.Sleep(50 * time.Millisecond) // polling process exit, with a deadline
	}
}
