package status

import (
	"github.com/kandev/lsp/internal/wire"
	j "github.com/kandev/lsp/wasm/jsonlite"
)

// Where the status control renders.
const (
	// LocationToolbar: beside the active editor's actions.
	LocationToolbar = wire.StatusLocationToolbar
	// LocationStatusBar: an item of the application status bar.
	LocationStatusBar = wire.StatusLocationStatusBar
	// LocationNone: nowhere (phone file viewing has no LSP at all).
	LocationNone = "none"
)

// Why the control is not where the user's preference puts it.
const (
	// FallbackStatusBarHidden: status_bar is preferred but the page's
	// status bar is off (Show status bar).
	FallbackStatusBarHidden = "status_bar_hidden"
	// FallbackCoarsePointer: status_bar is preferred but the layout uses a
	// coarse pointer, where the toolbar control and its drawer are the
	// touch-sized surface.
	FallbackCoarsePointer = "coarse_pointer"
	// FallbackPhone: phone file viewing shows no control at all.
	FallbackPhone = "phone"
)

// How the control discloses its details.
const (
	// DisclosurePopover: a popover anchored to the control (fine pointer).
	DisclosurePopover = "popover"
	// DisclosureDrawer: an inset bottom drawer (coarse pointer).
	DisclosureDrawer = "drawer"
)

// Layout is what the page knows about how it renders now.
type Layout struct {
	// Phone: the page shows files in its phone viewer, without Monaco.
	Phone bool
	// Coarse: the primary pointer is coarse (touch).
	Coarse bool
	// StatusBar: the application status bar is shown.
	StatusBar bool
}

// Pair is the (session, language) the status control represents.
type Pair struct {
	SessionID string
	Language  string
}

// Surface is where and how the page renders the status control for its
// active panel. The page renders the control at Location only when Pair is
// set, and never decides any of this itself.
type Surface struct {
	// Preferred is the user's normalized lsp_status_location. A fallback
	// never changes it, and the page must not save it back.
	Preferred string
	// Location is LocationToolbar, LocationStatusBar or LocationNone.
	Location string
	// Fallback says why Location is not Preferred ("" when it is).
	Fallback string
	// Disclosure is DisclosurePopover or DisclosureDrawer.
	Disclosure string
	// Pair is the active mounted Monaco text editor's pair, nil when the
	// active panel is anything else: no file, a file without a language
	// server, a session without LSP, a loading, binary or diff surface, or
	// phone file viewing.
	Pair *Pair
	// Connect tells the page whether files it opens in this layout may get
	// language-server documents at all (false on a phone: file viewing
	// there starts no server, not even in the background).
	Connect bool
}

// Decide places the control. preferred is the user's lsp_status_location
// (normalized here too: anything but status_bar is toolbar); active is the
// pair of the document whose Monaco model is mounted in the active editor,
// nil if none.
func Decide(preferred string, l Layout, active *Pair) Surface {
	s := Surface{Preferred: LocationToolbar, Location: LocationToolbar, Disclosure: DisclosurePopover, Pair: active, Connect: true}
	if preferred == LocationStatusBar {
		s.Preferred = LocationStatusBar
	}
	if l.Coarse {
		s.Disclosure = DisclosureDrawer
	}
	switch {
	case l.Phone:
		s.Location, s.Fallback, s.Pair, s.Connect = LocationNone, FallbackPhone, nil, false
	case s.Preferred == LocationToolbar:
	case l.Coarse:
		s.Fallback = FallbackCoarsePointer
	case !l.StatusBar:
		s.Fallback = FallbackStatusBarHidden
	default:
		s.Location = LocationStatusBar
	}
	return s
}

// JSON encodes the surface for JavaScript:
//
//	{"preferred":"status_bar","location":"toolbar","fallback":"coarse_pointer",
//	 "disclosure":"drawer","pair":{"sessionId":"demo","language":"go"},"connect":true}
//
// fallback and pair are null when unset.
func (s Surface) JSON() string {
	b := make([]byte, 0, 160)
	b = j.AppendLit(b, `{"preferred":`)
	b = j.AppendString(b, s.Preferred)
	b = j.AppendLit(b, `,"location":`)
	b = j.AppendString(b, s.Location)
	b = j.AppendLit(b, `,"fallback":`)
	if s.Fallback == "" {
		b = j.AppendNull(b)
	} else {
		b = j.AppendString(b, s.Fallback)
	}
	b = j.AppendLit(b, `,"disclosure":`)
	b = j.AppendString(b, s.Disclosure)
	b = j.AppendLit(b, `,"pair":`)
	if s.Pair == nil {
		b = j.AppendNull(b)
	} else {
		b = j.AppendLit(b, `{"sessionId":`)
		b = j.AppendString(b, s.Pair.SessionID)
		b = j.AppendLit(b, `,"language":`)
		b = j.AppendString(b, s.Pair.Language)
		b = append(b, '}')
	}
	b = j.AppendLit(b, `,"connect":`)
	b = j.AppendBool(b, s.Connect)
	return string(append(b, '}'))
}
