//go:build !unix

package pgtest

import "context"

// Server is a PostgreSQL server; on this OS none is ever started.
type Server struct{}

// BinDir reports ErrNotInstalled: the helper runs PostgreSQL on Unix only.
func BinDir() (string, error) { return "", ErrNotInstalled }

// Start reports ErrNotInstalled: the helper runs PostgreSQL on Unix only.
func Start(context.Context) (*Server, error) { return nil, ErrNotInstalled }

// DSN is never called on this OS.
func (s *Server) DSN(string) string { return "" }

// CreateDatabase reports ErrNotInstalled.
func (s *Server) CreateDatabase(context.Context) (string, error) { return "", ErrNotInstalled }

// Stop does nothing.
func (s *Server) Stop() error { return nil }
