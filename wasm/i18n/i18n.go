// Package i18n holds the status texts of lsp.wasm in message catalogs: English
// (the fallback), German, and the pseudo locale en-XA (accented, bracketed,
// lengthened English, generated from the English catalog) that shows
// untranslated or truncated text in tests and screenshots.
//
// Messages are plain strings with named placeholders ("{n}", "{title}").
// Count-dependent messages have plural variants under KEY.one and KEY.other,
// chosen by the locale's plural rule, so a catalog can inflect where its
// language needs to. Elapsed time is composed from catalog units
// (elapsed.h, elapsed.m, elapsed.s) joined by elapsed.sep, so both the unit
// words and their order and spacing belong to the locale.
package i18n

import (
	"strconv"
	"sync"
)

// Catalog is one locale's messages.
type Catalog struct {
	locale string
	msgs   map[string]string
	// plural picks the plural category ("one" or "other") for a count.
	plural func(n int) string
}

// Locale is the catalog's locale tag.
func (c *Catalog) Locale() string { return c.locale }

// Locales lists the supported locale tags.
func Locales() []string { return []string{"en", "de", "en-XA"} }

// kv is one message of a table: the tables are static arrays, so loading
// lsp.wasm runs no code for them and a locale's map is built from its tables
// only when the locale is first asked for (German and en-XA usually never).
type kv struct{ k, v string }

// lazy is a catalog built on first use from its tables.
type lazy struct {
	once sync.Once
	cat  *Catalog
	make func() *Catalog
}

func (l *lazy) get() *Catalog {
	l.once.Do(func() { l.cat = l.make() })
	return l.cat
}

// fromTables builds a catalog from a locale's tables: its status texts
// (catalogs.go) and the page's (page.go, pagesearch.go).
func fromTables(locale string, tables ...[]kv) *Catalog {
	n := 0
	for _, t := range tables {
		n += len(t)
	}
	msgs := make(map[string]string, n)
	for _, t := range tables {
		for _, m := range t {
			msgs[m.k] = m.v
		}
	}
	return &Catalog{locale: locale, msgs: msgs, plural: oneOther}
}

var (
	englishCat = lazy{make: func() *Catalog {
		return fromTables("en", englishStatus, englishPage, englishPageSearch)
	}}
	germanCat = lazy{make: func() *Catalog {
		return fromTables("de", germanStatus, germanPage, germanPageSearch)
	}}
	pseudoCat = lazy{make: func() *Catalog { return pseudoCatalog(englishCat.get()) }}
)

// For returns the catalog for a BCP 47 tag: en-XA (or en_XA) is the pseudo
// locale, de and de-* are German, anything else is English. A catalog is
// built on the first call that asks for its locale.
func For(tag string) *Catalog {
	switch {
	case len(tag) == 5 && (tag[:3] == "en-" || tag[:3] == "en_") && (tag[3:] == "XA" || tag[3:] == "xa"):
		return pseudoCat.get()
	case len(tag) >= 2 && (tag[:2] == "de" || tag[:2] == "DE") && (len(tag) == 2 || tag[2] == '-' || tag[2] == '_'):
		return germanCat.get()
	}
	return englishCat.get()
}

// oneOther is the plural rule of English and German.
func oneOther(n int) string {
	if n == 1 {
		return "one"
	}
	return "other"
}

// T returns the message for key with placeholders replaced by args, given as
// name, value pairs. A key missing from this catalog falls back to English,
// then to the key itself.
func (c *Catalog) T(key string, args ...string) string {
	m, ok := c.msgs[key]
	if !ok {
		if m, ok = englishCat.get().msgs[key]; !ok {
			m = key
		}
	}
	return fill(m, args)
}

// N is T for a count: it picks KEY.one or KEY.other by the locale's plural
// rule and also fills {n} with the count.
func (c *Catalog) N(key string, n int, args ...string) string {
	k := key + "." + c.plural(n)
	if _, ok := c.msgs[k]; !ok {
		if _, ok := c.msgs[key+".other"]; ok {
			k = key + ".other"
		} else {
			k = key
		}
	}
	return c.T(k, append(args, "n", strconv.Itoa(n))...)
}

// Elapsed formats a duration given in milliseconds, in whole seconds,
// from the catalog's units: English "1 h 2 min 3 s", German
// "1 Std. 2 Min. 3 Sek.". Units above the largest non-zero one are left out;
// lower ones are always shown.
func (c *Catalog) Elapsed(ms int64) string {
	s := int(max(ms, 0) / 1000)
	h, m := s/3600, s/60%60
	out, sep := "", c.T("elapsed.sep")
	if h > 0 {
		out = c.N("elapsed.h", h) + sep
	}
	if h > 0 || m > 0 {
		out += c.N("elapsed.m", m) + sep
	}
	return out + c.N("elapsed.s", s%60)
}

// fill replaces {name} placeholders with the values of name, value pairs in
// one pass; unknown placeholders stay as they are.
func fill(m string, args []string) string {
	i := 0
	for i < len(m) && m[i] != '{' {
		i++
	}
	if i == len(m) || len(args) < 2 {
		return m
	}
	b := make([]byte, 0, len(m)+32)
	for i := 0; i < len(m); i++ {
		if m[i] == '{' {
			if j := closing(m, i); j > 0 {
				if v, ok := lookup(args, m[i+1:j]); ok {
					b = append(b, v...)
					i = j
					continue
				}
			}
		}
		b = append(b, m[i])
	}
	return string(b)
}

func closing(m string, i int) int {
	for j := i + 1; j < len(m); j++ {
		if m[j] == '}' {
			return j
		}
	}
	return -1
}

func lookup(args []string, name string) (string, bool) {
	for k := 0; k+1 < len(args); k += 2 {
		if args[k] == name {
			return args[k+1], true
		}
	}
	return "", false
}

// pseudoCatalog derives en-XA from a catalog: letters get accents, each
// message is bracketed and lengthened by about a third; placeholders stay
// intact so they are still filled.
func pseudoCatalog(src *Catalog) *Catalog {
	msgs := make(map[string]string, len(src.msgs))
	for k, v := range src.msgs {
		if k != "elapsed.sep" {
			v = pseudoText(v)
		}
		msgs[k] = v
	}
	return &Catalog{locale: "en-XA", msgs: msgs, plural: oneOther}
}

// accents maps a-z then A-Z to accented look-alikes.
var accents = []rune("åƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ")

func pseudoText(s string) string {
	b := []rune{'['}
	inArg := false
	letters := 0
	for _, r := range s {
		switch {
		case r == '{':
			inArg = true
		case r == '}':
			inArg = false
		case inArg:
		case 'a' <= r && r <= 'z':
			r = accents[r-'a']
			letters++
		case 'A' <= r && r <= 'Z':
			r = accents[26+r-'A']
			letters++
		}
		b = append(b, r)
	}
	b = append(b, ' ')
	for i := 0; i <= letters/3; i++ {
		b = append(b, '~')
	}
	return string(append(b, ']'))
}
