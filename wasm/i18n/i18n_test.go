package i18n

import (
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestElapsedComposition(t *testing.T) {
	t.Parallel()
	d := time.Hour + 2*time.Minute + 3*time.Second + 900*time.Millisecond
	cases := []struct {
		locale string
		d      time.Duration
		want   string
	}{
		{"en", d, "1 h 2 min 3 s"},
		{"de", d, "1 Std. 2 Min. 3 Sek."},
		{"de-AT", 65 * time.Second, "1 Min. 5 Sek."},
		{"en", 7 * time.Second, "7 s"},
		{"en", time.Hour, "1 h 0 min 0 s"},
		{"en", -time.Second, "0 s"},
		{"fr", 61 * time.Second, "1 min 1 s"}, // fallback to English
		{"en-XA", d, "[1 ĥ ~] [2 ɱîñ ~~] [3 š ~]"},
		{"en_xa", 3 * time.Second, "[3 š ~]"},
	}
	for _, c := range cases {
		require.Equal(t, c.want, For(c.locale).Elapsed(c.d.Milliseconds()), c.locale)
	}
}

func TestPluralAndPlaceholders(t *testing.T) {
	t.Parallel()
	en, de := For("en"), For("de")
	require.Equal(t, "1 other work item is active.", en.N("work.others", 1))
	require.Equal(t, "3 other work items are active.", en.N("work.others", 3))
	require.Equal(t, "1 weiterer Vorgang ist aktiv.", de.N("work.others", 1))
	require.Equal(t, "2 weitere Vorgänge sind aktiv.", de.N("work.others", 2))
	require.Equal(t, "42%", en.N("percent", 42))
	require.Equal(t, "42 %", de.N("percent", 42))
	require.Equal(t, "gopls failed to start.", en.T("close.4008", "server", "gopls"))
	require.Equal(t, "no.such.key", de.T("no.such.key"))
}

func TestPseudoLocale(t *testing.T) {
	t.Parallel()
	xa := For("en-XA")
	require.Equal(t, "en-XA", xa.Locale())
	got := xa.T("close.4008", "server", "gopls")
	require.True(t, strings.HasPrefix(got, "["), got)
	require.True(t, strings.HasSuffix(got, "]"), got)
	require.Contains(t, got, "gopls", "placeholders are filled, not accented")
	require.Contains(t, got, "ƒåîļéđ")
	require.Greater(t, len([]rune(got)), len("gopls failed to start."))
}

// Every catalog has every English key, so nothing falls back silently.
func TestCatalogsComplete(t *testing.T) {
	t.Parallel()
	var missing []string
	for _, tag := range Locales() {
		c := For(tag)
		for k := range For("en").msgs {
			if _, ok := c.msgs[k]; !ok {
				missing = append(missing, tag+":"+k)
			}
		}
		for k := range c.msgs {
			if _, ok := For("en").msgs[k]; !ok {
				missing = append(missing, tag+" extra:"+k)
			}
		}
	}
	sort.Strings(missing)
	require.Empty(t, missing)
}

// The tables are slices, not map literals, so the compiler no longer rejects
// a key given twice: this test does.
func TestTablesHaveNoDuplicateKeys(t *testing.T) {
	t.Parallel()
	for name, tables := range map[string][][]kv{
		"en": {englishStatus, englishPage, englishPageSearch},
		"de": {germanStatus, germanPage, germanPageSearch},
	} {
		seen := map[string]bool{}
		for _, table := range tables {
			for _, m := range table {
				require.False(t, seen[m.k], "%s: %s given twice", name, m.k)
				seen[m.k] = true
			}
		}
	}
}

// BenchmarkBuildCatalogs is the work package init did before catalogs were
// built on first use: English and German, every table.
func BenchmarkBuildCatalogs(b *testing.B) {
	for b.Loop() {
		fromTables("en", englishStatus, englishPage, englishPageSearch)
		fromTables("de", germanStatus, germanPage, germanPageSearch)
	}
}
