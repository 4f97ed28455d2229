package progress

import (
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/wasm/jsonlite"
)

func TestParseToken(t *testing.T) {
	t.Parallel()
	cases := []struct {
		raw  string
		want Token
		ok   bool
	}{
		{`"1"`, "s:1", true},
		{`1`, "n:1", true},
		{`-7`, "n:-7", true},
		{`"a b"`, "s:a b", true},
		{`1.5`, "", false},
		{`true`, "", false},
		{`null`, "", false},
		{`{}`, "", false},
		{``, "", false},
	}
	for _, c := range cases {
		got, ok := ParseToken(json.RawMessage(c.raw))
		require.Equal(t, c.ok, ok, c.raw)
		require.Equal(t, c.want, got, c.raw)
	}
	n, _ := ParseToken(json.RawMessage(`1`))
	s, _ := ParseToken(json.RawMessage(`"1"`))
	require.NotEqual(t, n, s, "1 and \"1\" are different tokens")
}

// step is one event in a table-driven progress sequence.
type step struct {
	create   string // window/workDoneProgress/create params
	progress string // $/progress params
	at       time.Duration
	changed  bool
}

func TestTrackerTable(t *testing.T) {
	t.Parallel()
	t0 := int64(1000000)
	pct := func(p int) int { return p }
	type want struct {
		primaryTitle, primaryMsg string
		primaryPct               int
		primaryStart             time.Duration
		others                   int
		finished                 *Item
		noPrimary                bool
	}
	cases := []struct {
		name  string
		init  string // the client's initialize token (string)
		steps []step
		want  want
	}{
		{
			name: "initialize token begin/report without create",
			init: "init-1",
			steps: []step{
				{progress: `{"token":"init-1","value":{"kind":"begin","title":"Importing Gradle project","message":"resolving","percentage":5}}`, changed: true},
				{progress: `{"token":"init-1","value":{"kind":"report","message":"module app"}}`, at: time.Second, changed: true},
			},
			want: want{primaryTitle: "Importing Gradle project", primaryMsg: "module app", primaryPct: pct(5)},
		},
		{
			name: "unknown token ignored",
			steps: []step{
				{progress: `{"token":"x","value":{"kind":"begin","title":"t"}}`},
				{progress: `{"token":"x","value":{"kind":"report","percentage":5}}`},
			},
			want: want{noPrimary: true},
		},
		{
			name: "number and string tokens are distinct",
			steps: []step{
				{create: `{"token":1}`},
				{progress: `{"token":"1","value":{"kind":"begin","title":"string"}}`},
				{progress: `{"token":1,"value":{"kind":"begin","title":"number"}}`, changed: true},
				{progress: `{"token":"1","value":{"kind":"end"}}`},
			},
			want: want{primaryTitle: "number", primaryPct: -1},
		},
		{
			name: "percentages clamped, omitted percentage keeps last",
			steps: []step{
				{create: `{"token":"a"}`},
				{progress: `{"token":"a","value":{"kind":"begin","title":"Indexing","percentage":150}}`, changed: true},
				{progress: `{"token":"a","value":{"kind":"report","percentage":-3}}`, changed: true},
				{progress: `{"token":"a","value":{"kind":"report","percentage":41.6}}`, changed: true},
				{progress: `{"token":"a","value":{"kind":"report","message":"pkg/x"}}`, changed: true},
			},
			want: want{primaryTitle: "Indexing", primaryMsg: "pkg/x", primaryPct: 42},
		},
		{
			name: "malformed payloads ignored, valid items kept",
			steps: []step{
				{create: `{"token":"a"}`},
				{progress: `{"token":"a","value":{"kind":"begin","title":"Loading","percentage":10}}`, changed: true},
				{progress: `not json`},
				{progress: `{"token":"a"}`},
				{progress: `{"token":"a","value":{"kind":"report","percentage":"ten"}}`},
				{progress: `{"token":"a","value":{"kind":"nonsense"}}`},
				{progress: `{"token":{"x":1},"value":{"kind":"end"}}`},
				{progress: `{"token":"a","value":{"kind":"begin"}}`},
				{create: `{"token":[1]}`},
			},
			want: want{primaryTitle: "Loading", primaryPct: 10},
		},
		{
			name: "oldest active is primary plus count; report and end touch only their token",
			steps: []step{
				{create: `{"token":"a"}`},
				{create: `{"token":2}`},
				{create: `{"token":"c"}`},
				{progress: `{"token":"a","value":{"kind":"begin","title":"A","percentage":90}}`, changed: true},
				{progress: `{"token":2,"value":{"kind":"begin","title":"B","percentage":10}}`, at: time.Second, changed: true},
				{progress: `{"token":"c","value":{"kind":"begin","title":"C"}}`, at: 2 * time.Second, changed: true},
				{progress: `{"token":2,"value":{"kind":"report","percentage":20}}`, at: 3 * time.Second, changed: true},
				{progress: `{"token":"c","value":{"kind":"end","message":"C done"}}`, at: 4 * time.Second, changed: true},
			},
			want: want{primaryTitle: "A", primaryPct: 90, others: 1, finished: &Item{Title: "C", Message: "C done", Percentage: -1}},
		},
		{
			name: "end of the primary promotes the next oldest; end of unknown ignored",
			steps: []step{
				{create: `{"token":"a"}`},
				{create: `{"token":"b"}`},
				{progress: `{"token":"a","value":{"kind":"begin","title":"A"}}`, changed: true},
				{progress: `{"token":"b","value":{"kind":"begin","title":"B","percentage":3}}`, at: time.Second, changed: true},
				{progress: `{"token":"a","value":{"kind":"end"}}`, at: 2 * time.Second, changed: true},
				{progress: `{"token":"a","value":{"kind":"end","message":"again"}}`},
				{progress: `{"token":"zz","value":{"kind":"end"}}`},
			},
			want: want{primaryTitle: "B", primaryPct: 3, primaryStart: time.Second, finished: &Item{Title: "A", Percentage: -1}},
		},
		{
			name: "begin replaces an active token with a new start time",
			steps: []step{
				{create: `{"token":"a"}`},
				{progress: `{"token":"a","value":{"kind":"begin","title":"first","percentage":50}}`, changed: true},
				{progress: `{"token":"a","value":{"kind":"begin","title":"second"}}`, at: 5 * time.Second, changed: true},
			},
			want: want{primaryTitle: "second", primaryPct: -1, primaryStart: 5 * time.Second},
		},
		{
			name: "report before begin ignored",
			steps: []step{
				{create: `{"token":"a"}`},
				{progress: `{"token":"a","value":{"kind":"report","percentage":5}}`},
			},
			want: want{noPrimary: true},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tr := New()
			if c.init != "" {
				tr.Expect(StringToken(c.init))
			}
			for i, s := range c.steps {
				if s.create != "" {
					tr.Create(json.RawMessage(s.create))
				}
				if s.progress != "" {
					require.Equal(t, s.changed, tr.Progress(json.RawMessage(s.progress), t0+s.at.Milliseconds()), "step %d", i)
				}
			}
			snap := tr.Snapshot()
			if c.want.noPrimary {
				require.Nil(t, snap.Primary)
				require.False(t, snap.Active())
				return
			}
			require.NotNil(t, snap.Primary)
			require.Equal(t, c.want.primaryTitle, snap.Primary.Title)
			require.Equal(t, c.want.primaryMsg, snap.Primary.Message)
			require.Equal(t, c.want.primaryPct, snap.Primary.Percentage)
			require.Equal(t, t0+c.want.primaryStart.Milliseconds(), snap.Primary.Started)
			require.Equal(t, c.want.others, snap.Others)
			if c.want.finished == nil {
				require.Nil(t, snap.Finished)
			} else {
				require.NotNil(t, snap.Finished)
				require.Equal(t, c.want.finished.Title, snap.Finished.Title)
				require.Equal(t, c.want.finished.Message, snap.Finished.Message)
			}
		})
	}
}

func TestFinalEndKeepsFinishedAndClearForgetsAll(t *testing.T) {
	t.Parallel()
	tr := New()
	tr.Create(json.RawMessage(`{"token":"a"}`))
	tr.Progress(json.RawMessage(`{"token":"a","value":{"kind":"begin","title":"Indexing"}}`), 1)
	tr.Progress(json.RawMessage(`{"token":"a","value":{"kind":"end","message":"Indexed 12 packages"}}`), 1001)
	s := tr.Snapshot()
	require.False(t, s.Active())
	require.Equal(t, "Indexed 12 packages", s.Finished.Message)

	tr.Clear()
	require.Equal(t, Snapshot{}, tr.Snapshot())
	// Known tokens are gone too: a begin for the old token is unknown now.
	require.False(t, tr.Progress(json.RawMessage(`{"token":"a","value":{"kind":"begin","title":"x"}}`), 2001))
}

// percentage reads numbers without strconv.ParseFloat; it must round and
// clamp them as ParseFloat then clamp would, and refuse what ParseFloat
// (and so encoding/json) refuses.
func TestPercentageAsParseFloat(t *testing.T) {
	lits := []string{
		"0", "-0", "1", "5", "41.6", "41.4", "49.5", "50.49", "99.5", "99.49", "100", "150", "-3", "-0.4",
		"0.5", "0.49999", "1e2", "1E2", "1e+2", "5e-1", "4.95e1", "4.949e1", "12.5e0", "0.000000000000000000001",
		"1e-400", "1e400", "-1e400", "1e308", "1.7e308", "2e308", "0e99999999999", "1e-99999999999",
		"123456789012345678901234567890", "0.00000000000000000000000000000000000000005e40",
		"33.333333333333333333333", "66.66666666666666666666666666e0", "2.5", "3.5", "0.0",
	}
	for i := 0; i < 2000; i++ {
		lits = append(lits, strconv.FormatFloat(float64(i)*0.0625-7, 'f', -1, 64), strconv.FormatFloat(float64(i)/7, 'g', -1, 64))
	}
	for _, lit := range lits {
		v, err := jsonlite.Parse([]byte(lit))
		if err != nil {
			t.Fatalf("%s: %v", lit, err)
		}
		got, ok := percentage(v)
		f, err := strconv.ParseFloat(lit, 64)
		if ok != (err == nil) || ok && got != clamp(f) {
			t.Errorf("percentage(%s) = %d, %v; ParseFloat and clamp: %d, %v", lit, got, ok, clamp(f), err)
		}
	}
	if _, ok := percentage(jsonlite.Value{}); ok {
		t.Error("a missing value read as a percentage")
	}
}
