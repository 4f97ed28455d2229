package client

import "github.com/kandev/lsp/internal/wire"

// PairOf returns the (session, language) pair of the open document whose
// Monaco model has the URI modelURI, and whether there is one. It is how
// the page's active editor names the pair its status control shows: a
// model without a document (an unsupported file, a session without
// language servers) has none.
func (c *Client) PairOf(modelURI string) (sessionID string, lang wire.Language, ok bool) {
	if modelURI == "" {
		return "", "", false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for key, p := range c.pairs {
		for d := range p.docs {
			if d.model == modelURI {
				return key.sessionID, key.language, true
			}
		}
	}
	return "", "", false
}
