//go:build js && wasm

package jsbind

import (
	"errors"
	"fmt"

	"github.com/hack-pad/safejs"
)

// configureOptions are the arguments of kandevLSP.configure.
type configureOptions struct {
	editor   safejs.Value // monaco.editor
	relayURL string
}

// openOptions are the arguments of kandevLSP.openDocument.
type openOptions struct {
	sessionID string
	path      string
	model     safejs.Value
}

func parseConfigure(args []safejs.Value) (configureOptions, error) {
	opts, err := objectArg(args)
	if err != nil {
		return configureOptions{}, err
	}
	monaco, err := opts.Get("monaco")
	if err != nil || monaco.Type() != safejs.TypeObject {
		return configureOptions{}, errors.New("monaco must be the monaco namespace object")
	}
	editor, err := monaco.Get("editor")
	if err != nil || editor.Type() != safejs.TypeObject || !isFunc(editor, "setModelMarkers") {
		return configureOptions{}, errors.New("monaco.editor.setModelMarkers is missing")
	}
	relayURL, err := stringField(opts, "relayURL")
	if err != nil {
		return configureOptions{}, err
	}
	return configureOptions{editor: editor, relayURL: relayURL}, nil
}

func parseOpen(args []safejs.Value) (openOptions, error) {
	opts, err := objectArg(args)
	if err != nil {
		return openOptions{}, err
	}
	sessionID, err := stringField(opts, "sessionId")
	if err != nil {
		return openOptions{}, err
	}
	path, err := stringField(opts, "path")
	if err != nil {
		return openOptions{}, err
	}
	model, err := opts.Get("model")
	if err != nil || model.Type() != safejs.TypeObject || !isFunc(model, "getValue") || !isFunc(model, "onDidChangeContent") {
		return openOptions{}, errors.New("model must be a monaco ITextModel")
	}
	return openOptions{sessionID: sessionID, path: path, model: model}, nil
}

func objectArg(args []safejs.Value) (safejs.Value, error) {
	if len(args) < 1 || args[0].Type() != safejs.TypeObject {
		return safejs.Undefined(), errors.New("expected an options object")
	}
	return args[0], nil
}

// stringField reads a required non-empty string property.
func stringField(v safejs.Value, name string) (string, error) {
	p, err := v.Get(name)
	if err != nil {
		return "", err
	}
	if p.Type() != safejs.TypeString {
		return "", fmt.Errorf("%s must be a string", name)
	}
	s, err := p.String()
	if err != nil {
		return "", err
	}
	if s == "" {
		return "", fmt.Errorf("%s must not be empty", name)
	}
	return s, nil
}

// stringArg reads positional argument i as a string.
func stringArg(args []safejs.Value, i int) (string, bool) {
	if len(args) <= i || args[i].Type() != safejs.TypeString {
		return "", false
	}
	s, err := args[i].String()
	return s, err == nil
}
