//go:build js && wasm

package jsbind

// localStore is window.localStorage as settings.Store. Storage can throw
// (quota, privacy modes); a failure is logged and treated as absent.
type localStore struct{ ls jsValue }

// newLocalStore returns a store over a Storage object, or nil when there is
// none (Node, sandboxed frames), in which case manual starts are not
// remembered.
func newLocalStore(ls jsValue) *localStore {
	if ls.Type() != jsTypeObject || !isFunc(ls, "getItem") {
		return nil
	}
	return &localStore{ls: ls}
}

func (s *localStore) Get(key string) (string, bool) {
	v, err := s.ls.Call("getItem", key)
	if err != nil {
		consoleError("localStorage.getItem: %v", err)
		return "", false
	}
	if v.Type() != jsTypeString {
		return "", false
	}
	str, err := v.String()
	return str, err == nil
}

func (s *localStore) Set(key, value string) {
	if _, err := s.ls.Call("setItem", key, value); err != nil {
		consoleError("localStorage.setItem: %v", err)
	}
}

func (s *localStore) Remove(key string) {
	if _, err := s.ls.Call("removeItem", key); err != nil {
		consoleError("localStorage.removeItem: %v", err)
	}
}
