package relay

import (
	"errors"
	"net/http"

	"github.com/kandev/lsp/relay/settings"
)

// maxSettingsBody bounds a PUT body; LSP settings are a few kilobytes.
const maxSettingsBody = 1 << 20

// getSettings is GET /api/v1/user/settings: the requesting user's.
func (rl *Relay) getSettings(w http.ResponseWriter, r *http.Request) {
	st, err := rl.settings.Load(r.Context(), user(r))
	if err != nil {
		rl.log.Error("relay: load settings", "err", err)
		writeError(w, http.StatusInternalServerError, "", "settings unavailable")
		return
	}
	writeJSON(w, http.StatusOK, rl.cfg.Servers.Clean(st))
}

// putSettings is PUT /api/v1/user/settings: a partial update, validated by
// settings.DecodePatch with the relay's catalog (Config.Servers); the
// answer is the whole stored result, as GET.
func (rl *Relay) putSettings(w http.ResponseWriter, r *http.Request) {
	p, err := rl.cfg.Servers.DecodePatch(http.MaxBytesReader(w, r.Body, maxSettingsBody))
	var fe *settings.FieldError
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		writeError(w, http.StatusRequestEntityTooLarge, "", "settings body too large")
		return
	case errors.As(err, &fe):
		writeError(w, http.StatusBadRequest, fe.Field, fe.Error())
		return
	case err != nil:
		writeError(w, http.StatusBadRequest, "", err.Error())
		return
	}
	u := user(r)
	st, err := rl.settings.Update(r.Context(), u, p)
	if err != nil {
		rl.log.Error("relay: store settings", "err", err)
		writeError(w, http.StatusInternalServerError, "", "settings could not be saved")
		return
	}
	st = rl.cfg.Servers.Clean(st)
	if rl.cfg.SettingsChanged != nil {
		rl.cfg.SettingsChanged(u, st)
	}
	writeJSON(w, http.StatusOK, st)
}
