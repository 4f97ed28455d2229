// Package lib is the task's second repository.
package lib

// Name names the library.
func Name() string { return "lib" }
