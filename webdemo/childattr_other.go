//go:build !linux

package webdemo

import "syscall"

func childAttr() *syscall.SysProcAttr { return nil }
