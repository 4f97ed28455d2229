package status

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// Spec: toolbar is the default; status_bar moves the control into the
// status bar only when Show status bar is on and the pointer is fine; with
// the status bar off or a coarse pointer the toolbar control stays and the
// saved preference is reported unchanged; phone file viewing has no control
// and no language server; a coarse pointer discloses in a drawer.
func TestDecide(t *testing.T) {
	t.Parallel()
	goPair := &Pair{SessionID: "demo", Language: "go"}
	desktop := Layout{StatusBar: true}
	cases := []struct {
		name       string
		preferred  string
		layout     Layout
		active     *Pair
		want       Surface
		wantPaired bool
	}{
		{"default is the toolbar", "", desktop, goPair,
			Surface{Preferred: "toolbar", Location: "toolbar", Disclosure: "popover", Connect: true}, true},
		{"an invalid value normalizes to the toolbar", "sidebar", desktop, goPair,
			Surface{Preferred: "toolbar", Location: "toolbar", Disclosure: "popover", Connect: true}, true},
		{"status bar on a fine pointer with the bar shown", "status_bar", desktop, goPair,
			Surface{Preferred: "status_bar", Location: "status_bar", Disclosure: "popover", Connect: true}, true},
		{"status bar hidden falls back to the toolbar", "status_bar", Layout{}, goPair,
			Surface{Preferred: "status_bar", Location: "toolbar", Fallback: "status_bar_hidden", Disclosure: "popover", Connect: true}, true},
		{"coarse pointer falls back to the toolbar and a drawer", "status_bar", Layout{StatusBar: true, Coarse: true}, goPair,
			Surface{Preferred: "status_bar", Location: "toolbar", Fallback: "coarse_pointer", Disclosure: "drawer", Connect: true}, true},
		{"coarse pointer with the toolbar preferred is no fallback", "toolbar", Layout{Coarse: true}, goPair,
			Surface{Preferred: "toolbar", Location: "toolbar", Disclosure: "drawer", Connect: true}, true},
		{"no active editor: placed, but nothing to show", "status_bar", desktop, nil,
			Surface{Preferred: "status_bar", Location: "status_bar", Disclosure: "popover", Connect: true}, false},
		{"phone: no control, no servers", "status_bar", Layout{Phone: true, Coarse: true, StatusBar: true}, goPair,
			Surface{Preferred: "status_bar", Location: "none", Fallback: "phone", Disclosure: "drawer", Connect: false}, false},
	}
	for _, c := range cases {
		got := Decide(c.preferred, c.layout, c.active)
		require.Equal(t, c.wantPaired, got.Pair != nil, c.name)
		if c.wantPaired {
			require.Equal(t, *c.active, *got.Pair, c.name)
		}
		got.Pair = nil
		require.Equal(t, c.want, got, c.name)
	}
}

func TestSurfaceJSON(t *testing.T) {
	t.Parallel()
	var got map[string]any
	s := Decide("status_bar", Layout{Coarse: true}, &Pair{SessionID: `a"b`, Language: "go"})
	require.NoError(t, json.Unmarshal([]byte(s.JSON()), &got))
	require.Equal(t, map[string]any{
		"preferred": "status_bar", "location": "toolbar", "fallback": "coarse_pointer", "disclosure": "drawer",
		"pair": map[string]any{"sessionId": `a"b`, "language": "go"}, "connect": true,
	}, got)
	require.JSONEq(t, `{"preferred":"toolbar","location":"toolbar","fallback":null,"disclosure":"popover","pair":null,"connect":true}`,
		Decide("", Layout{StatusBar: true}, nil).JSON())
}
