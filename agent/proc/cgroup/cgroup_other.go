//go:build !linux

package cgroup

import (
	"errors"
	"syscall"
)

// Available reports that there are no cgroups here.
func Available() (string, error) { return "", ErrUnavailable }

// Group is never created here.
type Group struct{}

// New fails: there are no cgroups here.
func New(string) (*Group, error) { return nil, ErrUnavailable }

func (g *Group) Dir() string           { return "" }
func (g *Group) FD() int               { return -1 }
func (g *Group) Pids() []int           { return nil }
func (g *Group) Signal(syscall.Signal) {}
func (g *Group) Populated() bool       { return false }
func (g *Group) Kill() error           { return errors.ErrUnsupported }
func (g *Group) Remove() error         { return nil }

// Signal does nothing here.
func Signal(string, syscall.Signal) {}

// Kill fails: there are no cgroups here.
func Kill(string) error { return errors.ErrUnsupported }

// EndFromInside does nothing here.
func EndFromInside(string) {}
