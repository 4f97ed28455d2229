//go:build js && wasm

package jsbind

import (
	"errors"

	"github.com/kandev/lsp/wasm/features"
)

// configureOptions are the arguments of kandevLSP.configure.
type configureOptions struct {
	monaco       jsValue // the namespace, or undefined while pending
	pending      jsValue // a promise (thenable) of the namespace, or undefined
	openFile     jsValue // the page's navigation callback, or undefined
	openTabs     jsValue // the page's open-tabs callback, or undefined
	openExternal jsValue // the page's opener of external URIs, or undefined
	readFile     jsValue // the page's file reader, or undefined
	listFiles    jsValue // the page's workspace lister, or undefined
	page         jsValue // the page's callbacks for the shim: readFile, readLibraryFile, onEdit, createFile, renameFile, deleteFile
	library      bool    // the page gave readLibraryFile: files outside the workspace open read-only
	fileOps      features.FileOps
	formatOnSave bool
	editor       jsValue // monaco.editor
	relayURL     string
	locale       string // "" means English
	settings     []byte // nil when not given
}

// openOptions are the arguments of kandevLSP.openDocument.
type openOptions struct {
	sessionID string
	path      string
	model     jsValue
	persisted *int // persistedVersion, when given
	// persistedText is the text at persistedVersion, when given with it.
	persistedText *string
	library       bool // a read-only file outside the workspace; path is absolute
}

func parseConfigure(args []jsValue) (configureOptions, error) {
	opts, err := objectArg(args)
	if err != nil {
		return configureOptions{}, err
	}
	monaco, err := opts.Get("monaco")
	if err != nil {
		return configureOptions{}, err
	}
	pending := jsUndefined()
	editor := jsUndefined()
	if t := monaco.Type(); (t == jsTypeObject || t == jsTypeFunction) && isFunc(monaco, "then") {
		pending, monaco = monaco, jsUndefined()
	} else if editor, err = monacoEditor(monaco); err != nil {
		return configureOptions{}, err
	}
	relayURL, err := stringField(opts, "relayURL")
	if err != nil {
		return configureOptions{}, err
	}
	o := configureOptions{monaco: monaco, pending: pending, editor: editor, relayURL: relayURL, openFile: jsUndefined(), openTabs: jsUndefined(), openExternal: jsUndefined(), readFile: jsUndefined(), listFiles: jsUndefined()}
	if f, err := opts.Get("openFile"); err == nil && f.Type() == jsTypeFunction {
		o.openFile = f
	}
	if f, err := opts.Get("openTabs"); err == nil && f.Type() == jsTypeFunction {
		o.openTabs = f
	}
	if f, err := opts.Get("readFile"); err == nil && f.Type() == jsTypeFunction {
		o.readFile = f
	}
	if f, err := opts.Get("listFiles"); err == nil && f.Type() == jsTypeFunction {
		o.listFiles = f
	}
	if f, err := opts.Get("openExternal"); err == nil && f.Type() == jsTypeFunction {
		o.openExternal = f
	}
	if o.page, err = newObject(); err != nil {
		return configureOptions{}, err
	}
	for i, name := range []string{"readFile", "readLibraryFile", "onEdit", "createFile", "renameFile", "deleteFile"} {
		if f, err := opts.Get(name); err == nil && f.Type() == jsTypeFunction {
			if err := o.page.Set(name, f); err != nil {
				return configureOptions{}, err
			}
			if i == 1 {
				o.library = true
			}
			if i >= 3 {
				o.fileOps |= [3]features.FileOps{features.OpCreate, features.OpRename, features.OpDelete}[i-3]
			}
		}
	}
	if f, err := opts.Get("formatOnSave"); err == nil && f.Type() == jsTypeBoolean {
		o.formatOnSave, _ = f.Bool()
	}
	if l, err := opts.Get("locale"); err == nil && l.Type() == jsTypeString {
		o.locale, _ = l.String()
	}
	if s, err := opts.Get("settings"); err == nil && s.Type() != jsTypeUndefined && s.Type() != jsTypeNull {
		if o.settings, err = jsonArg(s); err != nil {
			return configureOptions{}, errors.New("settings: " + err.Error())
		}
	}
	return o, nil
}

// monacoEditor checks a Monaco namespace and returns monaco.editor.
func monacoEditor(monaco jsValue) (jsValue, error) {
	if monaco.Type() != jsTypeObject {
		return jsUndefined(), errors.New("monaco must be the monaco namespace object or a promise of it")
	}
	editor, err := monaco.Get("editor")
	if err != nil || editor.Type() != jsTypeObject || !isFunc(editor, "setModelMarkers") {
		return jsUndefined(), errors.New("monaco.editor.setModelMarkers is missing")
	}
	return editor, nil
}

// jsonArg turns a settings argument into JSON text: a string is taken as
// JSON already, an object is stringified once on the JavaScript side.
func jsonArg(v jsValue) ([]byte, error) {
	switch v.Type() {
	case jsTypeString:
		s, err := v.String()
		return []byte(s), err
	case jsTypeObject:
		j, err := jsGlobal().Get("JSON")
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

func parseOpen(args []jsValue) (openOptions, error) {
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
	if err != nil || model.Type() != jsTypeObject || !isFunc(model, "getValue") || !isFunc(model, "onDidChangeContent") {
		return openOptions{}, errors.New("model must be a monaco ITextModel")
	}
	o := openOptions{sessionID: sessionID, path: path, model: model}
	if v, err := opts.Get("library"); err == nil && v.Type() == jsTypeBoolean {
		o.library, _ = v.Bool()
	}
	if v, err := opts.Get("persistedVersion"); err == nil && v.Type() == jsTypeNumber {
		if n, err := v.Int(); err == nil {
			o.persisted = &n
		}
	}
	if v, err := opts.Get("persistedText"); err == nil && v.Type() == jsTypeString && o.persisted != nil {
		if s, err := v.String(); err == nil {
			o.persistedText = &s
		}
	}
	return o, nil
}

func objectArg(args []jsValue) (jsValue, error) {
	if len(args) < 1 || args[0].Type() != jsTypeObject {
		return jsUndefined(), errors.New("expected an options object")
	}
	return args[0], nil
}

// stringField reads a required non-empty string property.
func stringField(v jsValue, name string) (string, error) {
	p, err := v.Get(name)
	if err != nil {
		return "", err
	}
	if p.Type() != jsTypeString {
		return "", errors.New(name + " must be a string")
	}
	s, err := p.String()
	if err != nil {
		return "", err
	}
	if s == "" {
		return "", errors.New(name + " must not be empty")
	}
	return s, nil
}

// stringArg reads positional argument i as a string.
func stringArg(args []jsValue, i int) (string, bool) {
	if len(args) <= i || args[i].Type() != jsTypeString {
		return "", false
	}
	s, err := args[i].String()
	return s, err == nil
}
