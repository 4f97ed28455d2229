//go:build unix

// Package pgtest runs a real, throw-away PostgreSQL server for tests and
// for the soak: initdb into a temporary directory, the postmaster on a free
// loopback port with its unix socket in that directory, and everything
// stopped and removed by Stop.
//
// initdb refuses to run as root, so as root both initdb and the server run
// as the "postgres" user (Debian's package creates it) and the directory is
// made theirs; as anyone else they run as the caller.
//
// The binaries come from $KANDEV_PG_BIN, else the newest
// /usr/lib/postgresql/*/bin holding initdb (Debian's layout), else PATH.
package pgtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// startTimeout bounds initdb plus the wait for the first connection.
const startTimeout = 60 * time.Second

// Server is one running PostgreSQL. Its superuser is "postgres" with trust
// authentication on loopback: it must never hold anything but test data.
type Server struct {
	dir  string
	data string
	port int
	cmd  *exec.Cmd
	log  *bytes.Buffer // the postmaster's output, for failures
	done chan struct{} // closed when the postmaster has exited
	werr error
	// lifeline's closing (Stop, or this process's end) shuts the server
	// down.
	lifeline *os.File

	mu   sync.Mutex
	dbs  int
	stop sync.Once
}

// BinDir returns the directory of initdb and postgres, or ErrNotInstalled.
func BinDir() (string, error) {
	if d := os.Getenv(EnvBin); d != "" {
		return d, nil
	}
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(matches) > 0 {
		// The newest major version: numeric order, so 15 sorts after 9.
		sort.Slice(matches, func(i, j int) bool { return majorOf(matches[i]) < majorOf(matches[j]) })
		return filepath.Dir(matches[len(matches)-1]), nil
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p), nil
	}
	return "", ErrNotInstalled
}

func majorOf(initdb string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(initdb))))
	return n
}

// Start initializes a cluster in a new temporary directory and runs it
// until Stop. A failure leaves nothing behind.
func Start(ctx context.Context) (_ *Server, err error) {
	bin, err := BinDir()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()

	cred, uid, gid, err := runAs()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "kandev-pg-")
	if err != nil {
		return nil, fmt.Errorf("pgtest: %w", err)
	}
	defer func() {
		if err != nil {
			_ = os.RemoveAll(dir)
		}
	}()
	if cred != nil {
		if err := os.Chown(dir, uid, gid); err != nil {
			return nil, fmt.Errorf("pgtest: %w", err)
		}
	}
	data := filepath.Join(dir, "data")
	initdb := exec.CommandContext(ctx, filepath.Join(bin, "initdb"),
		"-D", data, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync")
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := initdb.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("pgtest: initdb: %v\n%s", err, out)
	}

	// A free port can be taken between the probe and the bind: try a few.
	for range 5 {
		port, err := freePort()
		if err != nil {
			return nil, err
		}
		s := &Server{dir: dir, data: data, port: port, log: &bytes.Buffer{}, done: make(chan struct{})}
		// The postmaster runs under a shell that holds the read end of a
		// pipe whose write end only this process has: however this
		// process ends — Stop, a panic, SIGKILL — the read returns and
		// the shell asks the server for a fast shutdown and removes its
		// directory, so no server outlives its tests.
		lifeline, keep, err := os.Pipe()
		if err != nil {
			return nil, fmt.Errorf("pgtest: %w", err)
		}
		s.cmd = exec.Command("/bin/sh", "-c", `"$0" "$@" & pid=$!; read _; kill -INT $pid; wait $pid; rm -rf "$PGTEST_DIR"`,
			filepath.Join(bin, "postgres"),
			"-D", data, "-p", strconv.Itoa(port), "-k", dir, "-h", "127.0.0.1",
			// Test data: durability buys nothing and costs seconds.
			"-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
			// Three relays with their pools, and the soak's sampler.
			"-c", "max_connections=300")
		s.cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Setpgid: true}
		s.cmd.Stdin = lifeline
		s.cmd.Env = append(os.Environ(), "PGTEST_DIR="+dir) // removed after the shutdown, Stop or not
		s.cmd.Stdout, s.cmd.Stderr = s.log, s.log
		if err := s.cmd.Start(); err != nil {
			lifeline.Close()
			keep.Close()
			return nil, fmt.Errorf("pgtest: postgres: %w", err)
		}
		lifeline.Close()
		s.lifeline = keep
		go func() { s.werr = s.cmd.Wait(); close(s.done) }()
		err = s.waitReady(ctx)
		if err == nil {
			return s, nil
		}
		s.kill()
		if !strings.Contains(s.log.String(), "could not bind") && !strings.Contains(s.log.String(), "Address already in use") {
			return nil, fmt.Errorf("%w\n%s", err, s.log.String())
		}
	}
	return nil, errors.New("pgtest: no free port after 5 tries")
}

// runAs returns the credential to run PostgreSQL with: the postgres user's
// when we are root (initdb refuses root), none otherwise.
func runAs() (*syscall.Credential, int, int, error) {
	if os.Geteuid() != 0 {
		return nil, 0, 0, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, 0, 0, fmt.Errorf("pgtest: running as root needs the postgres user: %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, uid, gid, nil
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("pgtest: %w", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// waitReady polls with a connection until the server answers, it exits,
// or ctx ends.
func (s *Server) waitReady(ctx context.Context) error {
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		c, err := pgx.Connect(ctx, s.DSN("postgres"))
		if err == nil {
			return c.Close(ctx)
		}
		select {
		case <-s.done:
			return fmt.Errorf("pgtest: postgres exited: %v", s.werr)
		case <-ctx.Done():
			return fmt.Errorf("pgtest: postgres not ready: %w (last: %v)", ctx.Err(), err)
		case <-tick.C:
		}
	}
}

// DSN returns the URL of database db on this server.
func (s *Server) DSN(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", s.port, db)
}

// CreateDatabase creates a new, empty database with a fresh name and
// returns its DSN. Tests take one each, so they run in parallel without
// seeing each other's rows.
func (s *Server) CreateDatabase(ctx context.Context) (string, error) {
	s.mu.Lock()
	s.dbs++
	name := fmt.Sprintf("t%d", s.dbs)
	s.mu.Unlock()
	c, err := pgx.Connect(ctx, s.DSN("postgres"))
	if err != nil {
		return "", fmt.Errorf("pgtest: %w", err)
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		return "", fmt.Errorf("pgtest: create database: %w", err)
	}
	return s.DSN(name), nil
}

// Stop shuts the server down (fast shutdown: sessions are ended) and
// removes its directory. It is safe to call more than once.
func (s *Server) Stop() error {
	var err error
	s.stop.Do(func() {
		_ = s.lifeline.Close()
		select {
		case <-s.done:
		case <-time.After(30 * time.Second):
			s.kill()
			err = errors.New("pgtest: postgres ignored fast shutdown; killed")
		}
		if rerr := os.RemoveAll(s.dir); rerr != nil && err == nil {
			err = rerr
		}
	})
	return err
}

// kill ends the postmaster's whole process group at once and waits for it.
func (s *Server) kill() {
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	<-s.done
	_ = s.lifeline.Close()
}
