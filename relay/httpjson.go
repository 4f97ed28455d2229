package relay

import (
	"encoding/json"
	"net/http"
)

// apiError is the body of every JSON error answer. Field names the
// offending settings field when there is one.
type apiError struct {
	Error string `json:"error"`
	Field string `json:"field,omitempty"`
	// Code is the stream's close code for the same refusal, on routes
	// that make the stream's checks (wire.CloseUnavailable, ...), so the
	// page localizes both the same way.
	Code int `json:"code,omitempty"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, field, msg string) {
	writeJSON(w, status, apiError{Error: msg, Field: field})
}
