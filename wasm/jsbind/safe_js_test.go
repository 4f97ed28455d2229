//go:build js && wasm

package jsbind

import (
	"errors"
	"syscall/js"
	"testing"
)

func TestSprintf(t *testing.T) {
	for got, want := range map[string]string{
		sprintf("configure: %v", errors.New("boom")):        "configure: boom",
		sprintf("register providers for %s: %v", "go", nil): "register providers for go: <nil>",
		sprintf("%d%% of %q", 40, "x"):                      `40% of "x"`,
		sprintf("no args %s"):                               "no args %!s(MISSING)",
		sprintf("%v %v %v", true, int64(-3), struct{}{}):    "true -3 ?",
		sprintf("trailing %"):                               "trailing %",
	} {
		if got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}

func TestWrapKeepsCause(t *testing.T) {
	cause := errors.New("cause")
	err := wrap("jsbind: dial ws://x", cause)
	if !errors.Is(err, cause) || err.Error() != "jsbind: dial ws://x: cause" {
		t.Errorf("wrap = %v", err)
	}
}

// JavaScript exceptions and syscall/js misuse come back as errors, not
// panics.
func TestJSErrorsAreErrors(t *testing.T) {
	thrower, err := jsGlobal().Get("Function")
	if err != nil {
		t.Fatal(err)
	}
	f, err := thrower.New("throw new TypeError('nope')")
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.Invoke()
	var jsErr js.Error
	if !errors.As(err, &jsErr) {
		t.Fatalf("Invoke of a throwing function: %v", err)
	}
	s, _ := jsValueOf("text")
	if _, err := s.Int(); err == nil {
		t.Errorf("Int on a string: no error")
	}
	if _, err := jsUndefined().Get("x"); err == nil {
		t.Errorf("Get on undefined: no error")
	}
	if err := jsNull().Set("x", 1); err == nil {
		t.Errorf("Set on null: no error")
	}
}
