package lsptypes

import (
	"github.com/kandev/lsp/wasm/jsonlite"
	"testing"
)

func TestParseSync(t *testing.T) {
	cases := []struct {
		raw  string
		want SyncOptions
	}{
		{``, SyncOptions{}},
		{`null`, SyncOptions{}},
		{`0`, SyncOptions{}},
		{`1`, SyncOptions{OpenClose: true, Change: SyncFull}},
		{`2`, SyncOptions{OpenClose: true, Change: SyncIncremental}},
		{`{"openClose":true,"change":1,"save":true}`, SyncOptions{OpenClose: true, Change: SyncFull, Save: true}},
		{`{"openClose":true,"change":2,"save":false}`, SyncOptions{OpenClose: true, Change: SyncIncremental}},
		{`{"openClose":true,"change":2,"save":{}}`, SyncOptions{OpenClose: true, Change: SyncIncremental, Save: true}},
		{`{"openClose":true,"change":2,"save":{"includeText":true}}`, SyncOptions{OpenClose: true, Change: SyncIncremental, Save: true, IncludeText: true}},
		{`{"change":7}`, SyncOptions{}},
	}
	for _, c := range cases {
		if got := ParseSync(jsonlite.Raw(c.raw)); got != c.want {
			t.Errorf("ParseSync(%s) = %+v, want %+v", c.raw, got, c.want)
		}
	}
}
