package settings

import "github.com/kandev/lsp/internal/wire"

// StatusLocation returns the user's normalized lsp_status_location:
// wire.StatusLocationToolbar unless status_bar was saved, also before any
// settings arrived.
func (p *Policy) StatusLocation() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.settings.StatusLocation == wire.StatusLocationStatusBar {
		return wire.StatusLocationStatusBar
	}
	return wire.StatusLocationToolbar
}
