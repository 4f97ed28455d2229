// Package lock serialises installs that change the same destination: Keyed
// within one agent process, File across agent processes sharing a task home.
// Both wait with a context, so a disconnected browser or a task stop never
// leaves a goroutine queued behind another connection's install.
package lock
