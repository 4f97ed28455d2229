//go:build js && wasm

package jsbind

import (
	"errors"
	"fmt"

	"github.com/hack-pad/safejs"
)

// configureOptions are the arguments of kandevLSP.configure.
type configureOptions struct {
	monaco   safejs.Value // the namespace
	openFile safejs.Value // the page's navigation callback, or undefined
	openTabs safejs.Value // the page's open-tabs callback, or undefined
	readFile safejs.Value // the page's file reader, or undefined
	editor   safejs.Value // monaco.editor
	relayURL string
	locale   string // "" means English
	settings []byte // nil when not given
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
	o := configureOptions{monaco: monaco, editor: editor, relayURL: relayURL, openFile: safejs.Undefined(), openTabs: safejs.Undefined(), readFile: safejs.Undefined()}
	if f, err := opts.Get("openFile"); err == nil && f.Type() == safejs.TypeFunction {
		o.openFile = f
	}
	if f, err := opts.Get("openTabs"); err == nil && f.Type() == safejs.TypeFunction {
		o.openTabs = f
	}
	if f, err := opts.Get("readFile"); err == nil && f.Type() == safejs.TypeFunction {
		o.readFile = f
	}
	if l, err := opts.Get("locale"); err == nil && l.Type() == safejs.TypeString {
		o.locale, _ = l.String()
	}
	if s, err := opts.Get("settings"); err == nil && s.Type() != safejs.TypeUndefined && s.Type() != safejs.TypeNull {
		if o.settings, err = jsonArg(s); err != nil {
			return configureOptions{}, errors.New("settings: " + err.Error())
		}
	}
	return o, nil
}

// jsonArg turns a settings argument into JSON text: a string is taken as
// JSON already, an object is stringified once on the JavaScript side.
func jsonArg(v safejs.Value) ([]byte, error) {
	switch v.Type() {
	case safejs.TypeString:
		s, err := v.String()
		return []byte(s), err
	case safejs.TypeObject:
		j, err := safejs.Global().Get("JSON")
		if err != nil {
			return nil, err
		}
		s, err := j.Call("stringify", v)
		if err != nil {
			return nil, err
		}
		str, err := s.String()
		return []byte(str), err
	}
	return nil, errors.New("expected an object or a JSON string")
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
